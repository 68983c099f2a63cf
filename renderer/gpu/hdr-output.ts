// Whether this display and browser can show HDR output: the media query, then an rgba16float canvas with extended tone mapping.

export interface HdrSupport {
  available: boolean;
  /** Why not (or what was found): shown beside the disabled "HDR output" toggle. */
  reason: string;
  /** What the two checks found, for tests and the diagnostics panel. */
  mediaHigh: boolean;
  canvasExtended: boolean;
}

export const HDR_CANVAS_FORMAT: GPUTextureFormat = 'rgba16float';

/** Configuration of an extended-range canvas for `device`. */
export function hdrCanvasConfiguration(device: GPUDevice, usage: number): GPUCanvasConfiguration {
  return { device, format: HDR_CANVAS_FORMAT, alphaMode: 'opaque', usage, toneMapping: { mode: 'extended' } } as GPUCanvasConfiguration;
}

/**
 * Configures `context` (a scratch canvas's) for extended output and reads back what the browser kept: a browser that
 * does not know `toneMapping` ignores it silently, so only getConfiguration() tells.
 */
export function canvasAcceptsExtended(device: GPUDevice, context: GPUCanvasContext): { ok: boolean; reason: string } {
  try {
    context.configure(hdrCanvasConfiguration(device, GPUTextureUsage.RENDER_ATTACHMENT));
  } catch (e) {
    return {
      ok: false,
      reason: `the WebGPU canvas refused ${HDR_CANVAS_FORMAT} with extended tone mapping (${e instanceof Error ? e.message : String(e)})`,
    };
  }
  const get = (
    context as GPUCanvasContext & { getConfiguration?: () => (GPUCanvasConfiguration & { toneMapping?: { mode?: string } }) | null }
  ).getConfiguration;
  if (typeof get !== 'function')
    return {
      ok: false,
      reason:
        'this browser cannot report its canvas configuration, so extended tone mapping cannot be confirmed: update the browser (Chrome 131 or later)',
    };
  const mode = get.call(context)?.toneMapping?.mode ?? 'standard';
  context.unconfigure();
  return mode === 'extended'
    ? { ok: true, reason: 'the canvas keeps extended tone mapping' }
    : {
        ok: false,
        reason: `this browser's WebGPU canvas ignores extended tone mapping (it kept "${mode}"): update the browser (Chrome 129 or later)`,
      };
}

/** Both checks; `mediaHigh` is matchMedia('(dynamic-range: high)').matches where the page has a window. */
export function probeHdrSupport(device: GPUDevice, context: GPUCanvasContext | null, mediaHigh: boolean): HdrSupport {
  const canvas = context ? canvasAcceptsExtended(device, context) : { ok: false, reason: 'no canvas to try extended tone mapping on' };
  if (!mediaHigh) {
    return {
      available: false,
      mediaHigh,
      canvasExtended: canvas.ok,
      reason: `the display is not in HDR mode (the browser reports dynamic-range: standard): turn HDR on in the system's display settings, on an HDR display${canvas.ok ? '' : `; also, ${canvas.reason}`}`,
    };
  }
  if (!canvas.ok) return { available: false, mediaHigh, canvasExtended: false, reason: canvas.reason };
  return { available: true, mediaHigh, canvasExtended: true, reason: 'HDR display and an extended-range canvas' };
}

export function mediaIsHdr(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(dynamic-range: high)').matches;
}

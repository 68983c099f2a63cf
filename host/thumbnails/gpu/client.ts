// The command's side of the GPU thumbnail process: start it (Dawn in a child, so a native crash cannot end the command),
// send it planes, get 8-bit thumbnails back; and the calibration that measures it against the CPU path per adapter.
import { fork, type ChildProcess } from 'node:child_process';
import { floatToHalf } from '../../../codec/index.js';
import type { DisplayParams } from '../../../shaders/display-params.js';
import { dawnChildEnv, type DawnAdapter } from './dawn.js';
import { calibrate, type Calibration } from './calibration.js';
import type { GpuThumbnailRequest, GpuThumbnailResult } from './thumbnailer.js';
import { boxFilter, thumbnailSize } from '../job.js';
import { toneMapHalfRgba } from '../tone-map.js';
import { plainPlaneData, planeSamples } from '../../decode/plane-bytes.js';

export type GpuChildRequest = { type: 'thumb'; id: number; request: GpuThumbnailRequest } | { type: 'exit' };
export type GpuChildReply =
  | { type: 'ready'; adapter: DawnAdapter }
  | { type: 'fatal'; error: string }
  | { type: 'thumb'; id: number; ok: true; result: GpuThumbnailResult }
  | { type: 'thumb'; id: number; ok: false; error: string };

/** The GPU path is unavailable: no adapter, no Dawn, or its process ended. */
export class GpuChildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GpuChildError';
  }
}

export class GpuThumbsChild {
  /** Why the process ended, once it has; later calls reject with it. */
  dead: string | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (r: GpuThumbnailResult) => void; reject: (e: Error) => void }>();

  private constructor(
    private readonly child: ChildProcess,
    readonly adapter: DawnAdapter,
    private readonly stderrTail: () => string,
  ) {
    child.on('message', (m: GpuChildReply) => {
      if (m.type !== 'thumb') return;
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.ok) p?.resolve(m.result);
      else p?.reject(new Error(m.error));
    });
    child.on('exit', (code, signal) => {
      // an error exit says why on its last stderr line; after a signal that line is a stack frame, not a reason
      const tail = signal ? '' : (this.stderrTail().trim().split('\n').slice(-1)[0] ?? '');
      this.dead ??= `the GPU process ended (${signal ?? `exit ${code}`})${tail ? `: ${tail}` : ''}`;
      for (const p of this.pending.values()) p.reject(new GpuChildError(this.dead));
      this.pending.clear();
    });
  }

  /** Starts `entry` (the built gpu-thumbs-child.mjs) and waits for its adapter; rejects with GpuChildError saying why not. */
  static start(entry: string, timeoutMs = 60_000): Promise<GpuThumbsChild> {
    return new Promise((resolve, reject) => {
      let stderr = '';
      const child = fork(entry, [], {
        serialization: 'advanced',
        env: dawnChildEnv(),
        execArgv: [],
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      child.stderr!.on('data', (b: Buffer) => {
        stderr = (stderr + b.toString()).slice(-4000);
      });
      const fail = (why: string) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new GpuChildError(why));
      };
      const timer = setTimeout(() => fail(`the GPU process did not open a device in ${timeoutMs / 1000} s`), timeoutMs);
      child.once('error', (e) => fail(`cannot start the GPU process: ${e.message}`));
      const onExit = (code: number | null, signal: string | null) =>
        fail(
          `the GPU process ended while opening a device (${signal ?? `exit ${code}`})${stderr ? `: ${stderr.trim().split('\n').slice(-1)[0]}` : ''}`,
        );
      child.once('exit', onExit);
      child.once('message', (m: GpuChildReply) => {
        clearTimeout(timer);
        child.off('exit', onExit);
        if (m.type === 'ready') resolve(new GpuThumbsChild(child, m.adapter, () => stderr));
        else {
          child.kill('SIGKILL');
          reject(new GpuChildError(m.type === 'fatal' ? m.error : 'unexpected first message from the GPU process'));
        }
      });
    });
  }

  thumbnail(request: GpuThumbnailRequest): Promise<GpuThumbnailResult> {
    if (this.dead) return Promise.reject(new GpuChildError(this.dead));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // shared planes (the decode pool's) cannot cross to another process: they are serialised as copies anyway (of
      // the plane's own bytes: its buffer may be longer)
      const planes = request.planes.map((p) => ({ ...p, data: plainPlaneData(p) }));
      this.child.send({ type: 'thumb', id, request: { ...request, planes } } satisfies GpuChildRequest);
    });
  }

  /** Asks the process to end, and ends it if it has not within a second. */
  async close(): Promise<void> {
    if (this.dead) return;
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.dead = 'closed';
    try {
      this.child.send({ type: 'exit' } satisfies GpuChildRequest);
    } catch {
      /* already gone */
    }
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 1000);
    await exited;
    clearTimeout(timer);
  }

  /** Kills the process as a crash would (tests). */
  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    this.child.kill(signal);
  }
}

/** Synthetic linear half RGBA planes for calibration: smooth HDR ramps (0.01..4), every value finite. */
export function calibrationImage(widthPx: number, heightPx: number): GpuThumbnailRequest['planes'] {
  return ['R', 'G', 'B', 'A'].map((name, c) => {
    const d = new Uint16Array(widthPx * heightPx);
    for (let y = 0; y < heightPx; y++) {
      for (let x = 0; x < widthPx; x++) {
        const v = c === 3 ? 1 : 0.01 + 4 * ((x / widthPx) * (c + 1) * 0.5 + (y / heightPx) * 0.3) ** 2;
        d[y * widthPx + x] = floatToHalf(v);
      }
    }
    return { name, pixelType: 'half' as const, xSampling: 1, ySampling: 1, widthSamples: widthPx, heightSamples: heightPx, data: d.buffer };
  });
}

/**
 * The CPU path's work for one image from planes in memory, as a decode worker does it (one thread): box filter each
 * channel to the thumbnail size, to half, tone-map. What the GPU path replaces; the decode before it is common to both.
 */
export function cpuThumbnailFromPlanes(req: GpuThumbnailRequest): { rgba: Uint8ClampedArray; widthPx: number; heightPx: number } {
  const { widthPx, heightPx } = thumbnailSize(req.widthPx, req.heightPx, req.longSidePx);
  const filtered = req.slots.map((name) => {
    const p = name ? req.planes.find((q) => q.name === name) : undefined;
    if (!p) return null;
    return boxFilter({ ...p, data: planeSamples(p) }, widthPx, heightPx);
  });
  const half = new Uint16Array(widthPx * heightPx * 4);
  const ONE = floatToHalf(1);
  for (let i = 0; i < widthPx * heightPx; i++) {
    for (let c = 0; c < 4; c++) half[i * 4 + c] = filtered[c] ? floatToHalf(filtered[c]![i]!) : c === 3 ? ONE : 0;
  }
  return { rgba: toneMapHalfRgba(half, widthPx, heightPx, req.display), widthPx, heightPx };
}

/** Source sizes the calibration measures (16:9); the cost models are fitted through them. */
export const CALIBRATION_SIZES: readonly (readonly [number, number])[] = [
  [480, 270],
  [960, 540],
  [1920, 1080],
];

/**
 * Measures a GPU thumbnail through the child (planes sent, made, read back: what the command pays per image, textures
 * kept per size) against the CPU path's work on one thread, at each size, and fits the per-adapter cost models.
 */
export function calibrateGpuThumbnails(
  child: GpuThumbsChild,
  opts: { longSidePx: number; display: DisplayParams; sizes?: readonly (readonly [number, number])[]; repeats?: number },
): Promise<Calibration> {
  const images = new Map<string, GpuThumbnailRequest>();
  const request = (w: number, h: number): GpuThumbnailRequest => {
    const key = `${w}x${h}`;
    let r = images.get(key);
    if (!r) {
      r = {
        widthPx: w,
        heightPx: h,
        originX: 0,
        originY: 0,
        planes: calibrationImage(w, h),
        slots: ['R', 'G', 'B', 'A'],
        longSidePx: opts.longSidePx,
        display: opts.display,
      };
      images.set(key, r);
    }
    return r;
  };
  return calibrate({
    adapter: child.adapter.key,
    cpuThreads: 1,
    longSidePx: opts.longSidePx,
    sizes: opts.sizes ?? CALIBRATION_SIZES,
    repeats: opts.repeats ?? 3,
    gpuThumbnailMs: async (w, h) => {
      const t0 = performance.now();
      await child.thumbnail(request(w, h));
      return performance.now() - t0;
    },
    cpuThumbnailMs: async (w, h) => {
      const t0 = performance.now();
      cpuThumbnailFromPlanes(request(w, h));
      return performance.now() - t0;
    },
  });
}

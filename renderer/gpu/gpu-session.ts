// One GPU device and what is made once per device: the shader kit, the plane uploader, the tone-map path chosen
// for the canvas format, the timers, the HDR probe. A lost device ends its session; the engine opens another.
import { DummyPlanes } from '../../shaders/passes.js';
import { ShaderKit, STORAGE_TARGET_FORMATS } from '../../shaders/pipelines.js';
import { requestGpuDevice, type GpuDeviceInfo } from './device.js';
import { GpuTimer } from './gpu-timer.js';
import { mediaIsHdr, probeHdrSupport, type HdrSupport } from './hdr-output.js';
import { createPlaneUploader, type PlaneUploader } from './plane-uploader.js';
import type { EngineOptions, ToneMapPath } from './engine-types.js';

/**
 * Which tone-map path a canvas format allows on a device. Compute wherever the canvas texture can be a storage
 * texture: the same toneMapPixel runs an order of magnitude faster in a compute pass than as the preview's fragment
 * pass (bench/gpu/NOTES.md). rgba8unorm takes storage writes in core WebGPU; bgra8unorm (the preferred
 * canvas format on most desktops) only with the 'bgra8unorm-storage' feature.
 */
export function chooseToneMapPath(
  format: GPUTextureFormat,
  features: ReadonlySet<string>,
  want: 'auto' | ToneMapPath = 'auto',
): { path: ToneMapPath; reason: string } {
  if (want === 'render pass') return { path: 'render pass', reason: 'render pass asked for' };
  if (format === 'bgra8unorm' && !features.has('bgra8unorm-storage'))
    return {
      path: 'render pass',
      reason: "the canvas format bgra8unorm needs the 'bgra8unorm-storage' feature for storage writes, and the device has none",
    };
  if (!STORAGE_TARGET_FORMATS.includes(format))
    return { path: 'render pass', reason: `the canvas format ${format} cannot be a storage texture` };
  const why = format === 'bgra8unorm' ? "canvas bgra8unorm with 'bgra8unorm-storage'" : `canvas ${format} takes storage writes`;
  return { path: 'compute', reason: `${why}: tone-map in a compute pass straight into the canvas texture` };
}

export class GpuSession {
  /** Set when the device is lost: work finishing on it afterwards is thrown away. */
  lost = false;
  private hdr: HdrSupport | null = null;

  private constructor(
    readonly info: GpuDeviceInfo,
    readonly format: GPUTextureFormat,
    readonly kit: ShaderKit,
    readonly uploader: PlaneUploader,
    readonly toneMap: { path: ToneMapPath; reason: string },
    readonly dummies: DummyPlanes,
    readonly mipTimer: GpuTimer | null,
    readonly toneTimer: GpuTimer | null,
    private readonly assumeHdrMedia: boolean | undefined,
  ) {}

  static async open(options: EngineOptions): Promise<GpuSession> {
    const info = await requestGpuDevice();
    const device = info.device;
    const format = options.canvasFormat ?? navigator.gpu.getPreferredCanvasFormat();
    const kit = new ShaderKit(device);
    const uploader = await createPlaneUploader(device, options.uploader === 'writeTexture' ? { force: 'writeTexture' } : {});
    const toneMap = await probeToneMapPath(kit, format, options.toneMapPath);
    const timer = (label: string) => (info.hasTimestamps ? new GpuTimer(device, label) : null);
    return new GpuSession(
      info,
      format,
      kit,
      uploader,
      toneMap,
      new DummyPlanes(device),
      timer('mip'),
      timer('tonemap'),
      options.assumeHdrMedia,
    );
  }

  get device(): GPUDevice {
    return this.info.device;
  }

  /** Whether HDR output can be had here, and why not; probed once per device on a scratch canvas. */
  hdrSupport(): HdrSupport {
    if (!this.hdr) {
      const scratch =
        typeof OffscreenCanvas === 'function' ? (new OffscreenCanvas(1, 1).getContext('webgpu') as GPUCanvasContext | null) : null;
      this.hdr = probeHdrSupport(this.device, scratch, this.assumeHdrMedia ?? mediaIsHdr());
    }
    return this.hdr;
  }

  /** A timer for playback's layer builds, where the adapter has timestamps. */
  buildTimer(): GpuTimer | null {
    return this.info.hasTimestamps ? new GpuTimer(this.device, 'frame build') : null;
  }

  /** The per-frame bind group of the canvas texture the compute tone-map writes. */
  canvasTarget(view: GPUTextureView): GPUBindGroup {
    return this.device.createBindGroup({
      label: 'canvas target',
      layout: this.kit.previewTargetLayout(this.format),
      entries: [{ binding: 0, resource: view }],
    });
  }

  close(): void {
    this.uploader.destroy();
    this.info.device.destroy();
  }
}

/** chooseToneMapPath, then the compute pipeline built once inside an error scope: any refusal falls back to the render pass. */
async function probeToneMapPath(
  kit: ShaderKit,
  format: GPUTextureFormat,
  want: EngineOptions['toneMapPath'],
): Promise<{ path: ToneMapPath; reason: string }> {
  const device = kit.device;
  const choice = chooseToneMapPath(format, device.features as ReadonlySet<string>, want);
  if (choice.path !== 'compute') return choice;
  device.pushErrorScope('validation');
  let thrown = '';
  let probe: GPUTexture | null = null;
  try {
    kit.previewCompute(format);
    probe = device.createTexture({
      label: 'storage probe',
      size: [1, 1],
      format,
      usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
    });
    device.createBindGroup({ layout: kit.previewTargetLayout(format), entries: [{ binding: 0, resource: probe.createView() }] });
  } catch (e) {
    thrown = e instanceof Error ? e.message : String(e);
  }
  const error = await device.popErrorScope();
  probe?.destroy();
  if (thrown || error)
    return { path: 'render pass', reason: `the compute tone-map was refused on this device (${thrown || error!.message})` };
  return choice;
}

// Opens a WebGPU device in Node through Dawn's `webgpu` package, and the GPU-timing and readback helpers the bench shares.
import { create, globals } from 'webgpu';

export interface DawnDevice {
  gpu: GPU;
  device: GPUDevice;
  adapter: GPUAdapter;
  adapterInfo: { vendor: string; architecture: string; device: string; description: string; backend: string };
  timestamps: boolean;
}

let installed = false;
/**
 * Every `GPU` object created stays referenced here for the life of the process. dawn.node schedules
 * `Instance::ProcessEvents` on its own and does not keep the instance alive: once the `GPU` object that
 * `create()` returned is garbage-collected, the next tick locks a freed mutex and aborts the process
 * ("The futex facility returned an unexpected error code", or std::system_error "Invalid argument").
 * Large allocations (several-MB writeTexture data) trigger the collection sooner, which is why
 * ../shared/GPU.md saw it after a few writeTexture calls. Found here with gdb: the abort is in
 * dawn::native::InstanceBase::ProcessEvents called from AsyncRunner::ScheduleProcessEvents.
 */
const liveInstances: GPU[] = [];

export async function openDawnDevice(opts: { timestamps?: boolean; limits?: Record<string, number> } = {}): Promise<DawnDevice> {
  if (!installed) {
    Object.assign(globalThis, globals);
    installed = true;
  }
  // unquantized timestamps: Dawn rounds them (to 100 µs in browsers) unless told not to
  const gpu = create(['disable-dawn-features=timestamp_quantization']);
  liveInstances.push(gpu);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('no WebGPU adapter (is a Vulkan driver visible? see ../shared/GPU.md)');
  const wantTs = (opts.timestamps ?? true) && adapter.features.has('timestamp-query');
  const requiredLimits: Record<string, number> = {};
  // ask for what the adapter has: 8K float images need large buffers and bindings, a channel expression many planes
  const wanted = ['maxBufferSize', 'maxStorageBufferBindingSize', 'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupSizeX'];
  for (const k of [...wanted, 'maxSampledTexturesPerShaderStage']) {
    const v = (adapter.limits as unknown as Record<string, number>)[k];
    if (typeof v === 'number') requiredLimits[k] = v;
  }
  Object.assign(requiredLimits, opts.limits ?? {});
  const device = await adapter.requestDevice({ requiredFeatures: wantTs ? ['timestamp-query'] : [], requiredLimits });
  const info = adapter.info as unknown as Record<string, string | undefined>;
  return {
    gpu,
    device,
    adapter,
    adapterInfo: {
      vendor: info.vendor ?? '',
      architecture: info.architecture ?? '',
      device: info.device ?? '',
      description: info.description ?? '',
      backend: (info as { backendType?: string }).backendType ?? '',
    },
    timestamps: wantTs,
  };
}

/** A name per adapter for caches: description if the driver gives one, else vendor/architecture/device. */
export function adapterKey(info: DawnDevice['adapterInfo']): string {
  return info.description || [info.vendor, info.architecture, info.device].filter(Boolean).join(' ') || 'unknown adapter';
}

/** Timestamp queries for passes: `slot(i)` gives a pass's timestampWrites; `read()` the durations in ms. */
export class GpuTimer {
  private readonly querySet: GPUQuerySet;
  private readonly resolveBuf: GPUBuffer;
  private readonly readBuf: GPUBuffer;
  constructor(
    private readonly device: GPUDevice,
    readonly capacity: number,
  ) {
    this.querySet = device.createQuerySet({ type: 'timestamp', count: capacity * 2 });
    this.resolveBuf = device.createBuffer({ size: capacity * 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    this.readBuf = device.createBuffer({ size: capacity * 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  }
  /** timestampWrites for a pass: `begin` only on the first, `end` only on the last of a range of passes. */
  writes(i: number, part: 'both' | 'begin' | 'end' = 'both'): GPUComputePassTimestampWrites {
    const w: GPUComputePassTimestampWrites = { querySet: this.querySet };
    if (part !== 'end') w.beginningOfPassWriteIndex = 2 * i;
    if (part !== 'begin') w.endOfPassWriteIndex = 2 * i + 1;
    return w;
  }
  resolve(encoder: GPUCommandEncoder, count: number): void {
    encoder.resolveQuerySet(this.querySet, 0, count * 2, this.resolveBuf, 0);
    encoder.copyBufferToBuffer(this.resolveBuf, 0, this.readBuf, 0, count * 16);
  }
  async read(count: number): Promise<number[]> {
    await this.readBuf.mapAsync(GPUMapMode.READ, 0, count * 16);
    const t = new BigUint64Array(this.readBuf.getMappedRange(0, count * 16).slice(0));
    this.readBuf.unmap();
    const ms: number[] = [];
    for (let i = 0; i < count; i++) ms.push(Number(t[2 * i + 1]! - t[2 * i]!) / 1e6);
    return ms;
  }
  destroy(): void {
    this.querySet.destroy();
    this.resolveBuf.destroy();
    this.readBuf.destroy();
  }
}

/** Copies a whole texture level back to the CPU (rows de-padded). */
export async function readTexture(device: GPUDevice, texture: GPUTexture, bytesPerPixel: number, mipLevel = 0): Promise<Uint8Array> {
  const w = Math.max(1, texture.width >> mipLevel);
  const h = Math.max(1, texture.height >> mipLevel);
  const bytesPerRow = Math.ceil((w * bytesPerPixel) / 256) * 256;
  const buf = device.createBuffer({ size: bytesPerRow * h, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyTextureToBuffer({ texture, mipLevel }, { buffer: buf, bytesPerRow, rowsPerImage: h }, { width: w, height: h });
  device.queue.submit([enc.finish()]);
  await buf.mapAsync(GPUMapMode.READ);
  const src = new Uint8Array(buf.getMappedRange());
  const out = new Uint8Array(w * h * bytesPerPixel);
  for (let y = 0; y < h; y++) out.set(src.subarray(y * bytesPerRow, y * bytesPerRow + w * bytesPerPixel), y * w * bytesPerPixel);
  buf.unmap();
  buf.destroy();
  return out;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Median GPU (timestamp queries, where the device has them) and wall time of `runs` submissions of `encode`, after 3 untimed. */
export async function timePasses(
  dawn: DawnDevice,
  runs: number,
  encode: (e: GPUCommandEncoder, ts: GPUComputePassTimestampWrites | undefined) => void,
): Promise<{ gpuMedianMs: number | null; wallMedianMs: number }> {
  const { device } = dawn;
  const timer = dawn.timestamps ? new GpuTimer(device, 1) : null;
  const gpu: number[] = [],
    wall: number[] = [];
  for (let i = -3; i < runs; i++) {
    const enc = device.createCommandEncoder();
    encode(enc, timer ? timer.writes(0) : undefined);
    if (timer) timer.resolve(enc, 1);
    const t0 = performance.now();
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
    const w = performance.now() - t0;
    const g = timer ? (await timer.read(1))[0]! : NaN;
    if (i >= 0) {
      wall.push(w);
      if (timer) gpu.push(g);
    }
  }
  return { gpuMedianMs: timer ? median(gpu) : null, wallMedianMs: median(wall) };
}

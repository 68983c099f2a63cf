// Metrics and statistics on the GPU for the engine: the two-pass reductions of shaders/compare-kit.ts over layer
// textures already in the GPU cache (nothing is uploaded), one run of each kind at a time, results read back off the
// frame loop with their GPU time (timestamp queries where the adapter has them) and wall time.
import { parseMetrics, parseStats, type ReducePlacement } from '../../shaders/compare-layouts.js';
import { ReduceBuffers, type CompareKit, type ReduceKind } from '../../shaders/compare-kit.js';
import type { ChannelStats, MetricsTotals, Region } from '../../shaders/compare-cpu.js';

export interface Timed<T> {
  value: T;
  gpuMs: number;
  wallMs: number;
}

class Stamp {
  private readonly set: GPUQuerySet;
  private readonly resolveBuf: GPUBuffer;
  private readonly read: GPUBuffer;
  constructor(device: GPUDevice) {
    this.set = device.createQuerySet({ label: 'reduce time', type: 'timestamp', count: 2 });
    this.resolveBuf = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    this.read = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  }
  get writes(): GPUComputePassTimestampWrites {
    return { querySet: this.set, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 };
  }
  resolve(encoder: GPUCommandEncoder): void {
    encoder.resolveQuerySet(this.set, 0, 2, this.resolveBuf, 0);
    encoder.copyBufferToBuffer(this.resolveBuf, 0, this.read, 0, 16);
  }
  async ms(): Promise<number> {
    await this.read.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(this.read.getMappedRange(), 0, 2);
    const ns = Number(t[1]! - t[0]!);
    this.read.unmap();
    return ns >= 0 ? ns / 1e6 : NaN;
  }
  destroy(): void {
    this.set.destroy();
    this.resolveBuf.destroy();
    this.read.destroy();
  }
}

export class Analysis {
  private readonly buffers: Record<ReduceKind, ReduceBuffers>;
  private readonly stamps: Record<ReduceKind, Stamp> | null;
  private readonly chains: Record<ReduceKind, Promise<unknown>> = { metrics: Promise.resolve(), stats: Promise.resolve() };
  runs = 0;
  lastGpuMs = NaN;

  constructor(
    private readonly ck: CompareKit,
    timestamps: boolean,
  ) {
    this.buffers = { metrics: new ReduceBuffers(ck, 'metrics'), stats: new ReduceBuffers(ck, 'stats') };
    this.stamps = timestamps ? { metrics: new Stamp(ck.device), stats: new Stamp(ck.device) } : null;
  }

  private run(
    kind: ReduceKind,
    a: GPUTexture,
    b: GPUTexture,
    region: Region,
    at: ReducePlacement,
    options: { valueMode?: number; threshold?: number },
  ): Promise<Timed<ArrayBuffer>> {
    const job = this.chains[kind].then(async () => {
      const t0 = performance.now();
      const device = this.ck.device;
      const encoder = device.createCommandEncoder({ label: `${kind} reduce` });
      const stamp = this.stamps?.[kind];
      this.buffers[kind].encode(encoder, a, b, region, at, { ...options, ...(stamp ? { timestampWrites: stamp.writes } : {}) });
      stamp?.resolve(encoder);
      device.queue.submit([encoder.finish()]);
      const [bytes, gpuMs] = await Promise.all([this.buffers[kind].readBack(), stamp ? stamp.ms() : Promise.resolve(NaN)]);
      this.runs++;
      this.lastGpuMs = gpuMs;
      return { value: bytes, gpuMs, wallMs: performance.now() - t0 };
    });
    this.chains[kind] = job.catch(() => {});
    return job;
  }

  async metrics(a: GPUTexture, b: GPUTexture, region: Region, at: ReducePlacement, threshold: number): Promise<Timed<MetricsTotals>> {
    const r = await this.run('metrics', a, b, region, at, { threshold });
    return { ...r, value: parseMetrics(r.value, region) };
  }

  async stats(a: GPUTexture, b: GPUTexture, region: Region, at: ReducePlacement, valueMode: number): Promise<Timed<ChannelStats[]>> {
    const r = await this.run('stats', a, b, region, at, { valueMode });
    return { ...r, value: parseStats(r.value) };
  }

  destroy(): void {
    this.buffers.metrics.destroy();
    this.buffers.stats.destroy();
    this.stamps?.metrics.destroy();
    this.stamps?.stats.destroy();
  }
}

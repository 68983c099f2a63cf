// Metrics and statistics on the GPU for the engine: the two-pass reductions of shaders/compare-kit.ts over layer
// textures already in the GPU cache (nothing is uploaded), one run of each kind at a time, results read back off the
// frame loop with their GPU time (timestamp queries where the adapter has them) and wall time.
import { parseMetrics, parseStats, type ReducePlacement } from '../../shaders/compare-layouts.js';
import { ReduceBuffers, type CompareKit, type ReduceKind } from '../../shaders/compare-kit.js';
import type { ChannelStats, MetricsTotals, Region } from '../../shaders/compare-cpu.js';

/** What a reduction reads: A's and B's layer textures and B's placement in A's pixel space. */
export interface ReduceOperands {
  a: GPUTexture;
  b: GPUTexture;
  at: ReducePlacement;
}

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

  /**
   * `operands` are asked for when the run is encoded, after the runs before it: a layer shown when it was asked for may
   * have been let go since (a file written again), its textures destroyed; null then, as when nothing is shown.
   */
  private run(
    kind: ReduceKind,
    operands: () => ReduceOperands | null,
    region: Region,
    options: { valueMode?: number; threshold?: number },
  ): Promise<Timed<ArrayBuffer> | null> {
    const job = this.chains[kind].then(async () => {
      const on = operands();
      if (!on) return null;
      const { a, b, at } = on;
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

  async metrics(operands: () => ReduceOperands | null, region: Region, threshold: number): Promise<Timed<MetricsTotals> | null> {
    const r = await this.run('metrics', operands, region, { threshold });
    return r && { ...r, value: parseMetrics(r.value, region) };
  }

  async stats(operands: () => ReduceOperands | null, region: Region, valueMode: number): Promise<Timed<ChannelStats[]> | null> {
    const r = await this.run('stats', operands, region, { valueMode });
    return r && { ...r, value: parseStats(r.value) };
  }

  destroy(): void {
    this.buffers.metrics.destroy();
    this.buffers.stats.destroy();
    this.stamps?.metrics.destroy();
    this.stamps?.stats.destroy();
  }
}

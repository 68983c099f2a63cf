// Runs the histogram compute on a small MIP level of a new layer and reads it back off the frame loop.
import { HISTOGRAM_BYTES, encodeHistogram } from '../../shaders/passes.js';
import type { ShaderKit } from '../../shaders/pipelines.js';

/** The histogram is taken on the first level whose long side is at most this (cheap, and plenty of samples). */
export const HISTOGRAM_LEVEL_MAX_PX = 512;

export function histogramLevel(widthPx: number, heightPx: number, levelCount: number): number {
  let level = 0;
  while (level < levelCount - 1 && Math.max(widthPx >> level, heightPx >> level) > HISTOGRAM_LEVEL_MAX_PX) level++;
  return level;
}

export class Histogrammer {
  private readonly bins: GPUBuffer;
  private readonly read: GPUBuffer;
  private busy = false;
  private next: { texture: GPUTexture; done: (bins: Uint32Array) => void } | null = null;

  constructor(private readonly kit: ShaderKit) {
    this.bins = kit.device.createBuffer({ label: 'histogram bins', size: HISTOGRAM_BYTES, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    this.read = kit.device.createBuffer({ label: 'histogram read', size: HISTOGRAM_BYTES, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  }

  /** Counts the histogram of `texture`; `done` gets a copy. Only the latest request waits while one is mapping. */
  run(texture: GPUTexture, done: (bins: Uint32Array) => void): void {
    if (this.busy) { this.next = { texture, done }; return; }
    this.busy = true;
    const level = histogramLevel(texture.width, texture.height, texture.mipLevelCount);
    const encoder = this.kit.device.createCommandEncoder({ label: 'histogram' });
    encodeHistogram(this.kit, encoder, texture, level, this.bins);
    encoder.copyBufferToBuffer(this.bins, 0, this.read, 0, HISTOGRAM_BYTES);
    this.kit.device.queue.submit([encoder.finish()]);
    this.read.mapAsync(GPUMapMode.READ).then(() => {
      const copy = new Uint32Array(this.read.getMappedRange().slice(0));
      this.read.unmap();
      this.busy = false;
      done(copy);
      const n = this.next;
      this.next = null;
      if (n) this.run(n.texture, n.done);
    }, () => { this.busy = false; });
  }
}

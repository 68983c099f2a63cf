// Runs a histogram pass (one layer's small MIP level, or what a compare mode shows) and reads it back off the frame loop.
import { HIST_SAMPLE_MAX_PX } from '../../shaders/display-params.js';
import { HISTOGRAM_BYTES, encodeHistogram } from '../../shaders/passes.js';
import type { ShaderKit } from '../../shaders/pipelines.js';
import type { Region } from '../../shaders/compare-cpu.js';
import type { SkippingHistograms } from '../../shaders/histogram-skip-gpu.js';

/** Encodes a histogram into `bins` (the pass clears them first). */
export type HistogramEncode = (encoder: GPUCommandEncoder, bins: GPUBuffer) => void;

/** The first level whose long side is at most HIST_SAMPLE_MAX_PX (cheap, and plenty of samples). */
export function histogramLevel(widthPx: number, heightPx: number, levelCount: number): number {
  let level = 0;
  while (level < levelCount - 1 && Math.max(widthPx >> level, heightPx >> level) > HIST_SAMPLE_MAX_PX) level++;
  return level;
}

/**
 * The histogram of one layer, from its small level; a texel that averages a pixel of `holes` (the layer's missing
 * pixels, 0-based) is left out, by the skipping pass. No holes: the plain pass, as before.
 */
export function layerHistogram(
  kit: ShaderKit,
  texture: GPUTexture,
  holes: readonly Region[] = [],
  skipping?: SkippingHistograms,
): HistogramEncode {
  const level = histogramLevel(texture.width, texture.height, texture.mipLevelCount);
  if (holes.length && skipping) return (encoder, bins) => skipping.encodeLayer(encoder, texture, level, bins, holes);
  return (encoder, bins) => encodeHistogram(kit, encoder, texture, level, bins);
}

interface HistogramRequest {
  encode: HistogramEncode;
  done: (bins: Uint32Array) => void;
  /** One of a stream of requests (playback frames, each superseding the last). */
  stream: boolean;
}

export class Histogrammer {
  private readonly bins: GPUBuffer;
  private readonly read: GPUBuffer;
  private busy = false;
  private next: HistogramRequest | null = null;

  constructor(private readonly kit: ShaderKit) {
    this.bins = kit.device.createBuffer({
      label: 'histogram bins',
      size: HISTOGRAM_BYTES,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    this.read = kit.device.createBuffer({
      label: 'histogram read',
      size: HISTOGRAM_BYTES,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
  }

  /**
   * Counts a histogram; `done` gets a copy. Only the latest request waits while one is mapping. A result superseded by
   * a newer request is dropped (it would only flash before the newer one), except within a stream: while playback keeps
   * the GPU queue full, every readback resolves after the next frame's request, so dropping them would show none.
   */
  run(encode: HistogramEncode, done: (bins: Uint32Array) => void, stream = false): void {
    this.submit({ encode, done, stream });
  }

  private submit(request: HistogramRequest): void {
    if (this.busy) {
      this.next = request;
      return;
    }
    this.busy = true;
    const encoder = this.kit.device.createCommandEncoder({ label: 'histogram' });
    request.encode(encoder, this.bins);
    encoder.copyBufferToBuffer(this.bins, 0, this.read, 0, HISTOGRAM_BYTES);
    this.kit.device.queue.submit([encoder.finish()]);
    this.read.mapAsync(GPUMapMode.READ).then(
      () => {
        const copy = new Uint32Array(this.read.getMappedRange().slice(0));
        this.read.unmap();
        this.finish(request, copy);
      },
      () => this.finish(request, null),
    );
  }

  private finish(request: HistogramRequest, bins: Uint32Array | null): void {
    this.busy = false;
    const n = this.next;
    this.next = null;
    if (bins && (!n || (n.stream && request.stream))) request.done(bins);
    if (n) this.submit(n);
  }
}

// The histogram of what a compare mode shows (A, B or a difference image) over a region of two layers: the pass of
// histogram-pair.wgsl with its parameters buffer, reused from run to run; the same bins as encodeHistogram's. Samples
// on missing pixels (a damaged A or B) are left out by the skipping variant, made on first need.
import { REDUCE_PARAMS_BYTES, histogramSampleStep, packReduceParams, type ReducePlacement } from './compare-layouts.js';
import type { CompareKit } from './compare-kit.js';
import type { Region } from './compare-cpu.js';
import { strideSkipCells } from './histogram-skip.js';
import { SkippingHistograms } from './histogram-skip-gpu.js';
import { UniformBlock } from './layouts.js';
import { HISTOGRAM_BYTES } from './passes.js';

/** histogram-pair.wgsl's @workgroup_size(8, 8). */
const WG = 8;

export class PairHistogramPass {
  private readonly params: GPUBuffer;
  private readonly block = new UniformBlock(REDUCE_PARAMS_BYTES);
  private skipping: SkippingHistograms | null = null;

  constructor(private readonly ck: CompareKit) {
    this.params = ck.device.createBuffer({
      label: 'pair histogram params',
      size: REDUCE_PARAMS_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
  }

  /**
   * Encodes the histogram of `valueMode` (statsSourceCode: 0 A, 1 B, 2 + metric code a difference's magnitude) over
   * `region` (A's pixel space), every `step`-th pixel each way, into `bins`, cleared first: [luminance, R, G, B] × 256 u32.
   * Samples on a pixel of `holes` (A's pixel space: A's missing pixels and B's, aligned) are left out.
   */
  encode(
    encoder: GPUCommandEncoder,
    a: GPUTexture,
    b: GPUTexture,
    region: Region,
    at: ReducePlacement,
    valueMode: number,
    bins: GPUBuffer,
    step = histogramSampleStep(region),
    holes: readonly Region[] = [],
  ): void {
    const d = this.ck.device;
    packReduceParams(this.block, region, at, valueMode, 0, 0, step);
    d.queue.writeBuffer(this.params, 0, this.block.bytes);
    encoder.clearBuffer(bins, 0, HISTOGRAM_BYTES);
    const cellsX = Math.ceil(region.widthPx / step),
      cellsY = Math.ceil(region.heightPx / step);
    const cells = holes.length ? strideSkipCells(holes, region, step) : [];
    const skipping = cells.length ? (this.skipping ??= new SkippingHistograms(d)) : null;
    const entries: GPUBindGroupEntry[] = [
      { binding: 0, resource: { buffer: this.params } },
      { binding: 1, resource: a.createView({ baseMipLevel: 0, mipLevelCount: 1 }) },
      { binding: 2, resource: b.createView({ baseMipLevel: 0, mipLevelCount: 1 }) },
      { binding: 3, resource: { buffer: bins, size: HISTOGRAM_BYTES } },
    ];
    const group = skipping
      ? d.createBindGroup({
          label: 'pair histogram skipping',
          layout: skipping.pairLayout,
          entries: [...entries, ...skipping.skipEntries(cells, cellsX, cellsY)],
        })
      : d.createBindGroup({ label: 'pair histogram', layout: this.ck.histogramLayout, entries });
    const pass = encoder.beginComputePass({ label: 'pair histogram' });
    pass.setPipeline(skipping ? skipping.pairPipeline() : this.ck.pairHistogram());
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(Math.ceil(cellsX / WG), Math.ceil(cellsY / WG));
    pass.end();
  }

  destroy(): void {
    this.params.destroy();
    this.skipping?.destroy();
  }
}

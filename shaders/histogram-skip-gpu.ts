// The GPU side of histograms that leave cells out (histogram-skip.ts): the mainSkipping pipelines of histogram.wgsl and
// histogram-pair.wgsl, on layouts that add the cells (binding 4) and their mask (binding 5) to the plain passes' own,
// and the cells' buffer and mask, written for each pass. The plain passes stay as they are: a whole image costs the same.
import compareCore from './compare-core.wgsl';
import reduceCommon from './reduce-common.wgsl';
import histogramBinsSrc from './histogram-bins.wgsl';
import histogramSrc from './histogram.wgsl';
import histogramPairSrc from './histogram-pair.wgsl';
import type { Region } from './compare-cpu.js';
import { REDUCE_PARAMS_BYTES } from './compare-layouts.js';
import { SKIP_CELLS_BYTES, levelSkipCells, packSkipCells, type CellBox } from './histogram-skip.js';
import { HISTOGRAM_BYTES } from './passes.js';

/** histogram.wgsl declares @workgroup_size(8, 8). */
const WG = 8;

const texture = (binding: number, sampleType: GPUTextureSampleType): GPUBindGroupLayoutEntry => ({
  binding,
  visibility: GPUShaderStage.COMPUTE,
  texture: { sampleType },
});
const buffer = (binding: number, type: GPUBufferBindingType): GPUBindGroupLayoutEntry => ({
  binding,
  visibility: GPUShaderStage.COMPUTE,
  buffer: { type },
});
/** Bindings 4 and 5 (a function: Node's tests import this module without WebGPU's globals). */
const skipLayoutEntries = (): GPUBindGroupLayoutEntry[] => [buffer(4, 'read-only-storage'), texture(5, 'uint')];

export class SkippingHistograms {
  readonly pairLayout: GPUBindGroupLayout;
  private readonly layerLayout: GPUBindGroupLayout;
  private readonly cells: GPUBuffer;
  /** 1×1 until a grid has more cells than the buffer holds. */
  private mask: GPUTexture;
  private layerPipeline: GPUComputePipeline | null = null;
  private pairPipelineCached: GPUComputePipeline | null = null;

  constructor(private readonly device: GPUDevice) {
    this.layerLayout = device.createBindGroupLayout({
      label: 'histogram skipping',
      entries: [texture(0, 'unfilterable-float'), buffer(1, 'storage'), ...skipLayoutEntries()],
    });
    this.pairLayout = device.createBindGroupLayout({
      label: 'pair histogram skipping',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', minBindingSize: REDUCE_PARAMS_BYTES } },
        texture(1, 'unfilterable-float'),
        texture(2, 'unfilterable-float'),
        buffer(3, 'storage'),
        ...skipLayoutEntries(),
      ],
    });
    this.cells = device.createBuffer({
      label: 'histogram skip cells',
      size: SKIP_CELLS_BYTES,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    this.mask = this.maskTexture(1, 1);
  }

  private maskTexture(widthPx: number, heightPx: number): GPUTexture {
    return this.device.createTexture({
      label: 'histogram skip mask',
      size: [widthPx, heightPx],
      format: 'r8uint',
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
    });
  }

  /**
   * Bindings 4 and 5 for `cells` of a gridWidthPx×gridHeightPx grid. Written through the queue, so the pass that binds
   * them must be submitted before the next call (the histogram passes are: one at a time).
   */
  skipEntries(cells: readonly CellBox[], gridWidthPx: number, gridHeightPx: number): GPUBindGroupEntry[] {
    const packed = packSkipCells(cells, gridWidthPx, gridHeightPx);
    this.device.queue.writeBuffer(this.cells, 0, packed.header);
    if (packed.mask) {
      const { data, widthPx, heightPx } = packed.mask;
      if (this.mask.width !== widthPx || this.mask.height !== heightPx) {
        this.mask.destroy();
        this.mask = this.maskTexture(widthPx, heightPx);
      }
      this.device.queue.writeTexture({ texture: this.mask }, data, { bytesPerRow: widthPx }, [widthPx, heightPx]);
    }
    return [
      { binding: 4, resource: { buffer: this.cells } },
      { binding: 5, resource: this.mask.createView() },
    ];
  }

  /** As encodeHistogram (passes.ts), leaving out every texel that averages a pixel of `holes` (the layer's pixels, 0-based). */
  encodeLayer(encoder: GPUCommandEncoder, source: GPUTexture, level: number, bins: GPUBuffer, holes: readonly Region[]): void {
    encoder.clearBuffer(bins, 0, HISTOGRAM_BYTES);
    const w = Math.max(1, source.width >> level),
      h = Math.max(1, source.height >> level);
    const group = this.device.createBindGroup({
      label: 'histogram skipping',
      layout: this.layerLayout,
      entries: [
        { binding: 0, resource: source.createView({ baseMipLevel: level, mipLevelCount: 1 }) },
        { binding: 1, resource: { buffer: bins, size: HISTOGRAM_BYTES } },
        ...this.skipEntries(levelSkipCells(holes, source.width, source.height, level), w, h),
      ],
    });
    this.layerPipeline ??= this.pipeline('histogram skipping', histogramBinsSrc + histogramSrc, this.layerLayout);
    const pass = encoder.beginComputePass({ label: 'histogram skipping' });
    pass.setPipeline(this.layerPipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(Math.ceil(w / WG), Math.ceil(h / WG));
    pass.end();
  }

  /** histogram-pair.wgsl's mainSkipping, on pairLayout (the pair histogram's bindings, then skipEntries'). */
  pairPipeline(): GPUComputePipeline {
    return (this.pairPipelineCached ??= this.pipeline(
      'pair histogram skipping',
      compareCore + reduceCommon + histogramBinsSrc + histogramPairSrc,
      this.pairLayout,
    ));
  }

  private pipeline(label: string, code: string, layout: GPUBindGroupLayout): GPUComputePipeline {
    return this.device.createComputePipeline({
      label,
      layout: this.device.createPipelineLayout({ bindGroupLayouts: [layout] }),
      compute: { module: this.device.createShaderModule({ label, code }), entryPoint: 'mainSkipping' },
    });
  }

  destroy(): void {
    this.cells.destroy();
    this.mask.destroy();
  }
}

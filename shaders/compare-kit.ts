// The compare and reduce pipelines for one device, beside a ShaderKit (whose palette and target layouts they share):
// layouts by update frequency (group 0 per frame, group 1 per image pair, group 2 static: palette and colormaps,
// group 3 the compute target), pipelines cached by key; and the encoders of the passes.
import compareCore from './compare-core.wgsl';
import compareSrc from './compare.wgsl';
import reduceCommon from './reduce-common.wgsl';
import reducePasses from './reduce-passes.wgsl';
import metricsSrc from './metrics.wgsl';
import statsSrc from './stats.wgsl';
import histogramBinsSrc from './histogram-bins.wgsl';
import histogramPairSrc from './histogram-pair.wgsl';
import { colormapTable } from './colormaps.js';
import {
  COMPARE_VIEW_BYTES,
  METRIC_PARTIAL_BYTES,
  REDUCE_PARAMS_BYTES,
  STAT_PARTIAL_BYTES,
  packReduceParams,
  reduceWorkgroups,
  type ReducePlacement,
} from './compare-layouts.js';
import { LUT_PARAMS_BYTES, PALETTE_BYTES, UniformBlock } from './layouts.js';
import type { Region } from './compare-cpu.js';
import { encodeTargetCompute } from './passes.js';
import {
  ocioLutLayoutEntries,
  STORAGE_TARGET_FORMATS,
  TONEMAP_WORKGROUP,
  targetComputeSource,
  type ShaderKit,
  type WorkgroupShape,
} from './pipelines.js';

const ALL = GPUShaderStage.FRAGMENT | GPUShaderStage.VERTEX | GPUShaderStage.COMPUTE;
export type ReduceKind = 'metrics' | 'stats';

export class CompareKit {
  readonly viewLayout: GPUBindGroupLayout;
  readonly pairLayout: GPUBindGroupLayout;
  readonly staticLayout: GPUBindGroupLayout;
  readonly reduceLayout: GPUBindGroupLayout;
  readonly histogramLayout: GPUBindGroupLayout;
  private staticGroupMade: GPUBindGroup | null = null;
  /** The ShaderKit's static group the compare static group was made beside: a new one means a new LUT. */
  private staticGroupFor: GPUBindGroup | null = null;
  private readonly lut: GPUBuffer;
  private readonly palette: GPUBuffer;
  private readonly cache = new Map<string, GPURenderPipeline | GPUComputePipeline>();

  constructor(readonly kit: ShaderKit) {
    const d = kit.device;
    this.viewLayout = d.createBindGroupLayout({
      label: 'compare view (per frame)',
      entries: [{ binding: 0, visibility: ALL, buffer: { type: 'uniform', minBindingSize: COMPARE_VIEW_BYTES } }],
    });
    this.pairLayout = d.createBindGroupLayout({
      label: 'compare pair (per image pair)',
      entries: [
        { binding: 0, visibility: GPUShaderStage.FRAGMENT | GPUShaderStage.COMPUTE, texture: { sampleType: 'unfilterable-float' } },
        { binding: 1, visibility: GPUShaderStage.FRAGMENT | GPUShaderStage.COMPUTE, texture: { sampleType: 'unfilterable-float' } },
      ],
    });
    // the tone-map core reads the view's LUT (lut.wgsl, bindings 1 and 2) in the compare pass too
    this.staticLayout = d.createBindGroupLayout({
      label: 'compare static (palette, LUT, colormaps)',
      entries: [
        { binding: 0, visibility: ALL, buffer: { type: 'uniform', minBindingSize: PALETTE_BYTES } },
        { binding: 1, visibility: ALL, buffer: { type: 'uniform', minBindingSize: LUT_PARAMS_BYTES } },
        {
          binding: 2,
          visibility: GPUShaderStage.FRAGMENT | GPUShaderStage.COMPUTE,
          texture: { sampleType: 'unfilterable-float', viewDimension: '3d' },
        },
        { binding: 3, visibility: GPUShaderStage.FRAGMENT | GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
        ...ocioLutLayoutEntries(),
      ],
    });
    this.reduceLayout = d.createBindGroupLayout({
      label: 'reduce',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', minBindingSize: REDUCE_PARAMS_BYTES } },
        { binding: 1, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: 'unfilterable-float' } },
        { binding: 2, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: 'unfilterable-float' } },
        { binding: 3, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
        { binding: 4, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
      ],
    });
    this.histogramLayout = d.createBindGroupLayout({
      label: 'pair histogram',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', minBindingSize: REDUCE_PARAMS_BYTES } },
        { binding: 1, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: 'unfilterable-float' } },
        { binding: 2, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: 'unfilterable-float' } },
        { binding: 3, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
      ],
    });
    const table = colormapTable();
    this.lut = d.createBuffer({ label: 'colormaps', size: table.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    d.queue.writeBuffer(this.lut, 0, table);
    // the palette again (the ShaderKit's buffer is private to it): 192 bytes, written once
    this.palette = d.createBuffer({
      label: 'compare palette',
      size: PALETTE_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
  }

  /** Group 2 of the compare pass: made again only when the ShaderKit's LUT changed (read it when encoding). */
  get staticGroup(): GPUBindGroup {
    if (!this.staticGroupMade || this.staticGroupFor !== this.kit.staticBindGroup) {
      this.staticGroupFor = this.kit.staticBindGroup;
      this.staticGroupMade = this.kit.device.createBindGroup({
        label: 'compare static',
        layout: this.staticLayout,
        entries: [
          { binding: 0, resource: { buffer: this.palette } },
          ...this.kit.lutEntries(),
          { binding: 3, resource: { buffer: this.lut } },
        ],
      });
    }
    return this.staticGroupMade;
  }

  /** Fills the palette from the same packer as the ShaderKit's (called once by the owner with a packed block). */
  writePalette(block: UniformBlock): void {
    this.kit.device.queue.writeBuffer(this.palette, 0, block.bytes);
  }

  get device(): GPUDevice {
    return this.kit.device;
  }

  private cached<T extends GPURenderPipeline | GPUComputePipeline>(key: string, make: () => T): T {
    let p = this.cache.get(key) as T | undefined;
    if (!p) {
      p = make();
      this.cache.set(key, p);
    }
    return p;
  }

  /** The compare pass as a render pass into `format`. */
  render(format: GPUTextureFormat): GPURenderPipeline {
    return this.cached(`compare:${format}:${this.kit.ocioKey}`, () => {
      const module = this.device.createShaderModule({ label: 'compare', code: this.kit.displayCore() + compareCore + compareSrc });
      return this.device.createRenderPipeline({
        label: `compare ${format}`,
        layout: this.device.createPipelineLayout({ bindGroupLayouts: [this.viewLayout, this.pairLayout, this.staticLayout] }),
        vertex: { module, entryPoint: 'vs' },
        fragment: { module, entryPoint: 'fs', targets: [{ format }] },
        primitive: { topology: 'triangle-list' },
      });
    });
  }

  /** The compare pass as a compute pass storing into a `format` storage texture (group 3: the ShaderKit's target layout). */
  compute(format: GPUTextureFormat, shape: WorkgroupShape = TONEMAP_WORKGROUP): GPUComputePipeline {
    if (!STORAGE_TARGET_FORMATS.includes(format)) throw new Error(`the compare pass cannot store ${format}`);
    return this.cached(`compare-compute:${format}:${shape[0]}x${shape[1]}:${this.kit.ocioKey}`, () => {
      const code = this.kit.displayCore() + compareCore + compareSrc + targetComputeSource(format, 'comparePixel');
      return this.device.createComputePipeline({
        label: `compare compute ${format}`,
        layout: this.device.createPipelineLayout({
          bindGroupLayouts: [this.viewLayout, this.pairLayout, this.staticLayout, this.kit.previewTargetLayout(format)],
        }),
        compute: {
          module: this.device.createShaderModule({ label: 'compare compute', code }),
          entryPoint: 'cs',
          constants: { WG_X: shape[0], WG_Y: shape[1] },
        },
      });
    });
  }

  /** Pass 1 ('partial') or pass 2 ('finish') of the metrics or statistics reduction. */
  reduce(kind: ReduceKind, entry: 'partial' | 'finish'): GPUComputePipeline {
    return this.cached(`reduce:${kind}:${entry}`, () => {
      const code = compareCore + reduceCommon + reducePasses + (kind === 'metrics' ? metricsSrc : statsSrc);
      return this.device.createComputePipeline({
        label: `${kind} ${entry}`,
        layout: this.device.createPipelineLayout({ bindGroupLayouts: [this.reduceLayout] }),
        compute: { module: this.device.createShaderModule({ label: `${kind} reduce`, code }), entryPoint: entry },
      });
    });
  }

  /** The histogram of A, B or a difference image (histogram-pair.wgsl). */
  pairHistogram(): GPUComputePipeline {
    return this.cached('pair-histogram', () =>
      this.device.createComputePipeline({
        label: 'pair histogram',
        layout: this.device.createPipelineLayout({ bindGroupLayouts: [this.histogramLayout] }),
        compute: {
          module: this.device.createShaderModule({
            label: 'pair histogram',
            code: compareCore + reduceCommon + histogramBinsSrc + histogramPairSrc,
          }),
          entryPoint: 'main',
        },
      }),
    );
  }

  pairGroup(a: GPUTexture, b: GPUTexture): GPUBindGroup {
    return this.device.createBindGroup({
      label: 'compare pair',
      layout: this.pairLayout,
      entries: [
        { binding: 0, resource: a.createView() },
        { binding: 1, resource: b.createView() },
      ],
    });
  }

  dispose(): void {
    this.lut.destroy();
    this.palette.destroy();
    this.cache.clear();
  }
}

/** Encodes the compare pass over all of `target`: a render pass (`view` of the target) or, with `targetGroup`, a compute pass. */
export function encodeCompare(
  ck: CompareKit,
  encoder: GPUCommandEncoder,
  target: GPUTexture,
  groups: { view: GPUBindGroup; pair: GPUBindGroup; target?: GPUBindGroup },
  timestampWrites?: GPUComputePassTimestampWrites,
): void {
  if (groups.target) {
    const shape = TONEMAP_WORKGROUP;
    const bindGroups = [groups.view, groups.pair, ck.staticGroup, groups.target];
    encodeTargetCompute(encoder, 'compare (compute)', ck.compute(target.format, shape), bindGroups, target, shape, timestampWrites);
    return;
  }
  const pass = encoder.beginRenderPass({
    label: 'compare',
    colorAttachments: [{ view: target.createView(), loadOp: 'clear', storeOp: 'store', clearValue: { r: 0, g: 0, b: 0, a: 1 } }],
    ...(timestampWrites ? { timestampWrites } : {}),
  });
  pass.setPipeline(ck.render(target.format));
  pass.setBindGroup(0, groups.view);
  pass.setBindGroup(1, groups.pair);
  pass.setBindGroup(2, ck.staticGroup);
  pass.draw(3);
  pass.end();
}

/**
 * GPU buffers of one kind of reduction, grown as regions need and reused: the parameters, the partials, the result and
 * its read-back copy. One run at a time per instance (the owner waits for the read-back before the next).
 */
export class ReduceBuffers {
  private params: GPUBuffer;
  private partials: GPUBuffer | null = null;
  private partialCapacity = 0;
  private readonly result: GPUBuffer;
  readonly read: GPUBuffer;
  private readonly block = new UniformBlock(REDUCE_PARAMS_BYTES);
  readonly resultBytes: number;

  constructor(
    private readonly ck: CompareKit,
    readonly kind: ReduceKind,
  ) {
    const d = ck.device;
    this.resultBytes = kind === 'metrics' ? METRIC_PARTIAL_BYTES : STAT_PARTIAL_BYTES;
    this.params = d.createBuffer({
      label: `${kind} params`,
      size: REDUCE_PARAMS_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.result = d.createBuffer({
      label: `${kind} result`,
      size: this.resultBytes,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    });
    this.read = d.createBuffer({ label: `${kind} read`, size: this.resultBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  }

  /**
   * Encodes both passes over `region` (A's pixel space) of textures `a` and `b` (level 0) and the copy of the result
   * into `read`. `valueMode`: statistics' source (statsSourceCode); `threshold`: metrics' differing threshold.
   */
  encode(
    encoder: GPUCommandEncoder,
    a: GPUTexture,
    b: GPUTexture,
    region: Region,
    at: ReducePlacement,
    options: { valueMode?: number; threshold?: number; timestampWrites?: GPUComputePassTimestampWrites } = {},
  ): void {
    const d = this.ck.device;
    const [gx, gy] = reduceWorkgroups(region);
    const count = gx * gy;
    if (count > this.partialCapacity) {
      this.partials?.destroy();
      this.partialCapacity = count;
      this.partials = d.createBuffer({ label: `${this.kind} partials`, size: count * this.resultBytes, usage: GPUBufferUsage.STORAGE });
    }
    packReduceParams(this.block, region, at, options.valueMode ?? 0, count, options.threshold ?? 0);
    d.queue.writeBuffer(this.params, 0, this.block.bytes);
    const group = d.createBindGroup({
      label: `${this.kind} reduce`,
      layout: this.ck.reduceLayout,
      entries: [
        { binding: 0, resource: { buffer: this.params } },
        { binding: 1, resource: a.createView({ baseMipLevel: 0, mipLevelCount: 1 }) },
        { binding: 2, resource: b.createView({ baseMipLevel: 0, mipLevelCount: 1 }) },
        { binding: 3, resource: { buffer: this.partials! } },
        { binding: 4, resource: { buffer: this.result } },
      ],
    });
    const pass = encoder.beginComputePass(
      options.timestampWrites
        ? { label: `${this.kind} reduce`, timestampWrites: options.timestampWrites }
        : { label: `${this.kind} reduce` },
    );
    pass.setBindGroup(0, group);
    pass.setPipeline(this.ck.reduce(this.kind, 'partial'));
    pass.dispatchWorkgroups(gx, gy);
    pass.setPipeline(this.ck.reduce(this.kind, 'finish'));
    pass.dispatchWorkgroups(1);
    pass.end();
    encoder.copyBufferToBuffer(this.result, 0, this.read, 0, this.resultBytes);
  }

  /** After the submission: the result's bytes (a copy). */
  async readBack(): Promise<ArrayBuffer> {
    await this.read.mapAsync(GPUMapMode.READ);
    const copy = this.read.getMappedRange().slice(0);
    this.read.unmap();
    return copy;
  }

  destroy(): void {
    this.params.destroy();
    this.partials?.destroy();
    this.result.destroy();
    this.read.destroy();
  }
}

// Builds every pipeline for one GPUDevice with explicit bind-group layouts grouped by how often they change:
// group 0 per frame (view parameters), group 1 per image (its texture), group 2 rarely (palette, the user's .cube
// LUT, the OpenColorIO processor's LUT textures). Cached by key; the tone-map pipelines also by the processor's key,
// since its WGSL is generated per processor.
import tonemapCoreSrc from './tonemap-core.wgsl';
import lutSrc from './lut.wgsl';
import previewSrc from './preview.wgsl';
import targetComputeSrc from './target-compute.wgsl';
import gridSrc from './grid.wgsl';
import mipSrc from './mip.wgsl';
import histogramBinsSrc from './histogram-bins.wgsl';
import histogramSrc from './histogram.wgsl';
import assembleSrc from './assemble.wgsl';
import {
  GRID_VIEW_BYTES,
  LUT_PARAMS_BYTES,
  PALETTE_BYTES,
  PREVIEW_VIEW_BYTES,
  UniformBlock,
  packLutParams,
  packPalette,
} from './layouts.js';
import type { Lut } from './lut-cube.js';
import ocioLutsSrc from './colour/gpu/ocio-luts.wgsl';
import { OCIO_IDENTITY_WGSL, uploadOcioLuts, type GpuProcessor, type OcioLutTextures } from './colour/gpu/index.js';

/** Every tone-map pass reads the display path, the LUT it may apply and the OCIO processor (`ocio_apply`). */
export function displayCoreSource(ocioWgsl: string = OCIO_IDENTITY_WGSL): string {
  return tonemapCoreSrc + lutSrc + ocioLutsSrc + ocioWgsl;
}

/** Group 2's OCIO LUT textures (ocio-luts.wgsl bindings 5 and 6), for every layout that includes the display core. */
export function ocioLutLayoutEntries(): GPUBindGroupLayoutEntry[] {
  // a function: GPUShaderStage exists only once WebGPU is installed (Dawn's globals in Node)
  return [
    { binding: 5, visibility: GPUShaderStage.FRAGMENT | GPUShaderStage.COMPUTE, texture: { sampleType: 'unfilterable-float' } },
    {
      binding: 6,
      visibility: GPUShaderStage.FRAGMENT | GPUShaderStage.COMPUTE,
      texture: { sampleType: 'unfilterable-float', viewDimension: '3d' },
    },
  ];
}

/** The format MIP chains are stored in (see mip.wgsl for why not rgba16float). */
export const MIP_FORMAT: GPUTextureFormat = 'rgba32float';
/** The format of the thumbnail atlas: the host's linear half RGBA goes in as is. */
export const ATLAS_FORMAT: GPUTextureFormat = 'rgba16float';

/** Workgroup shape of a compute pipeline, passed as the shader's WG_X / WG_Y overrides. */
export type WorkgroupShape = readonly [number, number];
/** MIP reduction: 8x8, the fastest of the shapes tried (bench/gpu/NOTES.md). */
export const MIP_WORKGROUP: WorkgroupShape = [8, 8];
/** The compute tone-map: 16x16, the shape it was measured with (bench/gpu/NOTES.md). */
export const TONEMAP_WORKGROUP: WorkgroupShape = [16, 16];
/** Formats the compute tone-map can store to (bgra8unorm only on a device with 'bgra8unorm-storage'). */
export const STORAGE_TARGET_FORMATS: readonly GPUTextureFormat[] = ['rgba8unorm', 'bgra8unorm', 'rgba16float', 'rgba32float'];

/** The compute entry of a display pass (target-compute.wgsl): `pixelFn`'s colour stored into a `format` storage texture. */
export function targetComputeSource(format: GPUTextureFormat, pixelFn: 'previewPixel' | 'comparePixel'): string {
  return targetComputeSrc.replace('texture_storage_2d<TARGET_FORMAT,', `texture_storage_2d<${format},`).replace('PIXEL_FN(', `${pixelFn}(`);
}

// group 0 and 2 are read by both tone-map paths: the render pass (vertex + fragment) and the compute pass
const FRAG_VERT = GPUShaderStage.FRAGMENT | GPUShaderStage.VERTEX | GPUShaderStage.COMPUTE;

export class ShaderKit {
  readonly previewViewLayout: GPUBindGroupLayout;
  readonly gridViewLayout: GPUBindGroupLayout;
  readonly imageLayout: GPUBindGroupLayout;
  readonly staticLayout: GPUBindGroupLayout;
  readonly mipLayout: GPUBindGroupLayout;
  readonly histogramLayout: GPUBindGroupLayout;
  readonly assembleLayout: GPUBindGroupLayout;
  /** Group 2: rebuilt by setLut(), so read it when encoding, never keep it. */
  staticBindGroup: GPUBindGroup;
  private readonly paletteBuffer: GPUBuffer;
  private readonly lutParamsBuffer: GPUBuffer;
  private lutTexture: GPUTexture;
  private lut: Lut | null = null;
  private ocio: GpuProcessor | null = null;
  private ocioLuts: OcioLutTextures;
  private readonly cache = new Map<string, GPURenderPipeline | GPUComputePipeline>();
  private readonly targetLayouts = new Map<GPUTextureFormat, GPUBindGroupLayout>();

  constructor(readonly device: GPUDevice) {
    const d = device;
    this.previewViewLayout = d.createBindGroupLayout({
      label: 'preview view (per frame)',
      entries: [{ binding: 0, visibility: FRAG_VERT, buffer: { type: 'uniform', minBindingSize: PREVIEW_VIEW_BYTES } }],
    });
    this.gridViewLayout = d.createBindGroupLayout({
      label: 'grid view (per frame)',
      entries: [
        { binding: 0, visibility: FRAG_VERT, buffer: { type: 'uniform', minBindingSize: GRID_VIEW_BYTES } },
        { binding: 1, visibility: FRAG_VERT, buffer: { type: 'read-only-storage' } },
      ],
    });
    this.imageLayout = d.createBindGroupLayout({
      label: 'image (per image)',
      entries: [
        { binding: 0, visibility: GPUShaderStage.FRAGMENT | GPUShaderStage.COMPUTE, texture: { sampleType: 'unfilterable-float' } },
      ],
    });
    this.staticLayout = d.createBindGroupLayout({
      label: 'static LUTs',
      entries: [
        { binding: 0, visibility: FRAG_VERT, buffer: { type: 'uniform', minBindingSize: PALETTE_BYTES } },
        { binding: 1, visibility: FRAG_VERT, buffer: { type: 'uniform', minBindingSize: LUT_PARAMS_BYTES } },
        {
          binding: 2,
          visibility: GPUShaderStage.FRAGMENT | GPUShaderStage.COMPUTE,
          texture: { sampleType: 'unfilterable-float', viewDimension: '3d' },
        },
        ...ocioLutLayoutEntries(),
      ],
    });
    this.mipLayout = d.createBindGroupLayout({
      label: 'mip level',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: 'unfilterable-float' } },
        { binding: 1, visibility: GPUShaderStage.COMPUTE, storageTexture: { access: 'write-only', format: MIP_FORMAT } },
      ],
    });
    this.histogramLayout = d.createBindGroupLayout({
      label: 'histogram',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: 'unfilterable-float' } },
        { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
      ],
    });
    const planeEntries: GPUBindGroupLayoutEntry[] = [];
    for (let i = 0; i < 4; i++)
      planeEntries.push({ binding: 1 + i, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: 'unfilterable-float' } });
    for (let i = 0; i < 4; i++) planeEntries.push({ binding: 5 + i, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: 'uint' } });
    this.assembleLayout = d.createBindGroupLayout({
      label: 'assemble',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
        ...planeEntries,
        { binding: 9, visibility: GPUShaderStage.COMPUTE, storageTexture: { access: 'write-only', format: MIP_FORMAT } },
      ],
    });
    this.paletteBuffer = d.createBuffer({ label: 'palette', size: PALETTE_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    const palette = new UniformBlock(PALETTE_BYTES);
    packPalette(palette);
    d.queue.writeBuffer(this.paletteBuffer, 0, palette.bytes);
    this.lutParamsBuffer = d.createBuffer({
      label: 'LUT params',
      size: LUT_PARAMS_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.lutTexture = this.uploadLut(null);
    this.ocioLuts = uploadOcioLuts(d, null);
    this.staticBindGroup = this.makeStaticBindGroup();
  }

  /** The key of the OCIO processor the tone-map pipelines are built with ('' for none). */
  get ocioKey(): string {
    return this.ocio?.key ?? '';
  }

  /**
   * The OCIO processor the tone-map runs where a Display's lutMode asks (null: none). Its LUTs upload and its
   * pipelines build only when the processor's key changes: switching back to a view seen before reuses them.
   */
  setOcio(p: GpuProcessor | null): void {
    if ((p?.key ?? '') === this.ocioKey) return;
    const luts = uploadOcioLuts(this.device, p);
    const old = this.ocioLuts;
    this.ocio = p;
    this.ocioLuts = luts;
    this.staticBindGroup = this.makeStaticBindGroup();
    old.lut1d.destroy();
    old.lut3d.destroy();
  }

  /** The display core with the current processor's `ocio_apply`. */
  displayCore(): string {
    return displayCoreSource(this.ocio?.wgsl);
  }

  /** The .cube LUT the tone-map applies where a Display's lutMode asks (null: none); uploads only when it changes. */
  setLut(lut: Lut | null): void {
    if (lut === this.lut) return;
    this.lut = lut;
    const old = this.lutTexture;
    this.lutTexture = this.uploadLut(lut);
    this.staticBindGroup = this.makeStaticBindGroup();
    old.destroy();
  }

  /** The LUT as an rgba32float 3D texture (1D: size x 1 x 1), and its params; a 1x1x1 texture when there is none. */
  private uploadLut(lut: Lut | null): GPUTexture {
    const block = new UniformBlock(LUT_PARAMS_BYTES);
    packLutParams(block, lut);
    this.device.queue.writeBuffer(this.lutParamsBuffer, 0, block.bytes);
    const n = lut?.size ?? 1;
    const size: [number, number, number] = lut?.kind === '3d' ? [n, n, n] : [n, 1, 1];
    const texture = this.device.createTexture({
      label: `LUT ${lut?.title ?? 'none'}`,
      size,
      dimension: '3d',
      format: 'rgba32float',
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
    });
    if (lut) {
      const entries = lut.data.length / 3;
      const rgba = new Float32Array(entries * 4);
      for (let i = 0; i < entries; i++) {
        rgba[i * 4] = lut.data[i * 3]!;
        rgba[i * 4 + 1] = lut.data[i * 3 + 1]!;
        rgba[i * 4 + 2] = lut.data[i * 3 + 2]!;
        rgba[i * 4 + 3] = 1;
      }
      this.device.queue.writeTexture({ texture }, rgba, { bytesPerRow: size[0] * 16, rowsPerImage: size[1] }, size);
    }
    return texture;
  }

  /** Bindings 1 and 2 of group 2 (lut.wgsl) and 5 and 6 (ocio-luts.wgsl), for a pipeline with its own layout that includes the tone-map core. */
  lutEntries(): GPUBindGroupEntry[] {
    return [
      { binding: 1, resource: { buffer: this.lutParamsBuffer } },
      { binding: 2, resource: this.lutTexture.createView({ dimension: '3d' }) },
      { binding: 5, resource: this.ocioLuts.lut1d.createView() },
      { binding: 6, resource: this.ocioLuts.lut3d.createView({ dimension: '3d' }) },
    ];
  }

  private makeStaticBindGroup(): GPUBindGroup {
    return this.device.createBindGroup({
      label: 'static',
      layout: this.staticLayout,
      entries: [{ binding: 0, resource: { buffer: this.paletteBuffer } }, ...this.lutEntries()],
    });
  }

  private cached<T extends GPURenderPipeline | GPUComputePipeline>(key: string, make: () => T): T {
    let p = this.cache.get(key) as T | undefined;
    if (!p) {
      p = make();
      this.cache.set(key, p);
    }
    return p;
  }

  /** The preview's tone-map pass into a target of `format` (the canvas format, or rgba32float in tests). */
  preview(format: GPUTextureFormat): GPURenderPipeline {
    return this.cached(`preview:${format}:${this.ocioKey}`, () => {
      const module = this.device.createShaderModule({ label: 'preview', code: this.displayCore() + previewSrc });
      return this.device.createRenderPipeline({
        label: `preview ${format}`,
        layout: this.device.createPipelineLayout({ bindGroupLayouts: [this.previewViewLayout, this.imageLayout, this.staticLayout] }),
        vertex: { module, entryPoint: 'vs' },
        fragment: { module, entryPoint: 'fs', targets: [{ format }] },
        primitive: { topology: 'triangle-list' },
      });
    });
  }

  /** Group 3 of the compute tone-map: the storage texture it writes (the canvas texture, or a thumbnail target). */
  previewTargetLayout(format: GPUTextureFormat): GPUBindGroupLayout {
    let layout = this.targetLayouts.get(format);
    if (!layout) {
      layout = this.device.createBindGroupLayout({
        label: `preview target ${format}`,
        entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE, storageTexture: { access: 'write-only', format } }],
      });
      this.targetLayouts.set(format, layout);
    }
    return layout;
  }

  /** The preview's tone-map as a compute pass storing into a `format` storage texture: same groups 0-2 as preview(). */
  previewCompute(format: GPUTextureFormat, shape: WorkgroupShape = TONEMAP_WORKGROUP): GPUComputePipeline {
    if (!STORAGE_TARGET_FORMATS.includes(format)) throw new Error(`the compute tone-map cannot store ${format}`);
    return this.cached(`preview-compute:${format}:${shape[0]}x${shape[1]}:${this.ocioKey}`, () => {
      const code = this.displayCore() + previewSrc + targetComputeSource(format, 'previewPixel');
      return this.device.createComputePipeline({
        label: `preview compute ${format}`,
        layout: this.device.createPipelineLayout({
          bindGroupLayouts: [this.previewViewLayout, this.imageLayout, this.staticLayout, this.previewTargetLayout(format)],
        }),
        compute: {
          module: this.device.createShaderModule({ label: 'preview compute', code }),
          entryPoint: 'cs',
          constants: { WG_X: shape[0], WG_Y: shape[1] },
        },
      });
    });
  }

  grid(format: GPUTextureFormat): GPURenderPipeline {
    return this.cached(`grid:${format}:${this.ocioKey}`, () => {
      const module = this.device.createShaderModule({ label: 'grid', code: this.displayCore() + gridSrc });
      return this.device.createRenderPipeline({
        label: `grid ${format}`,
        layout: this.device.createPipelineLayout({ bindGroupLayouts: [this.gridViewLayout, this.imageLayout, this.staticLayout] }),
        vertex: { module, entryPoint: 'vs' },
        fragment: { module, entryPoint: 'fs', targets: [{ format }] },
        primitive: { topology: 'triangle-strip' },
      });
    });
  }

  /** The MIP reduction with workgroup `shape` (the WG_X / WG_Y overrides of mip.wgsl); dispatch with the same shape. */
  mip(shape: WorkgroupShape = MIP_WORKGROUP): GPUComputePipeline {
    return this.cached(`mip:${shape[0]}x${shape[1]}`, () =>
      this.compute(`mip ${shape[0]}x${shape[1]}`, mipSrc, this.mipLayout, { WG_X: shape[0], WG_Y: shape[1] }),
    );
  }

  histogram(): GPUComputePipeline {
    return this.cached('histogram', () => this.compute('histogram', histogramBinsSrc + histogramSrc, this.histogramLayout));
  }

  assemble(): GPUComputePipeline {
    return this.cached('assemble', () => this.compute('assemble', assembleSrc, this.assembleLayout));
  }

  private compute(label: string, code: string, layout: GPUBindGroupLayout, constants?: Record<string, number>): GPUComputePipeline {
    return this.device.createComputePipeline({
      label,
      layout: this.device.createPipelineLayout({ bindGroupLayouts: [layout] }),
      compute: { module: this.device.createShaderModule({ label, code }), entryPoint: 'main', ...(constants ? { constants } : {}) },
    });
  }

  dispose(): void {
    this.paletteBuffer.destroy();
    this.lutParamsBuffer.destroy();
    this.lutTexture.destroy();
    this.ocioLuts.lut1d.destroy();
    this.ocioLuts.lut3d.destroy();
    this.cache.clear();
  }
}

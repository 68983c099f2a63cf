// The Cryptomatte view on the GPU: the layer's rank groups uploaded once, the picked names' matte (matte.wgsl, the pass
// the export's CPU reference is tested against) and the coloured view over the shown beauty (view.wgsl), written as a
// layer's MIP chain that the preview tone-maps in place of the beauty. Made again only when its inputs change.
import viewSrc from '../../shaders/cryptomatte/view.wgsl';
import type { CryptoId } from '../../shaders/cryptomatte/hash.js';
import { createMatteTarget, MattePass, uploadRankGroups } from '../../shaders/cryptomatte/matte-gpu.js';
import { createLayerTexture, encodeMips, type LayerTexture } from '../../shaders/passes.js';
import type { GpuSession } from './gpu-session.js';

export type CryptomatteViewMode = 'ids' | 'overlay' | 'alpha' | 'isolate';
const MODE_CODE: Record<CryptomatteViewMode, number> = { ids: 0, overlay: 1, alpha: 2, isolate: 3 };
const WORKGROUP = [8, 8] as const;

/** What the engine is told to show over the beauty; a new object for every change (the drawer compares identities). */
export interface CryptomatteView {
  /** The rank groups, each RGBA float32 interleaved (interleaveGroup), group 00 first: the same array while the layer stays. */
  groups: readonly Float32Array<ArrayBuffer>[];
  widthPx: number;
  heightPx: number;
  picked: readonly CryptoId[];
  mode: CryptomatteViewMode;
}

/** The view set on the engine; outlives a device. */
export interface CryptomatteInput {
  view: CryptomatteView | null;
}

export class CryptomatteDrawer {
  private readonly matte: MattePass;
  private readonly layout: GPUBindGroupLayout;
  private readonly params: GPUBuffer;
  private pipeline: GPUComputePipeline | null = null;
  private picked: GPUBuffer;
  private ranks: { groups: CryptomatteView['groups']; texture: GPUTexture; matte: GPUTexture } | null = null;
  private made: { view: CryptomatteView; beauty: GPUTexture; layer: LayerTexture } | null = null;

  constructor(
    private readonly session: GpuSession,
    private readonly input: CryptomatteInput,
  ) {
    const device = session.kit.device;
    const compute = GPUShaderStage.COMPUTE;
    this.matte = new MattePass(device);
    this.layout = device.createBindGroupLayout({
      label: 'cryptomatte view',
      entries: [
        { binding: 0, visibility: compute, buffer: { type: 'uniform', minBindingSize: 16 } },
        { binding: 1, visibility: compute, texture: { sampleType: 'unfilterable-float', viewDimension: '2d-array' } },
        { binding: 2, visibility: compute, texture: { sampleType: 'unfilterable-float' } },
        { binding: 3, visibility: compute, texture: { sampleType: 'unfilterable-float' } },
        { binding: 4, visibility: compute, buffer: { type: 'read-only-storage' } },
        { binding: 5, visibility: compute, storageTexture: { access: 'write-only', format: 'rgba32float' } },
      ],
    });
    this.params = device.createBuffer({
      label: 'cryptomatte view params',
      size: 16,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.picked = this.pickedBuffer(64);
  }

  private pickedBuffer(count: number): GPUBuffer {
    return this.session.kit.device.createBuffer({
      label: 'cryptomatte view picked IDs',
      size: Math.max(1, count) * 4,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
  }

  private viewPipeline(): GPUComputePipeline {
    const device = this.session.kit.device;
    this.pipeline ??= device.createComputePipeline({
      label: 'cryptomatte view',
      layout: device.createPipelineLayout({ bindGroupLayouts: [this.layout] }),
      compute: {
        module: device.createShaderModule({ label: 'cryptomatte view', code: viewSrc }),
        entryPoint: 'main',
        constants: { WG_X: WORKGROUP[0], WG_Y: WORKGROUP[1] },
      },
    });
    return this.pipeline;
  }

  /**
   * The layer to tone-map instead of `beauty` while a Cryptomatte view is set (null: none, or its size is not the
   * beauty's); its passes go into `encoder` ahead of the tone-map when anything changed since the last frame.
   */
  layerFor(encoder: GPUCommandEncoder, beauty: LayerTexture): LayerTexture | null {
    const view = this.input.view;
    if (!view && this.ranks) this.destroyTextures();
    if (!view || view.widthPx !== beauty.widthPx || view.heightPx !== beauty.heightPx || view.groups.length === 0) return null;
    if (this.made && this.made.view === view && this.made.beauty === beauty.texture) return this.made.layer;
    const device = this.session.kit.device;
    if (!this.ranks || this.ranks.groups !== view.groups) {
      this.dropRanks();
      this.ranks = {
        groups: view.groups,
        texture: uploadRankGroups(device, view.groups, view.widthPx, view.heightPx),
        matte: createMatteTarget(device, view.widthPx, view.heightPx),
      };
    }
    const layer =
      this.made && this.made.layer.widthPx === view.widthPx && this.made.layer.heightPx === view.heightPx
        ? this.made.layer
        : this.newLayer(view.widthPx, view.heightPx);
    this.matte.encode(encoder, this.ranks.texture, view.picked, this.ranks.matte);
    if (this.picked.size < view.picked.length * 4) {
      this.picked.destroy();
      this.picked = this.pickedBuffer(view.picked.length);
    }
    const mode = view.picked.length ? MODE_CODE[view.mode] : MODE_CODE.ids;
    device.queue.writeBuffer(this.params, 0, new Uint32Array([mode, view.picked.length, 0, 0]));
    if (view.picked.length) device.queue.writeBuffer(this.picked, 0, Uint32Array.from(view.picked));
    const group = device.createBindGroup({
      label: 'cryptomatte view',
      layout: this.layout,
      entries: [
        { binding: 0, resource: { buffer: this.params } },
        { binding: 1, resource: this.ranks.texture.createView({ dimension: '2d-array' }) },
        { binding: 2, resource: this.ranks.matte.createView() },
        { binding: 3, resource: beauty.texture.createView({ baseMipLevel: 0, mipLevelCount: 1 }) },
        { binding: 4, resource: { buffer: this.picked } },
        { binding: 5, resource: layer.texture.createView({ baseMipLevel: 0, mipLevelCount: 1 }) },
      ],
    });
    const pass = encoder.beginComputePass({ label: 'cryptomatte view' });
    pass.setPipeline(this.viewPipeline());
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(Math.ceil(view.widthPx / WORKGROUP[0]), Math.ceil(view.heightPx / WORKGROUP[1]));
    pass.end();
    encodeMips(this.session.kit, encoder, layer.texture);
    this.made = { view, beauty: beauty.texture, layer };
    return layer;
  }

  private newLayer(widthPx: number, heightPx: number): LayerTexture {
    this.made?.layer.texture.destroy();
    this.made = null;
    return createLayerTexture(this.session.kit, widthPx, heightPx, 'cryptomatte view');
  }

  private dropRanks(): void {
    this.ranks?.texture.destroy();
    this.ranks?.matte.destroy();
    this.ranks = null;
  }

  private destroyTextures(): void {
    this.dropRanks();
    this.made?.layer.texture.destroy();
    this.made = null;
  }

  destroy(): void {
    this.destroyTextures();
    this.matte.destroy();
    this.params.destroy();
    this.picked.destroy();
  }
}

// The GPU side of the bench, built from the renderer's own shaders/ code: planes → assemble → MIP chain → tone-map, and a GPU thumbnail.
import { ShaderKit, TONEMAP_WORKGROUP, type WorkgroupShape } from '../../shaders/pipelines.js';
import {
  DummyPlanes,
  createMipTexture,
  encodeAssemble,
  encodeMips,
  encodePreviewCompute,
  layerBindGroup,
  previewTargetBindGroup,
} from '../../shaders/passes.js';
import { PREVIEW_VIEW_BYTES, UniformBlock, packPreviewView } from '../../shaders/layouts.js';
import { DEFAULT_DISPLAY, type DisplayParams } from '../../shaders/display-params.js';
import type { Uploader, UploadStats } from '../../shaders/upload.js';
import type { GpuTimer } from './dawn.js';
import type { Planes } from './images.js';

export type { WorkgroupShape };
/** MIP workgroup shapes compared: the renderer's own pipeline with mip.wgsl's WG_X / WG_Y overrides set (ShaderKit.mip(shape)). */
export const WORKGROUP_SHAPES: readonly WorkgroupShape[] = [
  [8, 8],
  [16, 16],
  [256, 1],
];

export type PlaneFormat = 'r16float' | 'r32float';

/** One image's GPU resources: a texture per plane (as decoded) and the layer's MIP chain. */
export class GpuImageWork {
  readonly planes: GPUTexture[];
  readonly mip: GPUTexture;
  readonly imageBindGroup: GPUBindGroup;
  private readonly viewBuffer: GPUBuffer;
  private readonly viewGroup: GPUBindGroup;

  constructor(
    readonly kit: ShaderKit,
    readonly dummies: DummyPlanes,
    readonly width: number,
    readonly height: number,
    readonly planeFormat: PlaneFormat,
  ) {
    const d = kit.device;
    this.planes = [0, 1, 2, 3].map((c) =>
      d.createTexture({
        label: `plane ${c}`,
        size: [width, height],
        format: planeFormat,
        usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.TEXTURE_BINDING,
      }),
    );
    this.mip = createMipTexture(d, width, height, 'bench layer');
    this.imageBindGroup = layerBindGroup(kit, this.mip);
    this.viewBuffer = d.createBuffer({
      label: 'bench view',
      size: PREVIEW_VIEW_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.viewGroup = d.createBindGroup({ layout: kit.previewViewLayout, entries: [{ binding: 0, resource: { buffer: this.viewBuffer } }] });
  }

  /** The engine's upload: every plane of the image through the staging ring, one submission. */
  uploadPlanes(uploader: Uploader, p: Planes<Uint16Array | Float32Array>): Promise<UploadStats> {
    const { width, height, planeFormat } = this;
    return uploader.uploadMany(
      [p.r, p.g, p.b, p.a].map((data, c) => ({
        texture: this.planes[c]!,
        format: planeFormat,
        width,
        height,
        source: { kind: 'texels' as const, data },
      })),
    );
  }

  /** assemble (planes → rgba32float level 0) and the MIP chain, as the renderer encodes them. Returns the uniform to destroy after submission. */
  encodeAssembleAndMips(encoder: GPUCommandEncoder, opts: { timer?: GpuTimer; slot?: number; shape?: WorkgroupShape } = {}): GPUBuffer {
    const { kit } = this;
    const slots = this.planes.map((texture) => ({ texture, kind: 'float' as const, xSampling: 1, ySampling: 1 }));
    const t = opts.timer;
    const s = opts.slot ?? 0;
    const uniform = encodeAssemble(
      kit,
      encoder,
      { slots, mode: 'direct', originX: 0, originY: 0, widthPx: this.width, heightPx: this.height },
      this.mip,
      this.dummies,
      t?.writes(s),
    );
    encodeMips(kit, encoder, this.mip, t?.writes(s + 1), opts.shape);
    return uniform;
  }

  /** The renderer's compute tone-map (shaders/target-compute.wgsl) into a storage `target`; `targetGroup` from previewTargetBindGroup. */
  encodeToneMapCompute(
    encoder: GPUCommandEncoder,
    target: GPUTexture,
    targetGroup: GPUBindGroup,
    timestampWrites?: GPUComputePassTimestampWrites,
    display: DisplayParams = DEFAULT_DISPLAY,
    shape: WorkgroupShape = TONEMAP_WORKGROUP,
  ): void {
    this.writeView(target, display);
    encodePreviewCompute(
      this.kit,
      encoder,
      target,
      { view: this.viewGroup, image: this.imageBindGroup, target: targetGroup },
      timestampWrites,
      shape,
    );
  }

  /** The preview pipeline's tone-map of the whole image into `target` (its size sets the zoom: 1:1 or a thumbnail). */
  encodeToneMap(
    encoder: GPUCommandEncoder,
    target: GPUTexture,
    timestampWrites?: GPURenderPassTimestampWrites,
    display: DisplayParams = DEFAULT_DISPLAY,
  ): void {
    this.writeView(target, display);
    const pass = encoder.beginRenderPass({
      label: 'tone-map',
      colorAttachments: [{ view: target.createView(), loadOp: 'clear', storeOp: 'store', clearValue: { r: 0, g: 0, b: 0, a: 1 } }],
      ...(timestampWrites ? { timestampWrites } : {}),
    });
    pass.setPipeline(this.kit.preview(target.format));
    pass.setBindGroup(0, this.viewGroup);
    pass.setBindGroup(1, this.imageBindGroup);
    pass.setBindGroup(2, this.kit.staticBindGroup);
    pass.draw(3);
    pass.end();
  }

  private writeView(target: GPUTexture, display: DisplayParams = DEFAULT_DISPLAY): void {
    const block = new UniformBlock(PREVIEW_VIEW_BYTES);
    packPreviewView(block, display, {
      originXPx: 0,
      originYPx: 0,
      texelsPerPx: this.width / target.width,
      levelCount: this.mip.mipLevelCount,
      widthPx: this.width,
      heightPx: this.height,
      displayMinX: 0,
      displayMinY: 0,
      displayMaxX: this.width,
      displayMaxY: this.height,
      background: 0,
      viewFlags: 0,
    });
    this.kit.device.queue.writeBuffer(this.viewBuffer, 0, block.bytes);
  }

  destroy(): void {
    for (const t of this.planes) t.destroy();
    this.mip.destroy();
    this.viewBuffer.destroy();
  }
}

export function thumbnailTarget(device: GPUDevice, width: number, height: number, longSidePx: number): GPUTexture {
  const scale = Math.min(1, longSidePx / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  return device.createTexture({
    label: 'thumbnail',
    size: [w, h],
    format: 'rgba8unorm',
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
  });
}

/** Per-size GPU resources a thumbnailer can keep between images of one size (textures, target, readback buffer). */
export interface ThumbnailScratch {
  work: GpuImageWork;
  target: GPUTexture;
  read: GPUBuffer;
  bytesPerRow: number;
}

export function thumbnailScratch(
  kit: ShaderKit,
  dummies: DummyPlanes,
  width: number,
  height: number,
  longSidePx: number,
): ThumbnailScratch {
  const work = new GpuImageWork(kit, dummies, width, height, 'r16float');
  const target = thumbnailTarget(kit.device, width, height, longSidePx);
  const bytesPerRow = Math.ceil((target.width * 4) / 256) * 256;
  const read = kit.device.createBuffer({ size: bytesPerRow * target.height, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  return { work, target, read, bytesPerRow };
}

export function destroyScratch(s: ThumbnailScratch): void {
  s.read.destroy();
  s.target.destroy();
  s.work.destroy();
}

/**
 * A GPU thumbnail end to end: upload the planes, assemble, MIP, tone-map into a small target, read it back.
 * Without `scratch`, every resource is created for the image and destroyed after (allocation included in the time).
 */
export async function gpuThumbnail(
  kit: ShaderKit,
  dummies: DummyPlanes,
  uploader: Uploader,
  p: Planes<Uint16Array>,
  longSidePx: number,
  scratch?: ThumbnailScratch,
): Promise<{ rgba: Uint8Array; width: number; height: number; upload: UploadStats }> {
  const d = kit.device;
  const s = scratch ?? thumbnailScratch(kit, dummies, p.width, p.height, longSidePx);
  const { work, target, read, bytesPerRow } = s;
  const upload = await work.uploadPlanes(uploader, p);
  const enc = d.createCommandEncoder({ label: 'gpu thumbnail' });
  const uniform = work.encodeAssembleAndMips(enc);
  work.encodeToneMap(enc, target);
  enc.copyTextureToBuffer({ texture: target }, { buffer: read, bytesPerRow }, [target.width, target.height]);
  d.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const src = new Uint8Array(read.getMappedRange());
  const rgba = new Uint8Array(target.width * target.height * 4);
  for (let y = 0; y < target.height; y++) rgba.set(src.subarray(y * bytesPerRow, y * bytesPerRow + target.width * 4), y * target.width * 4);
  read.unmap();
  const out = { rgba, width: target.width, height: target.height, upload };
  uniform.destroy();
  if (!scratch) destroyScratch(s);
  return out;
}

export { ShaderKit, DummyPlanes, previewTargetBindGroup };

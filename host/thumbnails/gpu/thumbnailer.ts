// Thumbnails on the GPU from decoded planes: staging-ring upload, assemble, MIP chain, the preview's compute tone-map, readback.
// Device-agnostic (the renderer's shaders/ code on any GPUDevice); the command runs it on Dawn in a child process.
import type { DisplayParams } from '../../../shaders/display-params.js';
import { PREVIEW_VIEW_BYTES, UniformBlock, packPreviewView } from '../../../shaders/layouts.js';
import {
  DummyPlanes,
  createMipTexture,
  encodeAssemble,
  encodeMips,
  encodePreviewCompute,
  layerBindGroup,
  previewTargetBindGroup,
  type PlaneTexture,
} from '../../../shaders/passes.js';
import { ShaderKit } from '../../../shaders/pipelines.js';
import { createUploader, type Uploader, type UploadFormat } from '../../../shaders/upload.js';
import type { DecodedPlane } from '../../../contract/host-api.js';
import { thumbnailSize } from '../job.js';
import { planeSamples } from '../../decode/plane-bytes.js';

export interface GpuThumbnailRequest {
  widthPx: number;
  heightPx: number;
  /** Data window origin: where subsampled planes' samples sit. */
  originX: number;
  originY: number;
  planes: DecodedPlane[];
  /** Plane names for R, G, B, A; null: 0 for colour, 1 for alpha. */
  slots: (string | null)[];
  longSidePx: number;
  display: DisplayParams;
}

export interface GpuThumbnailResult {
  widthPx: number;
  heightPx: number;
  /** 8-bit RGBA, rows top to bottom, alpha 255. */
  rgba: Uint8Array;
  /** The upload call (copy into staging, submit). */
  uploadMs: number;
  /** From the upload call to the thumbnail's bytes back on the CPU. */
  wallMs: number;
  /** True when the textures of an earlier image of the same size were reused. */
  reused: boolean;
}

const FORMATS: Record<DecodedPlane['pixelType'], { format: UploadFormat; kind: 'float' | 'uint' }> = {
  half: { format: 'r16float', kind: 'float' },
  float: { format: 'r32float', kind: 'float' },
  uint: { format: 'r32uint', kind: 'uint' },
};

/** GPU resources for images of one size and plane layout, kept between them: allocating them dominated a GPU thumbnail. */
interface Scratch {
  planes: GPUTexture[];
  mip: GPUTexture;
  imageGroup: GPUBindGroup;
  target: GPUTexture;
  targetGroup: GPUBindGroup;
  read: GPUBuffer;
  bytesPerRow: number;
}

/** Sizes kept at once: a folder of mixed sizes re-creates, a folder of one size never does. */
const MAX_SIZES = 4;

export class GpuThumbnailer {
  private readonly kit: ShaderKit;
  private readonly dummies: DummyPlanes;
  private readonly uploader: Uploader;
  private readonly viewBuffer: GPUBuffer;
  private readonly viewGroup: GPUBindGroup;
  private readonly viewBlock = new UniformBlock(PREVIEW_VIEW_BYTES);
  private readonly scratch = new Map<string, Scratch>();
  /** One thumbnail at a time: the scratch of a size is shared. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(readonly device: GPUDevice) {
    this.kit = new ShaderKit(device);
    this.dummies = new DummyPlanes(device);
    this.uploader = createUploader(device, { ringBytes: 128 << 20, slabBytes: 16 << 20, label: 'thumbnail upload' });
    this.viewBuffer = device.createBuffer({
      label: 'thumbnail view',
      size: PREVIEW_VIEW_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.viewGroup = device.createBindGroup({
      layout: this.kit.previewViewLayout,
      entries: [{ binding: 0, resource: { buffer: this.viewBuffer } }],
    });
  }

  thumbnail(req: GpuThumbnailRequest): Promise<GpuThumbnailResult> {
    const run = this.tail.then(() => this.make(req));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private scratchFor(req: GpuThumbnailRequest, tw: number, th: number): { s: Scratch; reused: boolean } {
    const key = `${req.widthPx}x${req.heightPx}>${tw}x${th}|${req.planes.map((p) => `${p.pixelType}:${p.widthSamples}x${p.heightSamples}`).join(',')}`;
    const have = this.scratch.get(key);
    if (have) {
      // most recently used last: the first entry is the one to drop
      this.scratch.delete(key);
      this.scratch.set(key, have);
      return { s: have, reused: true };
    }
    if (this.scratch.size >= MAX_SIZES) {
      const [oldKey, old] = this.scratch.entries().next().value!;
      this.scratch.delete(oldKey);
      destroyScratch(old);
    }
    const d = this.device;
    const planes = req.planes.map((p) =>
      d.createTexture({
        label: `plane ${p.name}`,
        size: [Math.max(1, p.widthSamples), Math.max(1, p.heightSamples)],
        format: FORMATS[p.pixelType].format,
        usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.TEXTURE_BINDING,
      }),
    );
    const mip = createMipTexture(d, req.widthPx, req.heightPx, 'thumbnail layer');
    const target = d.createTexture({
      label: 'thumbnail',
      size: [tw, th],
      format: 'rgba8unorm',
      usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC,
    });
    const bytesPerRow = Math.ceil((tw * 4) / 256) * 256;
    const read = d.createBuffer({
      label: 'thumbnail read',
      size: bytesPerRow * th,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const s: Scratch = {
      planes,
      mip,
      imageGroup: layerBindGroup(this.kit, mip),
      target,
      targetGroup: previewTargetBindGroup(this.kit, target),
      read,
      bytesPerRow,
    };
    this.scratch.set(key, s);
    return { s, reused: false };
  }

  private async make(req: GpuThumbnailRequest): Promise<GpuThumbnailResult> {
    const { widthPx, heightPx, longSidePx } = req;
    const size = thumbnailSize(widthPx, heightPx, longSidePx);
    const { s, reused } = this.scratchFor(req, size.widthPx, size.heightPx);
    const t0 = performance.now();
    const items = req.planes.flatMap((p, i) => {
      if (p.widthSamples * p.heightSamples === 0) return [];
      const f = FORMATS[p.pixelType].format;
      const data = planeSamples(p);
      return [
        { texture: s.planes[i]!, format: f, width: p.widthSamples, height: p.heightSamples, source: { kind: 'texels' as const, data } },
      ];
    });
    if (items.length) await this.uploader.uploadMany(items);
    const uploadMs = performance.now() - t0;
    const byName = new Map<string, PlaneTexture>(
      req.planes.map((p, i) => [
        p.name,
        { texture: s.planes[i]!, kind: FORMATS[p.pixelType].kind, xSampling: p.xSampling, ySampling: p.ySampling },
      ]),
    );
    const slots = [0, 1, 2, 3].map((k) => (req.slots[k] ? (byName.get(req.slots[k]!) ?? null) : null));
    // the whole image into the thumbnail: one thumbnail pixel covers max(w, h) / longSide image pixels (1 when not shrunk)
    const texelsPerPx = Math.max(1, Math.max(widthPx, heightPx) / longSidePx);
    packPreviewView(this.viewBlock, req.display, {
      originXPx: 0,
      originYPx: 0,
      texelsPerPx,
      levelCount: s.mip.mipLevelCount,
      widthPx,
      heightPx,
      displayMinX: 0,
      displayMinY: 0,
      displayMaxX: widthPx,
      displayMaxY: heightPx,
      background: 0,
      viewFlags: 0,
    });
    this.device.queue.writeBuffer(this.viewBuffer, 0, this.viewBlock.bytes);
    const enc = this.device.createCommandEncoder({ label: 'gpu thumbnail' });
    const uniform = encodeAssemble(
      this.kit,
      enc,
      { slots, mode: 'direct', originX: req.originX, originY: req.originY, widthPx, heightPx },
      s.mip,
      this.dummies,
    );
    encodeMips(this.kit, enc, s.mip);
    encodePreviewCompute(this.kit, enc, s.target, { view: this.viewGroup, image: s.imageGroup, target: s.targetGroup });
    enc.copyTextureToBuffer({ texture: s.target }, { buffer: s.read, bytesPerRow: s.bytesPerRow }, [s.target.width, s.target.height]);
    this.device.queue.submit([enc.finish()]);
    try {
      await s.read.mapAsync(GPUMapMode.READ);
    } finally {
      uniform.destroy();
    }
    const src = new Uint8Array(s.read.getMappedRange());
    const tw = s.target.width;
    const rgba = new Uint8Array(tw * s.target.height * 4);
    for (let y = 0; y < s.target.height; y++) rgba.set(src.subarray(y * s.bytesPerRow, y * s.bytesPerRow + tw * 4), y * tw * 4);
    s.read.unmap();
    return { widthPx: tw, heightPx: s.target.height, rgba, uploadMs, wallMs: performance.now() - t0, reused };
  }

  destroy(): void {
    for (const s of this.scratch.values()) destroyScratch(s);
    this.scratch.clear();
    this.uploader.destroy();
    this.viewBuffer.destroy();
    this.dummies.destroy();
    this.kit.dispose();
  }
}

function destroyScratch(s: Scratch): void {
  for (const t of s.planes) t.destroy();
  s.mip.destroy();
  s.target.destroy();
  s.read.destroy();
}

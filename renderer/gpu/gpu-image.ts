// One image on the GPU: its planes as uploaded, and the MIP chains of the layers assembled from them so far.
import type { BoxTuple, DecodedImage } from '../host/api-types.js';
import type { AssembleMode } from '../../shaders/layouts.js';
import { createMipTexture, encodeAssemble, encodeMips, layerBindGroup, mipChainBytes, type DummyPlanes, type LayerTexture } from '../../shaders/passes.js';
import type { ShaderKit } from '../../shaders/pipelines.js';
import type { GpuTimer } from './gpu-timer.js';
import type { ImageUpload, PlaneUploader, UploadedPlane } from './upload.js';

/** Which planes go to R, G, B, A (null: 0 for colour, 1 for alpha) and how they combine. */
export interface LayerChoice {
  slots: readonly (string | null)[];
  mode: AssembleMode;
}

export function layerKey(c: LayerChoice): string {
  return `${c.mode}:${c.slots.map((s) => s ?? '-').join('|')}`;
}

export interface UploadReport extends Omit<ImageUpload, 'planes'> {
  planes: number;
}

export class GpuImage {
  readonly planes = new Map<string, UploadedPlane>();
  readonly layers = new Map<string, LayerTexture>();
  readonly dataWindow: BoxTuple;
  readonly displayWindow: BoxTuple;
  readonly widthPx: number;
  readonly heightPx: number;
  private planeBytes = 0;

  private constructor(image: DecodedImage) {
    this.dataWindow = image.dataWindow;
    this.displayWindow = image.displayWindow;
    this.widthPx = image.widthPx;
    this.heightPx = image.heightPx;
  }

  /** Uploads every plane of a decoded image (one submission on the staging ring); resolves once the copies are queued. */
  static async upload(uploader: PlaneUploader, image: DecodedImage): Promise<{ gpuImage: GpuImage; report: UploadReport }> {
    const g = new GpuImage(image);
    const up = await uploader.uploadImage(image.planes);
    up.planes.forEach((p) => g.planes.set(p.name, p));
    g.planeBytes = up.bytes;
    const { planes: _planes, ...costs } = up;
    return { gpuImage: g, report: { ...costs, planes: up.planes.length } };
  }

  get bytes(): number {
    let total = this.planeBytes;
    for (const l of this.layers.values()) total += l.bytes;
    return total;
  }

  /** The layer's MIP chain, assembled and reduced on the GPU the first time it is asked for. */
  layer(kit: ShaderKit, dummies: DummyPlanes, choice: LayerChoice, timer: GpuTimer | null): { layer: LayerTexture; built: boolean } {
    const key = layerKey(choice);
    const have = this.layers.get(key);
    if (have) return { layer: have, built: false };
    const device = kit.device;
    const texture = createMipTexture(device, this.widthPx, this.heightPx, `layer ${key}`);
    const encoder = device.createCommandEncoder({ label: 'build layer' });
    const slots = choice.slots.map((name) => (name ? this.planes.get(name) ?? null : null));
    const uniform = encodeAssemble(kit, encoder, {
      slots, mode: choice.mode, originX: this.dataWindow[0], originY: this.dataWindow[1], widthPx: this.widthPx, heightPx: this.heightPx,
    }, texture, dummies, timer?.beginOnly());
    encodeMips(kit, encoder, texture, timer?.endOnly());
    const timed = !!timer?.begin();
    if (timed) timer!.resolve(encoder);
    device.queue.submit([encoder.finish()]);
    if (timed) timer!.collect();
    uniform.destroy();
    const layer: LayerTexture = {
      texture, levelCount: texture.mipLevelCount, widthPx: this.widthPx, heightPx: this.heightPx,
      bytes: mipChainBytes(this.widthPx, this.heightPx), imageBindGroup: layerBindGroup(kit, texture),
    };
    this.layers.set(key, layer);
    return { layer, built: true };
  }

  destroy(): void {
    for (const p of this.planes.values()) p.texture.destroy();
    for (const l of this.layers.values()) l.texture.destroy();
    this.planes.clear();
    this.layers.clear();
  }
}

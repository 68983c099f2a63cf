// One image on the GPU: the planes uploaded so far and the MIP chains of the layers assembled from them.
// The textures themselves are entries of the engine's texture cache (budgeted by plane and by layer): an entry that
// is evicted takes its texture out of the image; a layer already built outlives the planes it was made from.
import type { BoxTuple, DecodedImage } from '../host-client/api-types.js';
import { layerKey, planesOf, type LayerChoice } from '../model/layer-choice.js';
import { createLayerTexture, encodeMips, type DummyPlanes, type LayerTexture } from '../../shaders/passes.js';
import type { ShaderKit } from '../../shaders/pipelines.js';
import type { GpuTimer } from './gpu-timer.js';
import { encodeLayerSource } from './layer-source.js';
import { planeFormat, type UploadedPlane } from './plane-uploader.js';

export class GpuImage {
  readonly planes = new Map<string, UploadedPlane>();
  readonly layers = new Map<string, LayerTexture>();
  readonly dataWindow: BoxTuple;
  readonly displayWindow: BoxTuple;
  readonly widthPx: number;
  readonly heightPx: number;
  /** A damaged image's missing pixels (absolute, inclusive boxes; read as 0): its histograms leave them out. */
  readonly missingBoxes: readonly BoxTuple[];
  /** A reduced level of an image too large for the GPU (DecodedImage.reduced): level 0's pixels per pixel of this one. */
  readonly levelScale: number;

  constructor(image: Pick<DecodedImage, 'dataWindow' | 'displayWindow' | 'widthPx' | 'heightPx' | 'missing' | 'reduced'>) {
    this.levelScale = image.reduced?.factor ?? 1;
    this.missingBoxes = image.missing?.regions ?? [];
    this.dataWindow = image.dataWindow;
    this.displayWindow = image.displayWindow;
    this.widthPx = image.widthPx;
    this.heightPx = image.heightPx;
  }

  /** Planes of `names` not on the GPU (any more). */
  missing(names: readonly string[]): string[] {
    return names.filter((n) => !this.planes.has(n));
  }

  get empty(): boolean {
    return this.planes.size === 0 && this.layers.size === 0;
  }

  /** The layer's MIP chain, assembled and reduced on the GPU from planes already uploaded. */
  buildLayer(kit: ShaderKit, dummies: DummyPlanes, choice: LayerChoice, timer: GpuTimer | null): LayerTexture {
    const key = layerKey(choice);
    const layer = createLayerTexture(kit, this.widthPx, this.heightPx, `layer ${key}`);
    this.encodeLayer(kit, dummies, choice, layer.texture, timer);
    this.layers.set(key, layer);
    return layer;
  }

  /**
   * A crop of the planes rewritten (a live image's updated tiles, `patch`: absolute data-window pixels) and the layer
   * assembled again into its own texture, which the frame's bind groups keep reading. False when a plane it needs is
   * not on the GPU (or not in `patch`), or the image is a reduced level: the caller shows the image again instead.
   */
  patchLayer(kit: ShaderKit, dummies: DummyPlanes, choice: LayerChoice, patch: DecodedImage): boolean {
    const layer = this.layers.get(layerKey(choice));
    if (!layer || this.levelScale !== 1 || patch.reduced) return false;
    const [px0, py0] = patch.dataWindow;
    const x = px0 - this.dataWindow[0],
      y = py0 - this.dataWindow[1];
    if (x < 0 || y < 0 || x + patch.widthPx > this.widthPx || y + patch.heightPx > this.heightPx) return false;
    const writes: { target: UploadedPlane; plane: DecodedImage['planes'][number] }[] = [];
    for (const name of planesOf(choice)) {
      const target = this.planes.get(name);
      const plane = patch.planes.find((p) => p.name === name);
      if (!target || !plane || plane.xSampling !== 1 || plane.ySampling !== 1 || target.xSampling !== 1 || target.ySampling !== 1)
        return false;
      writes.push({ target, plane });
    }
    for (const { target, plane } of writes) {
      kit.device.queue.writeTexture(
        { texture: target.texture, origin: { x, y } },
        plane.data,
        { bytesPerRow: plane.widthSamples * planeFormat(plane.pixelType).bytes, rowsPerImage: plane.heightSamples },
        { width: plane.widthSamples, height: plane.heightSamples },
      );
    }
    this.encodeLayer(kit, dummies, choice, layer.texture, null);
    return true;
  }

  /** Assembles the layer's level 0 into `texture` and reduces its MIP chain, in one submission. */
  private encodeLayer(kit: ShaderKit, dummies: DummyPlanes, choice: LayerChoice, texture: GPUTexture, timer: GpuTimer | null): void {
    const device = kit.device;
    const encoder = device.createCommandEncoder({ label: 'build layer' });
    const uniform = encodeLayerSource(
      kit,
      encoder,
      choice,
      (name) => this.planes.get(name) ?? null,
      { originX: this.dataWindow[0], originY: this.dataWindow[1], widthPx: this.widthPx, heightPx: this.heightPx },
      texture,
      dummies,
      timer?.beginOnly(),
    );
    encodeMips(kit, encoder, texture, timer?.endOnly());
    const timed = !!timer?.begin();
    if (timed) timer!.resolve(encoder);
    device.queue.submit([encoder.finish()]);
    if (timed) timer!.collect();
    uniform.destroy();
  }
}

/** One texture in the engine's cache: a plane or a layer's MIP chain of an image. */
export class CachedTexture {
  constructor(
    readonly texture: GPUTexture,
    readonly bytes: number,
    private readonly onDestroy: () => void,
  ) {}

  destroy(): void {
    this.texture.destroy();
    this.onDestroy();
  }
}

// The detail of an image too large for the GPU, zoomed in past its reduced level: a crop of level 0 (fetched with
// DecodeRequest.region) as its own layer, drawn in place of the reduced level while it covers all of the image that
// is on screen (so no seam between the two, and every pass reads level 0's pixels there). One crop at a time, outside
// the texture cache: a new crop replaces it, a device loss or another image drops it.
import type { BoxTuple, DecodedImage } from '../host-client/api-types.js';
import { layerKey, type LayerChoice } from '../model/layer-choice.js';
import type { PanZoom } from '../model/view-geometry.js';
import { mipChainBytes } from '../../shaders/tonemap-cpu.js';
import { guardAllocation, megabytes } from './gpu-guard.js';
import { GpuImage } from './gpu-image.js';
import type { GpuSession } from './gpu-session.js';
import { imageKeyString, type ImageKey, type Shown } from './engine-types.js';
import { cropCovers, visibleBox } from './crop-geometry.js';

interface HeldCrop {
  shown: Shown;
  /** The image's level 0 data window: where the crop may stop at the image's edge. */
  dataWindow: BoxTuple;
  /** The crop's planes as fetched: the pixel values readout reads them. */
  fetched: DecodedImage;
  bytes: number;
}

export class RegionTexture {
  private held: HeldCrop | null = null;
  /** Crops built, and the last one's size (diagnostics and tests). */
  builds = 0;

  constructor(
    private readonly session: () => GpuSession,
    private readonly invalidate: () => void,
  ) {}

  /** The crop on the GPU now (its box: absolute, inclusive), and what it takes of GPU memory. */
  get crop(): { key: ImageKey; layer: string; box: BoxTuple; bytes: number; image: DecodedImage } | null {
    const h = this.held;
    return h
      ? { key: h.shown.key, layer: layerKey(h.shown.choice), box: h.shown.image.dataWindow, bytes: h.bytes, image: h.fetched }
      : null;
  }

  /** Builds the crop's layer from its planes (uploaded, assembled, then let go) in place of the one before. */
  async put(key: ImageKey, choice: LayerChoice, fetched: DecodedImage, dataWindow: BoxTuple): Promise<void> {
    const session = this.session();
    const { device, kit } = session;
    const size = `${fetched.widthPx}×${fetched.heightPx} px`;
    const up = await guardAllocation(
      device,
      `the ${size} crop's planes`,
      () => session.uploader.uploadImage(fetched.planes),
      (made) => made.planes.forEach((p) => p.texture.destroy()),
    );
    if (session.lost) {
      up.planes.forEach((p) => p.texture.destroy());
      return;
    }
    const image = new GpuImage({ ...fetched, reduced: undefined });
    for (const p of up.planes) image.planes.set(p.name, p);
    try {
      const layer = await guardAllocation(
        device,
        `the ${size} crop (${megabytes(mipChainBytes(fetched.widthPx, fetched.heightPx))})`,
        () => image.buildLayer(kit, session.dummies, choice, null),
        (made) => made.texture.destroy(),
      );
      this.forget();
      this.held = {
        shown: { key, keyString: `${imageKeyString(key)}#crop`, choice, image, layer },
        dataWindow,
        fetched,
        bytes: layer.bytes,
      };
      this.builds++;
      this.invalidate();
    } finally {
      // the layer holds what is drawn: the planes go once its build (already submitted) has read them
      for (const p of up.planes) p.texture.destroy();
    }
  }

  /**
   * The crop to draw in place of `cur` (a reduced level), when it is of the same image and layer, the view is zoomed
   * in past the reduced level, and the crop holds all of the image on screen; else null (the reduced level is drawn).
   */
  over(cur: Shown, v: PanZoom, canvasWidthPx: number, canvasHeightPx: number): Shown | null {
    const h = this.held;
    if (!h || cur.image.levelScale <= 1 || v.zoom * cur.image.levelScale <= 1) return null;
    if (cur.keyString !== imageKeyString(h.shown.key) || layerKey(cur.choice) !== layerKey(h.shown.choice)) return null;
    return cropCovers(h.shown.image.dataWindow, h.dataWindow, visibleBox(v, canvasWidthPx, canvasHeightPx)) ? h.shown : null;
  }

  /** The crop of `r` (level 0's pixels) when it holds all of it (statistics of a selection read level 0 there). */
  holding(cur: Shown, r: { x0: number; y0: number; widthPx: number; heightPx: number }): Shown | null {
    const h = this.held;
    if (!h || cur.image.levelScale <= 1 || cur.keyString !== imageKeyString(h.shown.key)) return null;
    if (layerKey(cur.choice) !== layerKey(h.shown.choice)) return null;
    const box = h.shown.image.dataWindow;
    return r.x0 >= box[0] && r.y0 >= box[1] && r.x0 + r.widthPx - 1 <= box[2] && r.y0 + r.heightPx - 1 <= box[3] ? h.shown : null;
  }

  /** Drops the crop unless it is of image `key` (another image was shown). */
  keepOnly(key: ImageKey | null): void {
    if (this.held && (!key || imageKeyString(key) !== imageKeyString(this.held.shown.key))) this.forget();
  }

  /** Drops the crop (another image, a file changed on disk, a device loss: its texture is then gone already). */
  forget(): void {
    this.held?.shown.layer.texture.destroy();
    this.held = null;
  }
}

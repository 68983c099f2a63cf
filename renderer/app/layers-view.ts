// The Layers view's driver: every layer of the image on screen made ready on the GPU (only the planes it lacks are
// fetched and handed over) and laid out as tiles of the preview; redone when the image, the part or the preview's size changes.
import type { GpuEngine, ImageKey } from '../gpu/engine.js';
import { handOver } from '../loading/hand-over.js';
import type { FetchedImage } from '../loading/plane-fetcher.js';
import { sheetLayout } from '../gpu/sheet-layout.js';
import type { LayerTexture } from '../../shaders/passes.js';
import { layerChoice } from '../model/layer-choice.js';
import type { PartSummary } from '../host-client/api-types.js';

export interface LayersHost {
  engine(): GpuEngine | null;
  /** The planes of `channels` of an image from the host (what a layer lacks on the GPU). */
  fetch(key: ImageKey, channels: readonly string[]): Promise<FetchedImage>;
  key(): ImageKey | null;
  part(): PartSummary | undefined;
  sizePx(): { widthPx: number; heightPx: number; dpr: number };
  said(status: string): void;
  /** How many layers the engine draws now (the labels say the view is ready). */
  drawn(count: number): void;
}

export class LayersView {
  private seq = 0;
  private layers: LayerTexture[] = [];
  private forKey = '';

  constructor(private readonly host: LayersHost) {}

  /** Shows (on) or ends (off) the view; when on, loads what the layers lack and lays them out. */
  async update(on: boolean): Promise<void> {
    const seq = ++this.seq;
    const engine = this.host.engine();
    if (!on) {
      this.layers = [];
      this.forKey = '';
      engine?.setSheet([], []);
      this.host.drawn(0);
      return;
    }
    if (!engine) {
      this.host.said('the Layers view needs WebGPU (this view runs on the CPU path)');
      return;
    }
    const key = this.host.key(),
      part = this.host.part();
    if (!key || !part) return;
    const k = `${key.fileId}#${key.part}`;
    if (k !== this.forKey) {
      this.host.drawn(0);
      const out: LayerTexture[] = [];
      for (const l of part.layers) {
        const choice = layerChoice(l, 'rgb').choice;
        const { value: t } = await handOver(
          engine,
          (k, c) => this.host.fetch(k, c),
          key,
          choice,
          'prefetch',
          (image) => engine.prepareLayer(key, choice, image),
        );
        if (seq !== this.seq) return;
        if (t) out.push(t);
      }
      this.layers = out;
      this.forKey = k;
    }
    this.layout();
  }

  /** The layers' textures are gone (a device loss): the next update makes them again. */
  forget(): void {
    this.layers = [];
    this.forKey = '';
  }

  /** Tiles for the current size (device px; the labels use the same layout in CSS px). */
  layout(): void {
    const engine = this.host.engine();
    if (!engine || !this.layers.length) return;
    const { widthPx, heightPx, dpr } = this.host.sizePx();
    const first = this.layers[0]!;
    const tiles = sheetLayout(this.layers.length, widthPx / dpr, heightPx / dpr, first.widthPx / first.heightPx).map((t) => ({
      xPx: t.xPx * dpr,
      yPx: t.yPx * dpr,
      widthPx: t.widthPx * dpr,
      heightPx: t.heightPx * dpr,
    }));
    engine.setSheet(this.layers, tiles);
    this.host.drawn(this.layers.length);
  }
}

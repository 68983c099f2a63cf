// The depth-range view on the GPU: a deep image's samples for the shown layer uploaded once (per-pixel offsets and
// depth-sorted samples in storage buffers), composited over the range by shaders/deep/range.wgsl into a layer's MIP
// chain that the preview tone-maps in place of the flattened image. A moved handle writes a uniform and runs the pass
// again; the samples are uploaded again only for another image or layer (`uploads` counts them).
import { createLayerTexture, encodeMips, type LayerTexture } from '../../shaders/passes.js';
import type { DepthRange } from '../../shaders/deep/range-composite.js';
import { DeepRangePass, uploadDeepSamples, type DeepSampleBuffers } from '../../shaders/deep/range-gpu.js';
import type { PackedDeepSamples } from '../../shaders/deep/range-pack.js';
import type { GpuSession } from './gpu-session.js';

/** What the engine is told to show; a new object for every change (the drawer compares identities). */
export interface DeepRangeView {
  /** The same object while the image and layer stay: its identity decides an upload. */
  packed: PackedDeepSamples;
  range: DepthRange;
  /** A one-channel layer: its value shown in R, G and B. */
  grey: boolean;
}

/** The view set on the engine, and what the drawer did with it; outlives a device. */
export interface DeepRangeInput {
  view: DeepRangeView | null;
  /** Sample uploads so far (one per image and layer, and after a device loss). */
  uploads: number;
  /** Composite passes run so far. */
  composites: number;
  /** Why the view cannot be shown (samples larger than a storage binding); null when it is. */
  error: string | null;
}

export class DeepRangeDrawer {
  private readonly pass: DeepRangePass;
  private uploaded: { packed: PackedDeepSamples; buffers: DeepSampleBuffers } | null = null;
  private made: { view: DeepRangeView; layer: LayerTexture } | null = null;

  constructor(
    private readonly session: GpuSession,
    private readonly input: DeepRangeInput,
  ) {
    this.pass = new DeepRangePass(session.kit.device);
  }

  /** The layer to tone-map instead of `shown` while a depth range is set and fits it; null: show `shown`. */
  layerFor(encoder: GPUCommandEncoder, shown: LayerTexture): LayerTexture | null {
    const view = this.input.view;
    if (!view) {
      this.release();
      return null;
    }
    const { packed } = view;
    if (packed.widthPx !== shown.widthPx || packed.heightPx !== shown.heightPx) return null;
    if (this.made?.view === view) return this.made.layer;
    if (this.uploaded?.packed !== packed) {
      this.release();
      try {
        this.uploaded = { packed, buffers: uploadDeepSamples(this.session.kit.device, packed) };
      } catch (error) {
        this.input.error = (error as Error).message;
        return null;
      }
      this.input.uploads++;
      this.input.error = null;
    }
    const layer = this.made?.layer ?? this.newLayer(packed.widthPx, packed.heightPx);
    this.pass.encode(encoder, this.uploaded!.buffers, view.range, view.grey, layer.texture);
    encodeMips(this.session.kit, encoder, layer.texture);
    this.input.composites++;
    this.made = { view, layer };
    return layer;
  }

  private newLayer(widthPx: number, heightPx: number): LayerTexture {
    return createLayerTexture(this.session.kit, widthPx, heightPx, 'deep range view');
  }

  private release(): void {
    this.uploaded?.buffers.destroy();
    this.uploaded = null;
    this.made?.layer.texture.destroy();
    this.made = null;
  }

  destroy(): void {
    this.release();
    this.pass.destroy();
  }
}

// The histogram of what the preview shows, counted again only when that changes: the shown layer's, the reference's
// while A/B flip shows B, or the magnitude of the difference image a difference mode shows (both layers on the GPU).
// A damaged image's missing pixels (read as 0) are left out of what it counts.
import { isDifference, statsSourceCode, type DifferenceMode } from '../../shaders/compare-params.js';
import type { CompareKit } from '../../shaders/compare-kit.js';
import type { ReducePlacement } from '../../shaders/compare-layouts.js';
import { unionRegion } from '../../shaders/compare-cpu.js';
import { PairHistogramPass } from '../../shaders/pair-histogram.js';
import { SkippingHistograms } from '../../shaders/histogram-skip-gpu.js';
import type { Region } from '../../shaders/compare-cpu.js';
import type { CompareView } from './compare-geometry.js';
import { Histogrammer, layerHistogram } from './histogrammer.js';

/** A layer to count: its texture, and its missing pixels in its own pixels (0, 0 its first; none for a whole image). */
export interface HistogramLayer {
  texture: GPUTexture;
  holes: readonly Region[];
}

const moved = (holes: readonly Region[], dx: number, dy: number): Region[] => holes.map((h) => ({ ...h, x0: h.x0 + dx, y0: h.y0 + dy }));

/** What a histogram counts: A, B, or a difference image's magnitude. */
export type HistogramSource = 'a' | 'b' | DifferenceMode;

export function histogramSource(view: CompareView | null, hasReference: boolean): HistogramSource {
  if (!view || !hasReference) return 'a';
  if (isDifference(view.mode)) return view.mode;
  return view.mode === 'flip' && view.showB ? 'b' : 'a';
}

export class ShownHistogram {
  private readonly runner: Histogrammer;
  private readonly pair: PairHistogramPass;
  /** Made when a damaged layer is first counted. */
  private skipping: SkippingHistograms | null = null;
  private last: { a: GPUTexture; b: GPUTexture | null; source: HistogramSource } | null = null;

  constructor(
    private readonly ck: CompareKit,
    private readonly deliver: (bins: Uint32Array, source: HistogramSource) => void,
  ) {
    this.runner = new Histogrammer(ck.kit);
    this.pair = new PairHistogramPass(ck);
  }

  /** A the shown layer, B the reference's (null without one), placed as the reductions place them. */
  update(aLayer: HistogramLayer, bLayer: HistogramLayer | null, view: CompareView | null, at: ReducePlacement, aChanged = false): void {
    const a = aLayer.texture,
      b = bLayer?.texture ?? null;
    const source = histogramSource(view, b !== null);
    const last = this.last;
    // a texture's identity stands for its content (a layer built again is a new texture), except a playback slot's,
    // which is written again for every frame: its caller says so (aChanged)
    const same = last && last.source === source && (source === 'b' || (last.a === a && !aChanged)) && (source === 'a' || last.b === b);
    if (same) return;
    this.last = { a, b, source };
    const done = (bins: Uint32Array): void => this.deliver(bins, source);
    // a playback slot written again is one of a stream of frames: each result is shown (see Histogrammer.run)
    const stream = aChanged;
    if (source === 'a' || source === 'b') {
      const single = source === 'a' ? aLayer : bLayer!;
      const skipping = single.holes.length ? (this.skipping ??= new SkippingHistograms(this.ck.device)) : undefined;
      this.runner.run(layerHistogram(this.ck.kit, single.texture, single.holes, skipping), done, stream);
      return;
    }
    const region = unionRegion(
      { x0: at.aX0, y0: at.aY0, widthPx: at.aWidthPx, heightPx: at.aHeightPx },
      { x0: at.bX0, y0: at.bY0, widthPx: at.bWidthPx, heightPx: at.bHeightPx },
    );
    const valueMode = statsSourceCode({ kind: 'difference', mode: source });
    // a difference reads both images at every pixel: A's missing pixels and B's (each moved into A's pixel space) are left out
    const holes = [...moved(aLayer.holes, at.aX0, at.aY0), ...moved(bLayer!.holes, at.bX0, at.bY0)];
    this.runner.run((encoder, bins) => this.pair.encode(encoder, a, b!, region, at, valueMode, bins, undefined, holes), done, stream);
  }

  destroy(): void {
    this.pair.destroy();
    this.skipping?.destroy();
  }
}

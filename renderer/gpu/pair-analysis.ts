// The figures of what the preview shows, on the GPU: the histogram (counted only when the shown pixels change), and
// the comparison metrics and statistics of the shown layer (A) against the reference (B), or of A alone.
import type { CompareKit } from '../../shaders/compare-kit.js';
import type { ReducePlacement } from '../../shaders/compare-layouts.js';
import type { ChannelStats, MetricsTotals, Region } from '../../shaders/compare-cpu.js';
import { Analysis, type ReduceOperands, type Timed } from './analysis.js';
import { alignedDataRegion, type CompareView } from './compare-geometry.js';
import { ShownHistogram, type HistogramLayer, type HistogramSource } from './shown-histogram.js';
import type { OnScreen, Shown } from './engine-types.js';
import { boxesAsRegions } from '../../shaders/stats-regions.js';

/** A shown layer's texture with its image's missing pixels in the texture's pixels (level 0 is the data window). */
const histogramLayer = (s: Shown): HistogramLayer => ({
  texture: s.layer.texture,
  holes: boxesAsRegions(s.image.missingBoxes, -s.image.dataWindow[0], -s.image.dataWindow[1]),
});

export class PairAnalysis {
  private readonly analysis: Analysis;
  private readonly histogram: ShownHistogram;

  constructor(
    ck: CompareKit,
    timestamps: boolean,
    private readonly screen: OnScreen,
    deliver: (bins: Uint32Array, source: HistogramSource) => void,
  ) {
    this.analysis = new Analysis(ck, timestamps);
    this.histogram = new ShownHistogram(ck, deliver);
  }

  get runs(): number {
    return this.analysis.runs;
  }
  get lastGpuMs(): number {
    return this.analysis.lastGpuMs;
  }

  /** B's placement in A's pixel space for the reductions (A the shown layer; B the reference, or A itself). */
  private placement(): { a: Shown; b: Shown; at: ReducePlacement } | null {
    const a = this.screen.current;
    if (!a) return null;
    const b = this.screen.reference ?? a;
    const dw = a.image.dataWindow;
    const br = alignedDataRegion(
      { dataWindow: a.image.dataWindow, displayWindow: a.image.displayWindow, levelCount: 1 },
      { dataWindow: b.image.dataWindow, displayWindow: b.image.displayWindow, levelCount: 1 },
    );
    return {
      a,
      b,
      at: {
        aX0: dw[0],
        aY0: dw[1],
        aWidthPx: a.image.widthPx,
        aHeightPx: a.image.heightPx,
        bX0: br.x0,
        bY0: br.y0,
        bWidthPx: br.widthPx,
        bHeightPx: br.heightPx,
      },
    };
  }

  /** The layers on screen when a reduction is encoded (a layer let go meanwhile is no longer on screen: null). */
  private operands(): ReduceOperands | null {
    const p = this.placement();
    return p && { a: p.a.layer.texture, b: p.b.layer.texture, at: p.at };
  }

  /** Comparison metrics of the shown layer against the reference over `region` (A's pixel space); null without both. */
  async metrics(region: Region, threshold: number): Promise<Timed<MetricsTotals> | null> {
    if (!this.placement() || !this.screen.reference) return null;
    return this.analysis.metrics(() => (this.screen.reference ? this.operands() : null), region, threshold);
  }

  /** Statistics of the shown layer (0), the reference (1) or a difference image (2 + metric) over `region`. */
  async statistics(region: Region, valueMode: number): Promise<Timed<ChannelStats[]> | null> {
    if (!this.placement()) return null;
    return this.analysis.stats(() => this.operands(), region, valueMode);
  }

  /** Statistics of one layer alone over `region` (a crop of level 0 standing in for the reduced level shown). */
  async statisticsOf(a: Shown, region: Region): Promise<Timed<ChannelStats[]> | null> {
    const [x0, y0] = a.image.dataWindow;
    const w = a.image.widthPx,
      h = a.image.heightPx;
    const at = { aX0: x0, aY0: y0, aWidthPx: w, aHeightPx: h, bX0: x0, bY0: y0, bWidthPx: w, bHeightPx: h };
    return this.analysis.stats(() => ({ a: a.layer.texture, b: a.layer.texture, at }), region, 0);
  }

  /**
   * The histogram of what the preview shows now, counted only when that changed; `contentChanged`: the shown texture
   * holds other pixels than when last counted (a playback slot written again).
   */
  refreshHistogram(view: CompareView | null, contentChanged = false): void {
    const p = this.placement();
    const ref = this.screen.reference;
    if (p) this.histogram.update(histogramLayer(p.a), ref ? histogramLayer(ref) : null, view, p.at, contentChanged);
  }

  destroy(): void {
    this.analysis.destroy();
    this.histogram.destroy();
  }
}

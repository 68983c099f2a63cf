// Wires the compare and inspect slices to the engine: the reference (its layer pinned on the GPU, its planes kept on
// the CPU for the pixel values and the CPU path), the compare view, and the Comparison and Statistics figures (GPU
// reductions; the CPU reference where the engine has none; statistics-figures.ts). Pointer-move values never pass here.
import type { DecodedImage, LayerSummary, LevelStatistics, LevelStatisticsRequest, PartSummary } from '../host-client/api-types.js';
import { handOver } from '../loading/hand-over.js';
import { lacking, mergePlanes } from '../loading/cpu-copy.js';
import type { FetchedImage } from '../loading/plane-fetcher.js';
import type { ForegroundLoad } from '../loading/foreground-load.js';
import { colormapCode } from '../../shaders/colormaps.js';
import { intersectRegion, unionRegion, type Region, type RgbaLayer } from '../../shaders/compare-cpu.js';
import { assembleRgba } from '../cpu/assemble.js';
import { comparisonFigures } from './comparison-figures.js';
import { alignedDataRegion, alignmentShift, type CompareView } from '../gpu/compare-geometry.js';
import type { ImageKey } from '../gpu/engine.js';
import type { ViewEngine } from '../gpu/view-engine.js';
import { colormapSource, layerChoice, partChannelNames, planesOf, type ChannelPick, type LayerChoice } from '../model/layer-choice.js';
import { measuredSource, shownImageKey } from '../model/subject.js';
import type { ReferenceRef, StatisticsReport } from '../state/compare-state.js';
import type { AppState, AppStore, StoreActions } from '../state/store.js';
import { statisticsFigures } from './statistics-figures.js';

/** What the compare controller needs of the app controller. */
export interface CompareHost {
  engine(): ViewEngine | null;
  store: AppStore;
  actions: StoreActions;
  /** The planes of `channels` of an image from the host (its RAM cache makes a repeat cheap). */
  fetch(key: ImageKey, channels: readonly string[]): Promise<FetchedImage>;
  currentPart(): PartSummary | undefined;
  /** A picked image loading: the figures wait for its first frame rather than measure the image before it. */
  foreground?: ForegroundLoad;
  /** Level 0 measured by the host chunk by chunk (an image the page holds reduced), and dropping such a request. */
  levelStatistics?: (request: LevelStatisticsRequest) => Promise<LevelStatistics>;
  cancel?: (requestId: string) => void;
  /** Level 0's histogram counted with its figures: shown in place of the reduced level's. */
  levelHistogram?: (fileId: string, bins: Uint32Array) => void;
}

/** The layer and channel of B compared with A: A's layer by name when B is another file that has it, else B's own. */
export function referenceLayer(
  ref: ReferenceRef,
  aFileId: string | null,
  aLayer: string,
  aChannel: ChannelPick,
): { part: PartSummary; layer: LayerSummary; channel: ChannelPick; follows: boolean } | null {
  const part = ref.file.summary?.parts[ref.part];
  if (!part) return null;
  const followed = ref.file.id !== aFileId ? part.layers.find((l) => l.name === aLayer) : undefined;
  const layer = followed ?? part.layers.find((l) => l.name === ref.layer) ?? part.layers[0];
  if (!layer) return null;
  return { part, layer, channel: followed ? aChannel : ref.channel, follows: !!followed };
}

const layerText = (name: string): string => name || '(base)';

export class CompareController {
  /** B's planes on the CPU (pixel values, the CPU path). */
  referenceImage: DecodedImage | null = null;
  referenceChoice: LayerChoice | null = null;
  private refKey = '';
  private analysisSeq = 0;
  /** The last whole-image statistics of what is shown: the colormap's auto range, whatever rectangle is dragged. */
  private wholeStats: StatisticsReport | null = null;
  private levelRequest: { key: string; requestId: string; figures: Promise<LevelStatistics> } | null = null;
  private levelRequests = 0;
  private readonly changed = new Set<() => void>();

  constructor(private readonly host: CompareHost) {}

  /** The overlay redraws when B's CPU copy arrives. */
  onChange(l: () => void): () => void {
    this.changed.add(l);
    return () => this.changed.delete(l);
  }

  start(): void {
    const { store } = this.host;
    store.subscribe((s, prev) => {
      // another pair: a run still computing the last one is void (its figures would flash before the new pair's)
      if (shownImageKey(s) !== shownImageKey(prev) || s.compare.reference !== prev.compare.reference) this.analysisSeq++;
      // another image on screen: the figures of the last pair go (the panel says computing) until the new pair's arrive
      if (s.compare.reference && s.image.currentFileId !== prev.image.currentFileId && s.compare.metrics)
        this.host.actions.setCompare({ metrics: null, metricsNote: '' });
      // another image, part, layer or channel: its Statistics are computed afresh (the panel says computing… meanwhile)
      if (shownImageKey(s) !== shownImageKey(prev) && s.inspect.stats) {
        this.wholeStats = null;
        this.host.actions.setInspect({ stats: null });
      }
      if (
        s.compare.reference !== prev.compare.reference ||
        (s.compare.reference &&
          (s.image.layer !== prev.image.layer ||
            s.image.channel !== prev.image.channel ||
            s.image.currentFileId !== prev.image.currentFileId))
      )
        void this.syncReference();
      if (
        s.compare !== prev.compare ||
        s.inspect.colormap !== prev.inspect.colormap ||
        s.inspect.rangeMin !== prev.inspect.rangeMin ||
        s.inspect.rangeMax !== prev.inspect.rangeMax ||
        s.view.wipeFraction !== prev.view.wipeFraction
      )
        this.pushView();
      if (
        s.inspect.autoRange &&
        (s.inspect.colormap !== prev.inspect.colormap ||
          s.image.channel !== prev.image.channel ||
          s.inspect.autoRange !== prev.inspect.autoRange)
      )
        this.autoRange();
      if (s.inspect.region !== prev.inspect.region || s.compare.mode !== prev.compare.mode || s.compare.showB !== prev.compare.showB)
        void this.analyse();
    });
  }

  /** The compare pass's view from the store (null when neither a compare mode nor a colormap is on). */
  compareView(s: AppState = this.host.store.getState()): CompareView | null {
    const on = (s.compare.reference && s.compare.mode !== 'off') || s.inspect.colormap !== 'none';
    if (!on) return null;
    return {
      mode: s.compare.reference ? s.compare.mode : 'off',
      showB: s.compare.showB,
      wipeFraction: s.view.wipeFraction,
      wipeAxis: s.compare.wipeAxis,
      colormap: colormapCode(s.inspect.colormap),
      rangeMin: s.inspect.rangeMin,
      rangeMax: s.inspect.rangeMax,
    };
  }

  pushView(): void {
    this.host.engine()?.setCompareView(this.compareView());
  }

  /** The reference's layer to the engine (loading only what the GPU lacks) and its planes to the CPU copy. */
  private async syncReference(): Promise<void> {
    const s = this.host.store.getState();
    const engine = this.host.engine();
    const ref = s.compare.reference;
    if (!engine) return;
    if (!ref) {
      this.refKey = '';
      this.referenceImage = null;
      this.referenceChoice = null;
      await engine.setReference(null, null);
      this.host.actions.setCompare({ metrics: null, metricsNote: '' });
      this.emit();
      return;
    }
    const resolved = referenceLayer(ref, s.image.currentFileId, s.image.layer, s.image.channel);
    if (!resolved) {
      this.host.actions.setCompare({ metricsNote: `${ref.file.name} has no part ${ref.part} any more: set the reference again` });
      return;
    }
    const { choice } = layerChoice(resolved.layer, resolved.channel, partChannelNames(resolved.part));
    const key = { fileId: ref.file.id, part: ref.part };
    const keyText = `${ref.file.id}#${ref.part}#${JSON.stringify(choice)}`;
    if (keyText === this.refKey) {
      void this.analyse();
      return;
    }
    this.refKey = keyText;
    try {
      // one request for what the engine lacks and what B's CPU copy lacks; then the engine takes its part of it
      const { fetched } = await handOver(
        engine,
        (k, c) => this.host.fetch(k, c),
        key,
        choice,
        'prefetch',
        (image) => engine.setReference(key, choice, image),
        lacking(this.referenceImage, key, planesOf(choice)),
      );
      if (this.refKey !== keyText) return;
      let image = fetched ? mergePlanes(this.referenceImage, fetched.image) : this.referenceImage;
      const more = lacking(image, key, planesOf(choice));
      if (more.length) image = mergePlanes(image, (await this.host.fetch(key, more)).image);
      if (this.refKey !== keyText) return;
      this.referenceImage = image;
      this.referenceChoice = choice;
      this.pushView();
      this.emit();
      await this.analyse();
    } catch (e) {
      if (this.refKey === keyText)
        this.host.actions.setCompare({
          metrics: null,
          metricsNote: `the reference ${ref.file.name} could not be loaded: ${e instanceof Error ? e.message : String(e)}. Pick another reference.`,
        });
    }
  }

  /** A new device holds no reference: hand it over again. */
  resync(): void {
    this.refKey = '';
    void this.syncReference();
  }

  /** Whether the run numbered `seq`, started on state `started`, still computes the pair on screen. */
  private stillCurrent(seq: number, started: AppState): boolean {
    const now = this.host.store.getState();
    return seq === this.analysisSeq && shownImageKey(now) === shownImageKey(started) && now.compare.reference === started.compare.reference;
  }

  private emit(): void {
    for (const l of this.changed) l();
  }

  /** After the current image is shown, and when the region, mode or reference change: metrics and statistics again. */
  async analyse(): Promise<void> {
    if (this.host.foreground?.busy) await this.host.foreground.idle();
    const s = this.host.store.getState();
    const engine = this.host.engine();
    const a = s.image.decoded;
    const part = this.host.currentPart();
    if (!engine || !part || !a || a.fileId !== s.image.currentFileId) return;
    // the GPU still reads the previous image as A: the show that lands next analyses again
    if (engine.shownFileId && engine.shownFileId() !== a.fileId) return;
    const layer = part.layers.find((l) => l.name === s.image.layer) ?? part.layers[0];
    if (!layer) return;
    // counted only by a call that computes: one that finds nothing to do must not void a run already under way
    const seq = ++this.analysisSeq;
    const aChoice = layerChoice(layer, s.image.channel, partChannelNames(part)).choice;
    const aPlaced = { dataWindow: part.dataWindow, displayWindow: part.displayWindow, levelCount: 1 };
    const ref = s.compare.reference;
    const b = ref ? this.referenceImage : null;
    const bPart = ref?.file.summary?.parts[ref.part];
    const bRegion =
      b && bPart ? alignedDataRegion(aPlaced, { dataWindow: b.dataWindow, displayWindow: b.displayWindow, levelCount: 1 }) : null;
    const aRegion: Region = {
      x0: part.dataWindow[0],
      y0: part.dataWindow[1],
      widthPx: part.dataWindow[2] - part.dataWindow[0] + 1,
      heightPx: part.dataWindow[3] - part.dataWindow[1] + 1,
    };
    const union = bRegion ? unionRegion(aRegion, bRegion) : aRegion;
    const within = (r: Region): Region => (s.inspect.region ? intersectRegion(r, s.inspect.region) : r);
    const cpu = (): { a: RgbaLayer; b: RgbaLayer | null } => ({
      // an image shown reduced is that level on the CPU too: its own pixels, not level 0's
      a: {
        rgba: assembleRgba(a, aChoice),
        ...(a.reduced ? { x0: a.dataWindow[0], y0: a.dataWindow[1], widthPx: a.widthPx, heightPx: a.heightPx } : aRegion),
      },
      b: b && bRegion && this.referenceChoice ? { rgba: assembleRgba(b, this.referenceChoice), ...bRegion } : null,
    });
    let cpuLayers: ReturnType<typeof cpu> | null = null;
    const cpuOnce = () => (cpuLayers ??= cpu());

    // B's pixels in A's pixel space, as the compare geometry aligns B
    const bShift = b
      ? alignmentShift(aPlaced, { dataWindow: b.dataWindow, displayWindow: b.displayWindow, levelCount: 1 })
      : ([0, 0] as const);

    // Comparison
    if (ref && b && bRegion && this.referenceChoice) {
      const report = await comparisonFigures({
        s,
        engine,
        a,
        aChoice,
        layerName: layer.name,
        part,
        b,
        bChoice: this.referenceChoice,
        bPart: bPart!,
        bText: `${ref.file.name} · ${layerText(referenceLayer(ref, s.image.currentFileId, s.image.layer, s.image.channel)?.layer.name ?? ref.layer)}`,
        region: within(union),
        bShift,
        cpu: () => ({ a: cpuOnce().a, b: cpuOnce().b! }),
      });
      if (!this.stillCurrent(seq, s)) return;
      this.host.actions.setCompare({ metrics: report, metricsNote: '' });
    } else if (ref && !b) {
      this.host.actions.setCompare({ metricsNote: `loading the reference ${ref.file.name}…` });
    }

    // Statistics
    // B not loaded yet: A is measured, under a subject that says so (the panel waits for B's figures)
    const figures = await statisticsFigures({
      s,
      engine,
      a,
      aChoice,
      layerName: layer.name,
      b,
      bChoice: this.referenceChoice,
      source: ref && b ? measuredSource(s) : { kind: 'a' },
      aRegion,
      bRegion,
      union,
      bShift,
      cpu: cpuOnce,
      ...(this.host.levelStatistics ? { levelStatistics: (r: LevelStatisticsRequest) => this.levelStatistics(r) } : {}),
    });
    if (!figures || !this.stillCurrent(seq, s)) return;
    const { report } = figures;
    this.host.actions.setInspect({ stats: report });
    if (figures.histogram) this.host.levelHistogram?.(a.fileId, figures.histogram);
    if (report.whole) {
      this.wholeStats = report;
      if (s.inspect.autoRange) this.autoRange(report);
      return;
    }
    // a rectangle's figures are shown; the colormap's auto range still comes from the whole image
    if (!s.inspect.autoRange) return;
    const whole = await figures.wholeRows();
    if (!whole || !this.stillCurrent(seq, s)) return;
    this.wholeStats = { ...report, region: figures.wholeRegion, whole: true, rows: whole };
    this.autoRange(this.wholeStats);
  }

  /**
   * The host's measure of level 0, one at a time: a request the same as the one under way joins it (a refined level
   * landing analyses again); another cancels it.
   */
  private levelStatistics(request: LevelStatisticsRequest): Promise<LevelStatistics> {
    const key = JSON.stringify(request);
    const running = this.levelRequest;
    if (running?.key === key) return running.figures;
    if (running) this.host.cancel?.(running.requestId);
    const requestId = `level-stats-${++this.levelRequests}`;
    const figures = this.host.levelStatistics!({ ...request, requestId }).finally(() => {
      if (this.levelRequest?.requestId === requestId) this.levelRequest = null;
    });
    this.levelRequest = { key, requestId, figures };
    return figures;
  }

  /** The colormap's range from the whole image's finite values of the channels shown (symmetric about 0 for the diverging map). */
  autoRange(report: StatisticsReport | null = this.wholeStats ?? this.host.store.getState().inspect.stats): void {
    const s = this.host.store.getState();
    if (!report || !report.rows.length) return;
    const pick = colormapSource(s.image.channel).slots;
    const rows = report.rows.length === 1 ? report.rows : report.rows.filter((_, i) => pick.includes(i));
    let min = Math.min(...rows.map((r) => r.min).filter(Number.isFinite));
    let max = Math.max(...rows.map((r) => r.max).filter(Number.isFinite));
    if (!Number.isFinite(min) || !Number.isFinite(max)) return;
    if (s.inspect.colormap === 'diverging') {
      const m = Math.max(Math.abs(min), Math.abs(max));
      min = -m;
      max = m;
    }
    if (min === max) {
      min -= 0.5;
      max += 0.5;
    }
    if (min !== s.inspect.rangeMin || max !== s.inspect.rangeMax) this.host.actions.setInspect({ rangeMin: min, rangeMax: max });
  }
}

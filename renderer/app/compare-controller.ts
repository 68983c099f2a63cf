// Wires the compare and inspect slices to the engine: the reference (its layer pinned on the GPU, its planes kept on
// the CPU for the pixel values and the CPU path), the compare view, and the Comparison and Statistics figures (GPU
// reductions; the CPU reference where the engine has none). Pointer-move values never pass through here.
import type { DecodedImage, LayerSummary, PartSummary } from '../host-client/api-types.js';
import { handOver } from '../loading/hand-over.js';
import { lacking, mergePlanes } from '../loading/cpu-copy.js';
import type { FetchedImage } from '../loading/plane-fetcher.js';
import type { ForegroundLoad } from '../loading/foreground-load.js';
import { COMPARE_MODE_LABELS, statsSourceCode, type StatsSource } from '../../shaders/compare-params.js';
import { colormapCode } from '../../shaders/colormaps.js';
import { boxesAsRegions, combineChannels, measuredHoles, regionArea, regionsWithout } from '../../shaders/stats-regions.js';
import {
  emptyChannelStats,
  intersectRegion,
  meanAndSd,
  statsReference,
  summariseAll,
  summariseChannel,
  unionRegion,
  type ChannelStats,
  type Region,
  type RgbaLayer,
} from '../../shaders/compare-cpu.js';
import { assembleRgba } from '../cpu/assemble.js';
import { measureMetrics } from './compare-metrics.js';
import { alignedDataRegion, alignmentShift, type CompareView } from '../gpu/compare-geometry.js';
import type { Timed } from '../gpu/analysis.js';
import type { ImageKey } from '../gpu/engine.js';
import type { ViewEngine } from '../gpu/view-engine.js';
import { colormapSource, layerChoice, partChannelNames, planesOf, type ChannelPick, type LayerChoice } from '../model/layer-choice.js';
import { comparisonSubject, measuredSource, statisticsSubject } from '../model/subject.js';
import type { ComparisonReport, MetricRow, ReferenceRef, StatisticsReport, StatRow } from '../state/compare-state.js';
import type { AppState, AppStore, StoreActions } from '../state/store.js';
import { shownLayerText } from './expression-label.js';

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

/** Names of the RGBA slots a layer choice fills (null: a constant), as the panels label them. */
export function slotNames(c: LayerChoice): (string | null)[] {
  if (c.mode === 'y') return [c.slots[0] ?? null, null, null, c.slots[3] ?? null];
  if (c.mode === 'yc') return ['R (from Y, RY, BY)', 'G (from Y, RY, BY)', 'B (from Y, RY, BY)', c.slots[3] ?? null];
  return [...c.slots].map((s) => s ?? null);
}

/** A's identity in the compare pair: the image, part, layer and channel on screen. */
const pairOf = (s: AppState): string => `${s.image.currentFileId}\0${s.image.part}\0${s.image.layer}\0${s.image.channel}`;

const boxText = (b: readonly number[]): string => `${b[0]},${b[1]} – ${b[2]},${b[3]}`;
const layerText = (name: string): string => name || '(base)';

export class CompareController {
  /** B's planes on the CPU (pixel values, the CPU path). */
  referenceImage: DecodedImage | null = null;
  referenceChoice: LayerChoice | null = null;
  private refKey = '';
  private analysisSeq = 0;
  /** The last whole-image statistics of what is shown: the colormap's auto range, whatever rectangle is dragged. */
  private wholeStats: StatisticsReport | null = null;
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
      if (pairOf(s) !== pairOf(prev) || s.compare.reference !== prev.compare.reference) this.analysisSeq++;
      // another image on screen: the figures of the last pair go (the panel says computing) until the new pair's arrive
      if (s.compare.reference && s.image.currentFileId !== prev.image.currentFileId && s.compare.metrics)
        this.host.actions.setCompare({ metrics: null, metricsNote: '' });
      // another image, part, layer or channel: its Statistics are computed afresh (the panel says computing… meanwhile)
      if (pairOf(s) !== pairOf(prev) && s.inspect.stats) {
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
    return seq === this.analysisSeq && pairOf(now) === pairOf(started) && now.compare.reference === started.compare.reference;
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
      a: { rgba: assembleRgba(a, aChoice), ...aRegion },
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
      const region = within(union);
      const t0 = performance.now();
      // a damaged A's or B's missing pixels (chunks that could not be read) are left out of the figures
      const measured = await measureMetrics(
        engine,
        region,
        boxesAsRegions(a.missing?.regions ?? []),
        boxesAsRegions(b.missing?.regions ?? [], bShift[0], bShift[1]),
        () => ({ a: cpuOnce().a, b: cpuOnce().b! }),
      );
      const { totals, path, gpuMs } = measured;
      if (!this.stillCurrent(seq, s)) return;
      const aNames = slotNames(aChoice),
        bNames = slotNames(this.referenceChoice);
      const used = [0, 1, 2, 3].filter((c) => aNames[c] !== null || bNames[c] !== null);
      const rows: MetricRow[] = used.map((c) => ({
        name: aNames[c] === bNames[c] || !bNames[c] ? (aNames[c] ?? '') : `${aNames[c] ?? '(none)'} ↔ ${bNames[c]}`,
        summary: summariseChannel(totals.channels[c]!, region),
      }));
      const report: ComparisonReport = {
        path,
        gpuMs,
        wallMs: performance.now() - t0,
        a: `${s.library.files.find((f) => f.id === a.fileId)?.name ?? a.fileId} · ${shownLayerText(layer.name, aChoice)}`,
        b: `${ref.file.name} · ${layerText(referenceLayer(ref, s.image.currentFileId, s.image.layer, s.image.channel)?.layer.name ?? ref.layer)}`,
        rows,
        all: summariseAll(
          used.map((c) => totals.channels[c]!),
          region,
        ),
        pixelsDiffer: totals.pixelsDiffer,
        pixels: region.widthPx * region.heightPx - measured.leftOutPx,
        missingPxA: measured.missingPxA,
        missingPxB: measured.missingPxB,
        region,
        notes: this.notes(part, bPart!, aNames, bNames, !!s.inspect.region),
        subject: comparisonSubject(s),
      };
      this.host.actions.setCompare({ metrics: report, metricsNote: '' });
    } else if (ref && !b) {
      this.host.actions.setCompare({ metricsNote: `loading the reference ${ref.file.name}…` });
    }

    // Statistics
    // B not loaded yet: A is measured, under a subject that says so (the panel waits for B's figures)
    const source: StatsSource = ref && b ? measuredSource(s) : { kind: 'a' };
    const statsOver = source.kind === 'difference' ? union : source.kind === 'b' ? bRegion! : aRegion;
    const region = within(statsOver);
    const t0 = performance.now();
    // a damaged A's or B's missing pixels (chunks that could not be read) are left out of what reads them: the rest is
    // measured in rectangles
    const holes = measuredHoles(source.kind, a.missing?.regions ?? [], b?.missing?.regions ?? [], bShift);
    const measure = async (over: Region): Promise<{ channels: ChannelStats[]; path: 'gpu' | 'cpu'; gpuMs: number }> => {
      const pieces = holes.length ? regionsWithout(over, holes) : [over];
      const empty = () => [0, 1, 2, 3].map(emptyChannelStats);
      const gpuRuns: Timed<ChannelStats[]>[] = [];
      for (const piece of pieces) {
        const run = await engine.statistics(piece, statsSourceCode(source)).catch(() => null);
        if (!run) break;
        gpuRuns.push(run);
      }
      if (gpuRuns.length === pieces.length)
        return {
          channels: combineChannels(
            gpuRuns.map((r) => r.value),
            empty,
          ),
          path: 'gpu',
          gpuMs: gpuRuns.reduce((ms, r) => ms + r.gpuMs, 0),
        };
      const l = cpuOnce();
      return {
        channels: combineChannels(
          pieces.map((piece) => statsReference(l.a, l.b ?? l.a, source, piece)),
          empty,
        ),
        path: 'cpu',
        gpuMs: NaN,
      };
    };
    const missingPx = holes.length ? region.widthPx * region.heightPx - regionArea(regionsWithout(region, holes)) : 0;
    const { channels, path, gpuMs } = await measure(region);
    if (!this.stillCurrent(seq, s)) return;
    const names = slotNames(source.kind === 'b' && this.referenceChoice ? this.referenceChoice : aChoice);
    const rowsOf = (chs: ChannelStats[]): StatRow[] =>
      [0, 1, 2, 3]
        .filter((c) => names[c] !== null)
        .map((c) => {
          const st = chs[c]!;
          const { mean, sd } = meanAndSd(st);
          return { name: names[c]!, n: st.n, min: st.n ? st.min : NaN, max: st.n ? st.max : NaN, mean, sd, nan: st.nan, inf: st.inf };
        });
    const rows = rowsOf(channels);
    const aText = `${s.library.files.find((f) => f.id === a.fileId)?.name ?? ''} · ${shownLayerText(layer.name, aChoice)}`;
    // a difference names both images: the panel's figures are of this pair, in this mode
    const sourceText =
      source.kind === 'a'
        ? `A: ${aText}`
        : source.kind === 'b'
          ? `B: ${ref!.file.name}`
          : `${COMPARE_MODE_LABELS[source.kind === 'difference' ? source.mode : 'off']} (A − B) · A: ${aText}, B: ${ref!.file.name}`;
    const report: StatisticsReport = {
      subject: statisticsSubject(s, source),
      path,
      gpuMs,
      wallMs: performance.now() - t0,
      source: sourceText,
      region,
      whole: !s.inspect.region,
      rows,
      missingPx,
    };
    // a file still being written is measured over the chunks there (as `exrview stats` does), and says how many; one
    // the library has given up on (cut short, no longer changing) is damaged, its missing chunks said as such
    const beingWritten = (image: typeof a | null | undefined) =>
      image && s.library.files.find((f) => f.id === image.fileId)?.rendering ? image.missing?.incomplete : undefined;
    const rendering =
      source.kind === 'b' ? beingWritten(b) : (beingWritten(a) ?? (source.kind === 'difference' ? beingWritten(b) : undefined));
    if (rendering) report.rendering = rendering;
    this.host.actions.setInspect({ stats: report });
    if (report.whole) {
      this.wholeStats = report;
      if (s.inspect.autoRange) this.autoRange(report);
      return;
    }
    // a rectangle's figures are shown; the colormap's auto range still comes from the whole image
    if (!s.inspect.autoRange) return;
    const whole = (await measure(statsOver)).channels;
    if (!this.stillCurrent(seq, s)) return;
    this.wholeStats = { ...report, region: statsOver, whole: true, rows: rowsOf(whole) };
    this.autoRange(this.wholeStats);
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

  /** What is said about the pair: alignment, data windows, resolutions, channel sets. Nothing is refused. */
  private notes(a: PartSummary, b: PartSummary, aNames: (string | null)[], bNames: (string | null)[], region: boolean): string[] {
    const out: string[] = [];
    const dispSize = (p: PartSummary) => `${p.displayWindow[2] - p.displayWindow[0] + 1}×${p.displayWindow[3] - p.displayWindow[1] + 1}`;
    if (dispSize(a) !== dispSize(b))
      out.push(
        `Resolutions differ (A ${dispSize(a)}, B ${dispSize(b)}): aligned at their display windows' top-left corners, not resampled; outside an image's data window it counts as 0.`,
      );
    else if (a.displayWindow.join() !== b.displayWindow.join())
      out.push(`Display windows differ (A ${boxText(a.displayWindow)}, B ${boxText(b.displayWindow)}): aligned at their top-left corners.`);
    if (a.dataWindow.join() !== b.dataWindow.join())
      out.push(
        `Data windows differ (A ${boxText(a.dataWindow)}, B ${boxText(b.dataWindow)}): compared over both; outside its data window an image counts as 0, as oiiotool does.`,
      );
    for (let c = 0; c < 4; c++) {
      if (aNames[c] && !bNames[c]) out.push(`B has no ${aNames[c]}: compared with ${c === 3 ? 1 : 0}.`);
      else if (!aNames[c] && bNames[c]) out.push(`A has no ${bNames[c]}: compared with ${c === 3 ? 1 : 0}.`);
    }
    if (region) out.push('Over the Shift-dragged rectangle only (Esc clears it).');
    return out;
  }
}

// The Statistics panel's figures of what is shown: the GPU's reductions over the layer on screen, the CPU reference where
// the engine has none, and for an image the page holds only reduced, level 0 measured by the host chunk by chunk
// (HostApi.levelStatistics) so its figures are of every pixel, not of the means of a reduced level.
import { CANCELLED_MESSAGE } from '../../contract/host-api.js';
import type { DecodedImage, LevelStatistics, LevelStatisticsRequest } from '../host-client/api-types.js';
import { COMPARE_MODE_LABELS, statsSourceCode, type StatsSource } from '../../shaders/compare-params.js';
import { combineChannels, measuredHoles, regionArea, regionsWithout } from '../../shaders/stats-regions.js';
import {
  emptyChannelStats,
  intersectRegion,
  meanAndSd,
  statsReference,
  type ChannelStats,
  type Region,
  type RgbaLayer,
} from '../../shaders/compare-cpu.js';
import type { Timed } from '../gpu/analysis.js';
import { regionInLevel } from '../gpu/shown-level.js';
import type { ViewEngine } from '../gpu/view-engine.js';
import { planesOf, type LayerChoice } from '../model/layer-choice.js';
import { statisticsSubject } from '../model/subject.js';
import type { StatisticsReport, StatRow } from '../state/compare-state.js';
import type { AppState } from '../state/store.js';
import { shownLayerText } from './expression-label.js';
import { slotNames } from './slot-names.js';

/** Everything one Statistics run reads: the state it started on, A and B as the page holds them, and where they lie. */
export interface StatisticsJob {
  s: AppState;
  engine: ViewEngine;
  a: DecodedImage;
  aChoice: LayerChoice;
  layerName: string;
  b: DecodedImage | null;
  bChoice: LayerChoice | null;
  source: StatsSource;
  aRegion: Region;
  bRegion: Region | null;
  union: Region;
  bShift: readonly [number, number];
  /** A and B assembled on the CPU (made once, when first needed). */
  cpu(): { a: RgbaLayer; b: RgbaLayer | null };
  /** The host's measure of level 0 (absent: the page measures what it holds). */
  levelStatistics?: (request: LevelStatisticsRequest) => Promise<LevelStatistics>;
}

export interface StatisticsFigures {
  report: StatisticsReport;
  /** Level 0's histogram bins, where the host counted them with the figures (an image the page holds reduced). */
  histogram: Uint32Array | null;
  /** The whole image's rows, for the colormap's auto range when the report is a rectangle's, and their region. */
  wholeRows(): Promise<StatRow[] | null>;
  wholeRegion: Region;
}

type Measured = { channels: ChannelStats[]; path: StatisticsReport['path']; gpuMs: number; level?: LevelStatistics };

/** The figures of `job`, or null when its host request was cancelled (a newer run took its place). */
export async function statisticsFigures(job: StatisticsJob): Promise<StatisticsFigures | null> {
  const { s, a, b, source, aRegion, bRegion, union } = job;
  const statsOver = source.kind === 'difference' ? union : source.kind === 'b' ? bRegion! : aRegion;
  const region = s.inspect.region ? intersectRegion(statsOver, s.inspect.region) : statsOver;
  const t0 = performance.now();
  // a damaged A's or B's missing pixels (chunks that could not be read) are left out of what reads them: the rest is
  // measured in rectangles
  const holes = measuredHoles(source.kind, a.missing?.regions ?? [], b?.missing?.regions ?? [], job.bShift);
  const level0 = levelZeroAsk(job);
  let hostError: string | null = null;
  const measure = async (over: Region, withHistogram: boolean): Promise<Measured | null> => {
    if (level0) {
      const whole =
        over.x0 === aRegion.x0 && over.y0 === aRegion.y0 && over.widthPx === aRegion.widthPx && over.heightPx === aRegion.heightPx;
      try {
        const { histogram, ...ask } = level0;
        const level = await job.levelStatistics!({
          ...ask,
          ...(whole ? {} : { region: { xPx: over.x0, yPx: over.y0, widthPx: over.widthPx, heightPx: over.heightPx } }),
          ...(withHistogram && histogram ? { histogram } : {}),
        });
        return { channels: slotFigures(level, job.aChoice), path: 'host', gpuMs: NaN, level };
      } catch (e) {
        if (e instanceof Error && e.message.startsWith(CANCELLED_MESSAGE)) return null;
        // the host could not measure it: the level on screen is measured instead (the panel says which, and why)
        hostError = e instanceof Error ? e.message : String(e);
      }
    }
    return measureShown(job, over, holes);
  };
  const measured = await measure(region, !s.inspect.region);
  if (!measured) return null;
  const { channels, path, gpuMs, level } = measured;
  const missingPx = level
    ? level.missingPx
    : holes.length
      ? region.widthPx * region.heightPx - regionArea(regionsWithout(region, holes))
      : 0;
  const names = slotNames(source.kind === 'b' && job.bChoice ? job.bChoice : job.aChoice);
  const rowsOf = (chs: ChannelStats[]): StatRow[] =>
    [0, 1, 2, 3]
      .filter((c) => names[c] !== null)
      .map((c) => {
        const st = chs[c]!;
        const { mean, sd } = meanAndSd(st);
        return { name: names[c]!, n: st.n, min: st.n ? st.min : NaN, max: st.n ? st.max : NaN, mean, sd, nan: st.nan, inf: st.inf };
      });
  const ref = s.compare.reference;
  const aText = `${s.library.files.find((f) => f.id === a.fileId)?.name ?? ''} · ${shownLayerText(job.layerName, job.aChoice)}`;
  // a difference names both images: the panel's figures are of this pair, in this mode
  const sourceText =
    source.kind === 'a'
      ? `A: ${aText}`
      : source.kind === 'b'
        ? `B: ${ref!.file.name}`
        : `${COMPARE_MODE_LABELS[source.kind === 'difference' ? source.mode : 'off']} (A − B) · A: ${aText}, B: ${ref!.file.name}`;
  const measuredImage = source.kind === 'b' ? b : a;
  const report: StatisticsReport = {
    subject: statisticsSubject(s, source),
    path,
    gpuMs,
    wallMs: performance.now() - t0,
    source: sourceText,
    region,
    whole: !s.inspect.region,
    rows: rowsOf(channels),
    missingPx,
  };
  const measuredOn = level ? levelZeroText(level, measuredImage) : reducedText(measuredImage, job, hostError);
  if (measuredOn) report.measuredOn = measuredOn;
  // a file still being written is measured over the chunks there (as `exrview stats` does), and says how many; one
  // the library has given up on (cut short, no longer changing) is damaged, its missing chunks said as such
  const beingWritten = (image: DecodedImage | null | undefined) =>
    image && s.library.files.find((f) => f.id === image.fileId)?.rendering ? image.missing?.incomplete : undefined;
  const rendering =
    source.kind === 'b' ? beingWritten(b) : (beingWritten(a) ?? (source.kind === 'difference' ? beingWritten(b) : undefined));
  if (rendering) report.rendering = rendering;
  return {
    report,
    histogram: level?.histogram ? Uint32Array.from(level.histogram) : null,
    wholeRegion: statsOver,
    wholeRows: async () => {
      // asked as the whole image's figures are asked (with the histogram): the host has them kept, no second pass
      const whole = await measure(statsOver, true);
      return whole ? rowsOf(whole.channels) : null;
    },
  };
}

/** The GPU's reductions over the layer on screen (in rectangles around the holes), else the CPU reference. */
async function measureShown(job: StatisticsJob, over: Region, holes: readonly Region[]): Promise<Measured> {
  const pieces = holes.length ? regionsWithout(over, holes) : [over];
  const empty = () => [0, 1, 2, 3].map(emptyChannelStats);
  const gpuRuns: Timed<ChannelStats[]>[] = [];
  for (const piece of pieces) {
    const run = await job.engine.statistics(piece, statsSourceCode(job.source)).catch(() => null);
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
  const l = job.cpu();
  // the CPU copy of an image shown reduced is that level: level 0's rectangles read in its pixels, as the GPU's do
  const scale = job.a.reduced?.factor ?? 1;
  return {
    channels: combineChannels(
      pieces.map((piece) => statsReference(l.a, l.b ?? l.a, job.source, regionInLevel(piece, scale))),
      empty,
    ),
    path: 'cpu',
    gpuMs: NaN,
  };
}

/**
 * What to ask the host for when level 0 is to be measured there: A shown reduced, measured alone, a layer of the
 * file's own channels (Y/RY/BY and expressions are computed from several planes, pixel by pixel: the page measures them).
 */
function levelZeroAsk(job: StatisticsJob): Omit<LevelStatisticsRequest, 'requestId'> | null {
  const { a, aChoice: choice } = job;
  if (!job.levelStatistics || !a.reduced || job.source.kind !== 'a' || choice.expression || choice.mode === 'yc') return null;
  const channels = planesOf(choice);
  if (!channels.length) return null;
  const [r, g, bl] = choice.mode === 'y' ? [choice.slots[0], choice.slots[0], choice.slots[0]] : choice.slots;
  const rgb = [r ?? null, g ?? null, bl ?? null] as [string | null, string | null, string | null];
  // the histogram counts pixels: only full-resolution planes (the host refuses a subsampled one)
  const full = rgb.every((name) => name === null || a.planes.some((p) => p.name === name && p.xSampling === 1 && p.ySampling === 1));
  return { fileId: a.fileId, part: a.part, channels, ...(full ? { histogram: rgb } : {}) };
}

/** The host's per-channel figures in the layer's slots (a slot with no channel: no figures). */
function slotFigures(level: LevelStatistics, choice: LayerChoice): ChannelStats[] {
  return [0, 1, 2, 3].map((c) => {
    const name = choice.slots[c];
    const f = name ? level.channels.find((ch) => ch.name === name) : undefined;
    if (!f) return emptyChannelStats();
    return { n: f.n, mean: f.mean, m2: f.m2, min: f.n ? f.min : Infinity, max: f.n ? f.max : -Infinity, nan: f.nan, inf: f.inf };
  });
}

function levelZeroText(level: LevelStatistics, image: DecodedImage | null): string {
  const r = image?.reduced;
  const size = r ? ` (${r.fullWidthPx}×${r.fullHeightPx} px)` : '';
  const t = level.timings;
  return (
    `level 0${size}, read chunk by chunk on the host: ${t.chunks} chunks in ${(t.wallMs / 1000).toFixed(1)} s ` +
    `(decode ${(t.decodeMs / 1000).toFixed(1)} s, measuring ${(t.statsMs / 1000).toFixed(1)} s over the workers)`
  );
}

/** For a reduced image measured on the page: which level the figures are of, and why not level 0. */
function reducedText(image: DecodedImage | null, job: StatisticsJob, hostError: string | null): string | null {
  const r = image?.reduced;
  if (!image || !r) return null;
  const why =
    job.source.kind !== 'a'
      ? 'a comparison is measured on the levels on screen'
      : job.aChoice.expression
        ? 'an expression is measured on the level on screen'
        : job.aChoice.mode === 'yc'
          ? 'Y/RY/BY colour is measured on the level on screen'
          : `level 0 could not be measured on the host (${hostError ?? 'no host to ask'})`;
  return `the 1/${r.factor} level on screen (${image.widthPx}×${image.heightPx} of ${r.fullWidthPx}×${r.fullHeightPx} px): ${why}`;
}

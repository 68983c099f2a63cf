// The Comparison panel's figures of A against B over a region: the GPU's metric reductions, the CPU reference where the
// engine has none, a damaged image's missing pixels left out; and what is said about the pair.
import type { DecodedImage, PartSummary } from '../host-client/api-types.js';
import { boxesAsRegions } from '../../shaders/stats-regions.js';
import { summariseAll, summariseChannel, type Region, type RgbaLayer } from '../../shaders/compare-cpu.js';
import type { ViewEngine } from '../gpu/view-engine.js';
import type { LayerChoice } from '../model/layer-choice.js';
import { comparisonSubject } from '../model/subject.js';
import type { ComparisonReport, MetricRow } from '../state/compare-state.js';
import type { AppState } from '../state/store.js';
import { measureMetrics } from './compare-metrics.js';
import { shownLayerText } from './expression-label.js';
import { pairNotes } from './pair-notes.js';
import { slotNames } from './slot-names.js';

export interface ComparisonJob {
  s: AppState;
  engine: ViewEngine;
  a: DecodedImage;
  aChoice: LayerChoice;
  layerName: string;
  part: PartSummary;
  b: DecodedImage;
  bChoice: LayerChoice;
  bPart: PartSummary;
  /** "file · layer" of B, as the panel names it. */
  bText: string;
  region: Region;
  /** B's pixels in A's pixel space, as the compare geometry aligns B. */
  bShift: readonly [number, number];
  cpu(): { a: RgbaLayer; b: RgbaLayer };
}

export async function comparisonFigures(job: ComparisonJob): Promise<ComparisonReport> {
  const { s, a, b, region, bShift } = job;
  const t0 = performance.now();
  // a damaged A's or B's missing pixels (chunks that could not be read) are left out of the figures
  const measured = await measureMetrics(
    job.engine,
    region,
    boxesAsRegions(a.missing?.regions ?? []),
    boxesAsRegions(b.missing?.regions ?? [], bShift[0], bShift[1]),
    job.cpu,
  );
  const { totals, path, gpuMs } = measured;
  const aNames = slotNames(job.aChoice),
    bNames = slotNames(job.bChoice);
  const used = [0, 1, 2, 3].filter((c) => aNames[c] !== null || bNames[c] !== null);
  const rows: MetricRow[] = used.map((c) => ({
    name: aNames[c] === bNames[c] || !bNames[c] ? (aNames[c] ?? '') : `${aNames[c] ?? '(none)'} ↔ ${bNames[c]}`,
    summary: summariseChannel(totals.channels[c]!, region),
  }));
  const notes = pairNotes(job.part, job.bPart, aNames, bNames, !!s.inspect.region);
  // an image too large for the page is compared as it is shown: its reduced level, not level 0
  for (const [name, image] of [
    ['A', a],
    ['B', b],
  ] as const)
    if (image.reduced)
      notes.push(
        `${name} is shown as a 1/${image.reduced.factor} level (${image.widthPx}×${image.heightPx} of ` +
          `${image.reduced.fullWidthPx}×${image.reduced.fullHeightPx} px): these figures compare the levels on screen, not level 0.`,
      );
  return {
    path,
    gpuMs,
    wallMs: performance.now() - t0,
    a: `${s.library.files.find((f) => f.id === a.fileId)?.name ?? a.fileId} · ${shownLayerText(job.layerName, job.aChoice)}`,
    b: job.bText,
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
    notes,
    subject: comparisonSubject(s),
  };
}

// The Comparison metrics of a pair over a region, leaving out the pixels missing in A or in B (a damaged image's chunks
// that could not be read, which read as 0): GPU reductions over the rectangles around them, combined; or the CPU
// reference where the engine has none.
import { metricsReference, type MetricsTotals, type Region, type RgbaLayer } from '../../shaders/compare-cpu.js';
import { combineMetrics, pixelsInHoles } from '../../shaders/metrics-regions.js';
import { regionsWithout } from '../../shaders/stats-regions.js';
import type { ViewEngine } from '../gpu/view-engine.js';

export interface MeasuredMetrics {
  totals: MetricsTotals;
  path: 'gpu' | 'cpu';
  /** GPU time of every reduction run (NaN on the CPU or without timestamps). */
  gpuMs: number;
  /** Pixels of the region left out: missing in A, missing in B (a pixel missing in both counts in each), either. */
  missingPxA: number;
  missingPxB: number;
  leftOutPx: number;
}

/**
 * Metrics of A against B over `region` (A's pixel space) less `aHoles` and `bHoles` (both in A's pixel space: B's moved
 * by its alignment shift). `cpuLayers` gives the pair on the CPU, asked only when the GPU cannot measure.
 */
export async function measureMetrics(
  engine: Pick<ViewEngine, 'metrics'>,
  region: Region,
  aHoles: readonly Region[],
  bHoles: readonly Region[],
  cpuLayers: () => { a: RgbaLayer; b: RgbaLayer },
): Promise<MeasuredMetrics> {
  const holes = [...aHoles, ...bHoles];
  const missing = {
    missingPxA: pixelsInHoles(region, aHoles),
    missingPxB: pixelsInHoles(region, bHoles),
    leftOutPx: pixelsInHoles(region, holes),
  };
  const pieces = holes.length ? regionsWithout(region, holes) : [region];
  const runs: MetricsTotals[] = [];
  let gpuMs = 0;
  for (const piece of pieces) {
    const run = await engine.metrics(piece, 0).catch(() => null);
    if (!run) break;
    runs.push(run.value);
    gpuMs += run.gpuMs;
  }
  if (runs.length === pieces.length)
    return { totals: holes.length ? combineMetrics(runs, region) : runs[0]!, path: 'gpu', gpuMs, ...missing };
  const l = cpuLayers();
  return { totals: metricsReference(l.a, l.b, region, 0, holes), path: 'cpu', gpuMs: NaN, ...missing };
}

// Comparison metrics that leave pixels out (a damaged A's or B's missing chunks): the region split into rectangles
// around them (stats-regions.ts), each reduced as usual (GPU or CPU), and the rectangles' figures combined into those one
// reduction over the remaining pixels gives, the largest error's place an index into the whole region.
import { addChannelMetrics, emptyChannelMetrics, type MetricsTotals, type Region } from './compare-cpu.js';
import { regionArea, regionsWithout } from './stats-regions.js';

/** An index into `piece` (row-major) as the index of the same pixel in `region`, which holds the piece. */
function indexIn(region: Region, piece: Region, at: number): number {
  const x = piece.x0 - region.x0 + (at % piece.widthPx);
  const y = piece.y0 - region.y0 + Math.floor(at / piece.widthPx);
  return y * region.widthPx + x;
}

/** The metrics of rectangles of `region` (each the totals of one reduction over its `region`) as one set over `region`. */
export function combineMetrics(pieces: readonly MetricsTotals[], region: Region): MetricsTotals {
  const channels = [0, 1, 2, 3].map(emptyChannelMetrics);
  let pixelsDiffer = 0;
  for (const piece of pieces) {
    pixelsDiffer += piece.pixelsDiffer;
    piece.channels.forEach((m, c) => addChannelMetrics(channels[c]!, m, m.maxAbs < 0 ? m.maxAt : indexIn(region, piece.region, m.maxAt)));
  }
  return { channels, pixelsDiffer, region };
}

/** Pixels of `region` that lie in any of `holes` (which may overlap). */
export const pixelsInHoles = (region: Region, holes: readonly Region[]): number =>
  holes.length ? region.widthPx * region.heightPx - regionArea(regionsWithout(region, holes)) : 0;

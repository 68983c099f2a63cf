// Statistics that leave pixels out (a damaged image's missing chunks): the region split into rectangles around them,
// each reduced as usual (GPU or CPU), and the rectangles' figures combined, exactly as one reduction would give them.

import type { ChannelStats, Region } from './compare-cpu.js';

/** `region` less the `holes` (same pixel space), as disjoint rectangles covering the rest, row bands top to bottom. */
export function regionsWithout(region: Region, holes: readonly Region[]): Region[] {
  let pieces: Region[] = region.widthPx > 0 && region.heightPx > 0 ? [region] : [];
  for (const hole of holes) pieces = pieces.flatMap((piece) => subtract(piece, hole));
  return pieces;
}

/** `r` less `hole`: the bands above and below it, and the pieces left and right of it between them. */
function subtract(r: Region, hole: Region): Region[] {
  const x1 = r.x0 + r.widthPx;
  const y1 = r.y0 + r.heightPx;
  const hx0 = Math.max(r.x0, hole.x0);
  const hy0 = Math.max(r.y0, hole.y0);
  const hx1 = Math.min(x1, hole.x0 + hole.widthPx);
  const hy1 = Math.min(y1, hole.y0 + hole.heightPx);
  if (hx0 >= hx1 || hy0 >= hy1) return [r];
  const out: Region[] = [];
  if (hy0 > r.y0) out.push({ x0: r.x0, y0: r.y0, widthPx: r.widthPx, heightPx: hy0 - r.y0 });
  if (hx0 > r.x0) out.push({ x0: r.x0, y0: hy0, widthPx: hx0 - r.x0, heightPx: hy1 - hy0 });
  if (hx1 < x1) out.push({ x0: hx1, y0: hy0, widthPx: x1 - hx1, heightPx: hy1 - hy0 });
  if (hy1 < y1) out.push({ x0: r.x0, y0: hy1, widthPx: r.widthPx, heightPx: y1 - hy1 });
  return out;
}

/** Inclusive boxes [x0, y0, x1, y1] (a decoded image's missing pixels) as regions, moved by (dx, dy) into another pixel space. */
export function boxesAsRegions(boxes: readonly (readonly number[])[], dx = 0, dy = 0): Region[] {
  return boxes.map(([x0, y0, x1, y1]) => ({ x0: x0! + dx, y0: y0! + dy, widthPx: x1! - x0! + 1, heightPx: y1! - y0! + 1 }));
}

/**
 * The pixels a statistic of `source` leaves out, in A's pixel space: A's missing pixels for A, B's (moved by B's
 * alignment shift into A's space) for B, both for a difference, which reads both images at every pixel.
 */
export function measuredHoles(
  source: 'a' | 'b' | 'difference',
  aMissing: readonly (readonly number[])[],
  bMissing: readonly (readonly number[])[],
  bShift: readonly [number, number],
): Region[] {
  const a = source === 'b' ? [] : boxesAsRegions(aMissing);
  const b = source === 'a' ? [] : boxesAsRegions(bMissing, bShift[0], bShift[1]);
  return [...a, ...b];
}

export const regionArea = (regions: readonly Region[]): number => regions.reduce((n, r) => n + r.widthPx * r.heightPx, 0);

/** Two sets' figures as one (Chan's combination of mean and M2, as the reductions combine their partials). */
export function combineStats(a: ChannelStats, b: ChannelStats): ChannelStats {
  const n = a.n + b.n;
  const both = { nan: a.nan + b.nan, inf: a.inf + b.inf, min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) };
  if (a.n === 0) return { ...b, ...both };
  if (b.n === 0) return { ...a, ...both };
  const delta = b.mean - a.mean;
  return { n, mean: a.mean * (a.n / n) + b.mean * (b.n / n), m2: a.m2 + b.m2 + delta * delta * ((a.n * b.n) / n), ...both };
}

/** Per channel, the figures of several rectangles combined. */
export function combineChannels(perRegion: readonly ChannelStats[][], empty: () => ChannelStats[]): ChannelStats[] {
  return perRegion.reduce((acc, channels) => acc.map((s, c) => combineStats(s, channels[c]!)), empty());
}

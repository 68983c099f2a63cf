// The tables the ACES 2.0 WGSL reads from the 1D LUT texture, four values an entry: the per-hue cusp and reach tables
// as the CPU has them, and a hue → interval bucket table (one load instead of a search).
import type { Aces2State } from '../ops/aces2/apply.js';
import { TABLE_FIRST, TABLE_SIZE, TABLE_UPPER_WRAP } from '../ops/aces2/tables.js';

/** Table hues a bucket may hold: a bucket texel is its first interval and the next three table hues. */
const BUCKET_HUES = 3;
const MAX_BUCKETS_PER_DEGREE = 1024;

export interface Aces2GpuTables {
  /** RGBA entries: cusp (J, M, 1/γ upper hull, hue) ×363, reach (M at i, M at i + 1) ×363, buckets. */
  values: Float32Array;
  bucketsPerDegree: number;
  bucketCount: number;
  /** Entry offsets of the reach and bucket tables (the cusp table is at 0). */
  reachAt: number;
  bucketsAt: number;
}

const cache = new WeakMap<Aces2State, Aces2GpuTables>();

export function aces2GpuTables(s: Aces2State): Aces2GpuTables {
  const cached = cache.get(s);
  if (cached) return cached;
  const g = s.gamut!;
  const buckets = hueBuckets(g.hues);
  const reachAt = TABLE_SIZE,
    bucketsAt = 2 * TABLE_SIZE;
  const values = new Float32Array((bucketsAt + buckets.count) * 4);
  for (let i = 0; i < TABLE_SIZE; i++) {
    values.set([g.cusp[i * 3]!, g.cusp[i * 3 + 1]!, g.cusp[i * 3 + 2]!, g.hues[i]!], i * 4);
    const reach = s.shared.reachM;
    values.set([reach[i]!, reach[Math.min(i + 1, TABLE_SIZE - 1)]!, 0, 0], (reachAt + i) * 4);
  }
  values.set(buckets.texels, bucketsAt * 4);
  const tables = { values, bucketsPerDegree: buckets.perDegree, bucketCount: buckets.count, reachAt, bucketsAt };
  cache.set(s, tables);
  return tables;
}

/**
 * Buckets of 1/perDegree degree, each (first interval, next three table hues): the interval of a hue h in the bucket
 * is the first one plus how many of those hues lie below h, which is lookupHueInterval's answer while no bucket holds
 * more than three table hues (one bucket a degree does for every gamut tried; finer where hues crowd). Buckets never
 * straddle a whole degree, so the search's window (from trunc(h)) is one per bucket.
 */
export function hueBuckets(hues: ArrayLike<number>): { perDegree: number; count: number; texels: Float32Array } {
  let perDegree = 1;
  while (perDegree < MAX_BUCKETS_PER_DEGREE && crowdedBucket(hues, perDegree)) perDegree *= 2;
  const count = 360 * perDegree;
  const texels = new Float32Array(count * 4);
  let first = TABLE_FIRST;
  for (let b = 0; b < count; b++) {
    const start = Math.fround(b / perDegree);
    while (first < TABLE_UPPER_WRAP && Math.fround(hues[first]!) < start) first++;
    const next = [1, 2, 3].map((k) => Math.fround(hues[Math.min(first + k - 1, TABLE_SIZE - 1)]!));
    texels.set([first, ...next], b * 4);
  }
  return { perDegree, count, texels };
}

function crowdedBucket(hues: ArrayLike<number>, perDegree: number): boolean {
  const counts = new Map<number, number>();
  for (let i = 0; i < TABLE_SIZE; i++) {
    const b = Math.floor(Math.fround(hues[i]!) * perDegree);
    const n = (counts.get(b) ?? 0) + 1;
    if (n > BUCKET_HUES) return true;
    counts.set(b, n);
  }
  return false;
}

/**
 * The interval of hue `h` through the buckets, as the WGSL computes it (the CPU twin the tests compare with the
 * search): clamped to the search's window around trunc(h), where lookupHueInterval stays even when the hue is not.
 */
export function bucketInterval(h: number, texels: Float32Array, perDegree: number, searchRange: readonly [number, number]): number {
  const count = texels.length / 4;
  const b = Math.min(count - 1, Math.max(0, Math.floor(Math.fround(h * perDegree))));
  let hi = texels[b * 4]!;
  for (let k = 1; k <= BUCKET_HUES; k++) if (h > texels[b * 4 + k]!) hi++;
  const i = TABLE_FIRST + Math.trunc(h);
  // its first probe is at i itself, its later ones above its window's low end
  const low = Math.min(Math.max(0, i + searchRange[0]) + 1, i);
  hi = Math.min(Math.max(hi, low), Math.min(TABLE_UPPER_WRAP, i + searchRange[1]));
  return Math.max(1, hi);
}

/** The interval as the WGSL picks it from the four entries i0 - 1 … i0 + 2 where the search's window allows (CPU twin). */
export function windowInterval(h: number, hues: ArrayLike<number>, searchRange: readonly [number, number]): number {
  const i = TABLE_FIRST + Math.trunc(h);
  const hue = (k: number): number => Math.fround(hues[Math.min(k, TABLE_SIZE - 1)]!);
  const past = (h > hue(i) ? 1 : 0) + (h > hue(i + 1) ? 1 : 0);
  return Math.max(1, i + Math.min(past, Math.min(TABLE_UPPER_WRAP, i + searchRange[1]) - i));
}

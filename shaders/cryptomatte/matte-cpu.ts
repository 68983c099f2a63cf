// The matte of picked IDs, on the CPU: the spec's sum of coverage over every rank whose ID is picked. The reference the GPU
// pass (matte.wgsl) is tested against, bit for bit: float32 sums in rank order, starting from zero.

import type { CryptoId } from './hash.js';

/** One rank group's four planes (ID, coverage, ID, coverage), float32, one value per pixel, rows top to bottom. */
export type RankGroupPlanes = readonly [Float32Array, Float32Array, Float32Array, Float32Array];

/** The matte over `pixelCount` pixels; `groups` in rank order (00 first). */
export function matteCpu(groups: readonly RankGroupPlanes[], picked: Iterable<CryptoId>, pixelCount: number): Float32Array<ArrayBuffer> {
  const ids = new Set(picked);
  const matte = new Float32Array(pixelCount);
  for (const planes of groups)
    for (const p of planes) if (p.length < pixelCount) throw new RangeError('a rank plane is shorter than the image');
  if (ids.size === 0) return matte;
  const bits = groups.map(([id0, , id1]) => [
    new Uint32Array(id0.buffer, id0.byteOffset, pixelCount),
    new Uint32Array(id1.buffer, id1.byteOffset, pixelCount),
  ]);
  for (let i = 0; i < pixelCount; i++) {
    let sum = 0;
    for (let g = 0; g < groups.length; g++) {
      const [, coverage0, , coverage1] = groups[g]!;
      const [id0, id1] = bits[g]!;
      if (ids.has(id0![i]!)) sum = Math.fround(sum + coverage0[i]!);
      if (ids.has(id1![i]!)) sum = Math.fround(sum + coverage1[i]!);
    }
    matte[i] = sum;
  }
  return matte;
}

/** A rank group's planes interleaved as RGBA float32, the layout the GPU pass uploads (one array layer per group). */
export function interleaveGroup(planes: RankGroupPlanes, pixelCount: number): Float32Array<ArrayBuffer> {
  const rgba = new Float32Array(pixelCount * 4);
  // copied as bits: a float through a JS number may lose a NaN's payload
  const out = new Uint32Array(rgba.buffer);
  for (let c = 0; c < 4; c++) {
    const plane = new Uint32Array(planes[c]!.buffer, planes[c]!.byteOffset, pixelCount);
    for (let i = 0; i < pixelCount; i++) out[i * 4 + c] = plane[i]!;
  }
  return rgba;
}

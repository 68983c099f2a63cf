// The Cryptomatte view on the CPU, operation for operation as view.wgsl in float32: each rank's ID coloured from its bits
// and blended by its coverage, and the picked names' matte over the beauty. The viewer's CPU path draws it; the GPU pass
// is tested against it (testing/cryptomatte/view-gpu.test.ts).

import type { CryptoId } from './hash.js';
import { matteCpu, type RankGroupPlanes } from './matte-cpu.js';
import { mixIdBits } from './colour.js';

const f = Math.fround;

/** 0 the ID view (nothing picked), 1 overlay, 2 alpha, 3 isolate: view.wgsl's ViewParams.mode. */
export type ViewModeCode = 0 | 1 | 2 | 3;

/** view.wgsl's level: (40 + byte · 215 / 255) / 255, squared, each step rounded to float32. */
function level(h: number, shift: number): number {
  const v = f(f(40 + f(f(((h >>> shift) & 0xff) * 215) / 255)) / 255);
  return f(v * v);
}

/** An ID's colour in float32, as view.wgsl's idColour; ID 0 (an unused rank) is black. */
export function idColour32(id: CryptoId): [number, number, number] {
  if (id >>> 0 === 0) return [0, 0, 0];
  const h = mixIdBits(id);
  return [level(h, 0), level(h, 8), level(h, 16)];
}

/** A NaN or infinite coverage (a broken rank pair) adds nothing, then clamped to 0..1: view.wgsl's clamp(finiteOr0(v)). */
function coverage(v: number): number {
  if (!(Math.abs(v) <= 3.4e38)) return 0;
  return Math.min(Math.max(v, 0), 1);
}

/** WGSL's mix(a, b, t) = a · (1 − t) + b · t, in float32. */
const mix = (a: number, b: number, t: number): number => f(f(a * f(1 - t)) + f(b * t));

export interface ViewInputs {
  /** The rank groups, each RGBA float32 interleaved (interleaveGroup: ID, coverage, ID, coverage), group 00 first. */
  groups: readonly Float32Array[];
  /** The picked names' matte (matteCpu), one float per pixel; may be null for the ID view. */
  matte: Float32Array | null;
  /** The beauty under the view, RGBA float32 interleaved; may be null for the ID view and alpha. */
  beauty: Float32Array | null;
  picked: readonly CryptoId[];
  mode: ViewModeCode;
  pixelCount: number;
}

/** The view as RGBA float32 interleaved (alpha 1), what view.wgsl writes into the layer's level 0. */
export function cryptomatteViewCpu({ groups, matte, beauty, picked, mode, pixelCount }: ViewInputs): Float32Array<ArrayBuffer> {
  const out = new Float32Array(pixelCount * 4);
  const ids = new Set(picked.map((id) => id >>> 0));
  const colours = new Map<number, [number, number, number]>();
  const colourOf = (id: number): [number, number, number] => {
    let c = colours.get(id);
    if (!c) colours.set(id, (c = idColour32(id)));
    return c;
  };
  const bits = groups.map((g) => new Uint32Array(g.buffer, g.byteOffset, pixelCount * 4));
  const all = [0, 0, 0];
  const chosen = [0, 0, 0];
  for (let i = 0; i < pixelCount; i++) {
    all.fill(0);
    chosen.fill(0);
    for (let g = 0; g < groups.length; g++) {
      const id0 = bits[g]![i * 4]!;
      const id1 = bits[g]![i * 4 + 2]!;
      const cov0 = coverage(groups[g]![i * 4 + 1]!);
      const cov1 = coverage(groups[g]![i * 4 + 3]!);
      const colour0 = colourOf(id0);
      const colour1 = colourOf(id1);
      const pick0 = ids.has(id0);
      const pick1 = ids.has(id1);
      for (let c = 0; c < 3; c++) {
        const c0 = f(colour0[c]! * cov0);
        const c1 = f(colour1[c]! * cov1);
        all[c] = f(all[c]! + f(c0 + c1));
        if (pick0) chosen[c] = f(chosen[c]! + c0);
        if (pick1) chosen[c] = f(chosen[c]! + c1);
      }
    }
    const m = matte ? coverage(matte[i]!) : 0;
    for (let c = 0; c < 3; c++) {
      const under = beauty ? beauty[i * 4 + c]! : 0;
      let rgb = all[c]!;
      if (mode === 1) {
        const tint = m > 0 ? f(chosen[c]! / m) : 0;
        rgb = mix(f(mix(under, all[c]!, 0.25) * f(0.45)), mix(under, tint, f(0.6)), m);
      } else if (mode === 2) rgb = m;
      else if (mode === 3) rgb = f(under * m);
      out[i * 4 + c] = rgb;
    }
    out[i * 4 + 3] = 1;
  }
  return out;
}

/** The viewer's names for the modes (renderer/gpu/cryptomatte-view.ts) and their codes. */
export const VIEW_MODE_CODE = { ids: 0, overlay: 1, alpha: 2, isolate: 3 } as const satisfies Record<string, ViewModeCode>;

/**
 * The view from interleaved rank groups alone, as the GPU drawer makes it: the picked names' matte (matteCpu) first,
 * the ID view while nothing is picked.
 */
export function cryptomatteViewOfGroups(
  groups: readonly Float32Array[],
  picked: readonly CryptoId[],
  mode: keyof typeof VIEW_MODE_CODE,
  beauty: Float32Array | null,
  pixelCount: number,
): Float32Array<ArrayBuffer> {
  let matte: Float32Array | null = null;
  if (picked.length) {
    // the planes back out of the interleaved groups, as bits (a NaN keeps its payload)
    const planes = groups.map((g) => {
      const bits = new Uint32Array(g.buffer, g.byteOffset, pixelCount * 4);
      return [0, 1, 2, 3].map((c) => {
        const plane = new Float32Array(pixelCount);
        const out = new Uint32Array(plane.buffer);
        for (let i = 0; i < pixelCount; i++) out[i] = bits[i * 4 + c]!;
        return plane;
      }) as unknown as RankGroupPlanes;
    });
    matte = matteCpu(planes, picked, pixelCount);
  }
  const code = picked.length ? VIEW_MODE_CODE[mode] : VIEW_MODE_CODE.ids;
  return cryptomatteViewCpu({ groups, matte, beauty, picked, mode: code, pixelCount });
}

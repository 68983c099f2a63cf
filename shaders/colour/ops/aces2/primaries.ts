// Primaries, white points and the RGB ↔ XYZ matrices OCIO's built-ins and ACES 2.0 derive from them (3×3, row-major, double).

export type Xy = readonly [number, number];
export interface Primaries {
  red: Xy;
  green: Xy;
  blue: Xy;
  white: Xy;
}
export type M3 = number[];
export type Adaptation = 'none' | 'bradford' | 'cat02';

const D60: Xy = [0.32168, 0.33767];
const D65: Xy = [0.3127, 0.329];
const prim = (r: Xy, g: Xy, b: Xy, w: Xy): Primaries => ({ red: r, green: g, blue: b, white: w });

export const XYZ_E = prim([1, 0], [0, 1], [0, 0], [1 / 3, 1 / 3]);
export const AP0 = prim([0.7347, 0.2653], [0, 1], [0.0001, -0.077], D60);
export const AP1 = prim([0.713, 0.293], [0.165, 0.83], [0.128, 0.044], D60);
export const REC709 = prim([0.64, 0.33], [0.3, 0.6], [0.15, 0.06], D65);
export const REC709_D60 = prim([0.64, 0.33], [0.3, 0.6], [0.15, 0.06], D60);
export const REC2020 = prim([0.708, 0.292], [0.17, 0.797], [0.131, 0.046], D65);
export const REC2020_D60 = prim([0.708, 0.292], [0.17, 0.797], [0.131, 0.046], D60);
export const P3_DCI = prim([0.68, 0.32], [0.265, 0.69], [0.15, 0.06], [0.314, 0.351]);
export const P3_D65 = prim([0.68, 0.32], [0.265, 0.69], [0.15, 0.06], D65);
export const P3_D60 = prim([0.68, 0.32], [0.265, 0.69], [0.15, 0.06], D60);

export const WHITE_XYZ = {
  d60: [0.95264607456985, 1, 1.00882518435159],
  d65: [0.95045592705167, 1, 1.08905775075988],
  dci: [0.89458689458689, 1, 0.95441595441595],
};

export function mul3(a: M3, b: M3): M3 {
  const out: number[] = [];
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++) out.push(a[r * 3]! * b[c]! + a[r * 3 + 1]! * b[3 + c]! + a[r * 3 + 2]! * b[6 + c]!);
  return out;
}

export function apply3(m: M3, v: readonly number[]): number[] {
  return [0, 1, 2].map((r) => m[r * 3]! * v[0]! + m[r * 3 + 1]! * v[1]! + m[r * 3 + 2]! * v[2]!);
}

/** Gauss-Jordan with partial pivoting, in double, as OCIO inverts its matrices. */
export function inv3(m: M3): M3 {
  const a = [...m];
  const inv = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  for (let col = 0; col < 3; col++) {
    let pivot = col;
    for (let row = col + 1; row < 3; row++) if (Math.abs(a[row * 3 + col]!) > Math.abs(a[pivot * 3 + col]!)) pivot = row;
    for (let k = 0; k < 3; k++) {
      [a[col * 3 + k], a[pivot * 3 + k]] = [a[pivot * 3 + k]!, a[col * 3 + k]!];
      [inv[col * 3 + k], inv[pivot * 3 + k]] = [inv[pivot * 3 + k]!, inv[col * 3 + k]!];
    }
    const p = a[col * 3 + col]!;
    for (let k = 0; k < 3; k++) {
      a[col * 3 + k] = a[col * 3 + k]! / p;
      inv[col * 3 + k] = inv[col * 3 + k]! / p;
    }
    for (let row = 0; row < 3; row++) {
      const f = a[row * 3 + col]!;
      if (row === col || f === 0) continue;
      for (let k = 0; k < 3; k++) {
        a[row * 3 + k] = a[row * 3 + k]! - f * a[col * 3 + k]!;
        inv[row * 3 + k] = inv[row * 3 + k]! - f * inv[col * 3 + k]!;
      }
    }
  }
  return inv;
}

export const diag3 = (s: readonly number[]): M3 => [s[0]!, 0, 0, 0, s[1]!, 0, 0, 0, s[2]!];

/** RGB → XYZ with white at Y = 1: the primaries' xyz columns scaled so that RGB (1,1,1) lands on the white. */
export function rgbToXyz(p: Primaries): M3 {
  const column = (xy: Xy): number[] => [xy[0], xy[1], 1 - xy[0] - xy[1]];
  const [r, g, b] = [column(p.red), column(p.green), column(p.blue)];
  const m = [r[0]!, g[0]!, b[0]!, r[1]!, g[1]!, b[1]!, r[2]!, g[2]!, b[2]!];
  const white = [p.white[0] / p.white[1], 1, (1 - p.white[0] - p.white[1]) / p.white[1]];
  const gains = apply3(inv3(m), white);
  return m.map((v, i) => v * gains[i % 3]!);
}

const CONE_RESPONSE: Record<'bradford' | 'cat02', M3> = {
  bradford: [0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296],
  cat02: [0.7328, 0.4296, -0.1624, -0.7036, 1.6975, 0.0061, 0.003, 0.0136, 0.9834],
};

/** The von Kries chromatic adaptation from one white (XYZ) to another. */
export function vonKries(srcXyz: readonly number[], dstXyz: readonly number[], method: 'bradford' | 'cat02'): M3 {
  const cone = CONE_RESPONSE[method];
  const src = apply3(cone, srcXyz),
    dst = apply3(cone, dstXyz);
  return mul3(inv3(cone), mul3(diag3([dst[0]! / src[0]!, dst[1]! / src[1]!, dst[2]! / src[2]!]), cone));
}

/** RGB in `src` primaries → RGB in `dst`, adapting the white unless `method` is none or the whites agree. */
export function conversionMatrix(src: Primaries, dst: Primaries, method: Adaptation, srcWhiteXyz?: number[], dstWhiteXyz?: number[]): M3 {
  const srcToXyz = rgbToXyz(src);
  const dstToXyz = rgbToXyz(dst);
  const xyzToDst = inv3(dstToXyz);
  const sameWhite = src.white[0] === dst.white[0] && src.white[1] === dst.white[1];
  if ((!srcWhiteXyz && !dstWhiteXyz && sameWhite) || method === 'none') return mul3(xyzToDst, srcToXyz);
  const srcWhite = srcWhiteXyz ?? apply3(srcToXyz, [1, 1, 1]);
  const dstWhite = dstWhiteXyz ?? apply3(dstToXyz, [1, 1, 1]);
  return mul3(xyzToDst, mul3(vonKries(srcWhite, dstWhite, method), srcToXyz));
}

export const toXyzD65 = (src: Primaries, method: Adaptation): M3 => conversionMatrix(src, XYZ_E, method, undefined, WHITE_XYZ.d65);
export const fromXyzD65 = (dst: Primaries, method: Adaptation): M3 => conversionMatrix(XYZ_E, dst, method, WHITE_XYZ.d65, undefined);

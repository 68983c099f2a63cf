// The CPU implementation of every display transform, the MIP reduction and the histogram: what export, thumbnails and
// renderer/cpu run, and the oracle the GPU path is tested against. Pure TypeScript, no dependencies.
import {
  CHECKER_DARK,
  CHECKER_LIGHT,
  CHECKER_PX,
  EXPOSED_LIMIT,
  FALSE_COLOUR_BOUNDS_EV,
  FALSE_COLOUR_COLOURS,
  HIST_BINS,
  HIST_MAX_LOG2,
  HIST_MIN_LOG2,
  INF_COLOUR,
  LUMA,
  NAN_COLOUR,
  OVER_COLOUR,
  UNDER_COLOUR,
  hdrScale,
  type DisplayParams,
  type DisplayTransform,
  type HdrOutput,
} from './display-params.js';
import { applyLut, logShaper } from './lut-apply.js';
// the ops alone: the config parser (and its YAML and XML libraries) stays out of the decode worker's bundle
import { applyOps } from './colour/apply.js';

export type Rgb = [number, number, number];

export function srgbOetf(v: number): number {
  const x = Math.min(Math.max(v, 0), 1);
  return x <= 0.0031308 ? 12.92 * x : 1.055 * Math.pow(x, 1 / 2.4) - 0.055;
}

export function rec709Oetf(v: number): number {
  const x = Math.min(Math.max(v, 0), 1);
  return x < 0.018 ? 4.5 * x : 1.099 * Math.pow(x, 0.45) - 0.099;
}

function mul3(m: readonly number[], v: Rgb): Rgb {
  // m is row-major: out[i] = sum_j m[3i+j] v[j]
  return [
    m[0]! * v[0] + m[1]! * v[1] + m[2]! * v[2],
    m[3]! * v[0] + m[4]! * v[1] + m[5]! * v[2],
    m[6]! * v[0] + m[7]! * v[1] + m[8]! * v[2],
  ];
}

const ACES_IN = [0.59719, 0.35458, 0.04823, 0.076, 0.90834, 0.01566, 0.0284, 0.13383, 0.83777];
const ACES_OUT = [1.60475, -0.53108, -0.07367, -0.10208, 1.10813, -0.00605, -0.00327, -0.07276, 1.07602];

/** ACES fitted RRT+ODT (Stephen Hill's fit), linear sRGB in → linear display out in [0, 1]. */
export function acesFitted(c: Rgb): Rgb {
  const v = mul3(ACES_IN, [Math.max(c[0], 0), Math.max(c[1], 0), Math.max(c[2], 0)]);
  const f = (x: number): number => (x * (x + 0.0245786) - 0.000090537) / (x * (0.983729 * x + 0.432951) + 0.238081);
  const o = mul3(ACES_OUT, [f(v[0]), f(v[1]), f(v[2])]);
  return [clamp01(o[0]), clamp01(o[1]), clamp01(o[2])];
}

const AGX_IN = [
  0.842479062253094, 0.0784335999999992, 0.0792237451477643, 0.0423282422610123, 0.878468636469772, 0.0791661274605434, 0.0423756549057051,
  0.0784336, 0.879142973793104,
];
const AGX_OUT = [
  1.19687900512017, -0.0980208811401368, -0.0990297440797205, -0.0528968517574562, 1.15190312990417, -0.0989611768448433,
  -0.0529716355144438, -0.0980434501171241, 1.15107367264116,
];
const AGX_MIN_EV = -12.47393;
const AGX_MAX_EV = 4.026069;

/** AgX (Sobotka; minimal fit by Wrensch): linear sRGB in → linear display out in [0, 1]. */
export function agx(c: Rgb): Rgb {
  const v = mul3(AGX_IN, [Math.max(c[0], 0), Math.max(c[1], 0), Math.max(c[2], 0)]);
  const curve = (x0: number): number => {
    const l = Math.min(Math.max(Math.log2(Math.max(x0, 1e-10)), AGX_MIN_EV), AGX_MAX_EV);
    const x = (l - AGX_MIN_EV) / (AGX_MAX_EV - AGX_MIN_EV);
    const x2 = x * x;
    const x4 = x2 * x2;
    return 15.5 * x4 * x2 - 40.14 * x4 * x + 31.96 * x4 - 6.868 * x2 * x + 0.4298 * x2 + 0.1191 * x - 0.00232;
  };
  const o = mul3(AGX_OUT, [curve(v[0]), curve(v[1]), curve(v[2])]);
  const lin = (x: number): number => (x <= 0 ? 0 : Math.pow(x, 2.2));
  return [clamp01(lin(o[0])), clamp01(lin(o[1])), clamp01(lin(o[2]))];
}

/** Khronos PBR Neutral: linear in → linear display out in [0, 1]. */
export function pbrNeutral(c: Rgb): Rgb {
  let r = Math.max(c[0], 0);
  let g = Math.max(c[1], 0);
  let b = Math.max(c[2], 0);
  const startCompression = 0.8 - 0.04;
  const desaturation = 0.15;
  const x = Math.min(r, g, b);
  const offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
  r -= offset;
  g -= offset;
  b -= offset;
  const peak = Math.max(r, g, b);
  if (peak >= startCompression) {
    const d = 1 - startCompression;
    const newPeak = 1 - (d * d) / (peak + d - startCompression);
    const s = newPeak / peak;
    r *= s;
    g *= s;
    b *= s;
    const k = 1 - 1 / (desaturation * (peak - newPeak) + 1);
    r += (newPeak - r) * k;
    g += (newPeak - g) * k;
    b += (newPeak - b) * k;
  }
  return [clamp01(r), clamp01(g), clamp01(b)];
}

export function reinhard(c: Rgb): Rgb {
  const f = (v: number): number => {
    const x = Math.max(v, 0);
    return x / (1 + x);
  };
  return [f(c[0]), f(c[1]), f(c[2])];
}

function clamp01(v: number): number {
  return Math.min(Math.max(v, 0), 1);
}

/** The display transform with its encoding: exposed linear → display-encoded values in [0, 1]. */
export function displayTransform(t: DisplayTransform, c: Rgb): Rgb {
  switch (t) {
    case 'linear':
      return [clamp01(c[0]), clamp01(c[1]), clamp01(c[2])];
    case 'srgb':
      return [srgbOetf(c[0]), srgbOetf(c[1]), srgbOetf(c[2])];
    case 'rec709':
      return [rec709Oetf(c[0]), rec709Oetf(c[1]), rec709Oetf(c[2])];
    case 'aces':
      return encodeSrgb(acesFitted(c));
    case 'agx':
      return encodeSrgb(agx(c));
    case 'pbr-neutral':
      return encodeSrgb(pbrNeutral(c));
    case 'reinhard':
      return encodeSrgb(reinhard(c));
  }
}

function encodeSrgb(c: Rgb): Rgb {
  return [srgbOetf(c[0]), srgbOetf(c[1]), srgbOetf(c[2])];
}

/** The sRGB curve without the clamp, for extended-range (HDR) canvases. */
export function srgbOetfExtended(x: number): number {
  return x <= 0.0031308 ? 12.92 * x : 1.055 * Math.pow(x, 1 / 2.4) - 0.055;
}

/** Identity up to 3/4 of the headroom, then an exponential shoulder approaching the headroom. */
export function rollOff(x: number, headroom: number): number {
  const knee = 0.75 * headroom;
  if (x <= knee) return x;
  const span = headroom - knee;
  return knee + span * (1 - Math.exp(-(x - knee) / span));
}

/** The HDR path of the display: exposed linear at paper white, optionally rolled off to the peak, no clamp. */
export function hdrPixel(v: Rgb, h: HdrOutput): Rgb {
  const { scale, headroom } = hdrScale(h);
  const one = (x: number): number => {
    const lin = Math.max(x, 0) * scale;
    return srgbOetfExtended(h.rollOff ? rollOff(lin, headroom) : lin);
  };
  return [one(v[0]), one(v[1]), one(v[2])];
}

/** Index of the false-colour zone of a luminance (0 for zero, negative or below the lowest bound). */
export function falseColourZone(luminance: number): number {
  if (!(luminance > 0)) return 0;
  const ev = Math.log2(luminance / 0.18);
  let zone = 0;
  for (const bound of FALSE_COLOUR_BOUNDS_EV) if (ev >= bound) zone += 1;
  return zone;
}

function sanitize(v: number): number {
  if (Number.isNaN(v)) return 0;
  return Math.min(Math.max(v, -EXPOSED_LIMIT), EXPOSED_LIMIT);
}

/**
 * One pixel through the whole display path, exactly as the tone-map fragment shader does it.
 * Input: the raw linear RGBA at that pixel; xPx, yPx: the canvas pixel (for the checkerboard).
 */
export function toneMapPixel(r: number, g: number, b: number, a: number, xPx: number, yPx: number, p: DisplayParams): Rgb {
  const considered: number[] =
    p.channelView === 'rgb' || p.channelView === 'luminance'
      ? [r, g, b]
      : p.channelView === 'rgba'
        ? [r, g, b, a]
        : p.channelView === 'r'
          ? [r]
          : p.channelView === 'g'
            ? [g]
            : p.channelView === 'b'
              ? [b]
              : [a];
  if (p.nanInf) {
    if (considered.some(Number.isNaN)) return [...NAN_COLOUR];
    if (considered.some((v) => v === Infinity || v === -Infinity)) return [...INF_COLOUR];
  }
  const s: Rgb = [sanitize(r), sanitize(g), sanitize(b)];
  let sel: Rgb;
  switch (p.channelView) {
    case 'r':
      sel = [s[0], s[0], s[0]];
      break;
    case 'g':
      sel = [s[1], s[1], s[1]];
      break;
    case 'b':
      sel = [s[2], s[2], s[2]];
      break;
    case 'a': {
      const x = sanitize(a);
      sel = [x, x, x];
      break;
    }
    case 'luminance': {
      const y = LUMA[0] * s[0] + LUMA[1] * s[1] + LUMA[2] * s[2];
      sel = [y, y, y];
      break;
    }
    default:
      sel = s;
  }
  const scale = Math.pow(2, p.exposureEv);
  const v: Rgb = [sanitize(sel[0] * scale + p.offset), sanitize(sel[1] * scale + p.offset), sanitize(sel[2] * scale + p.offset)];
  let col: Rgb;
  if (p.falseColour) {
    const lum = LUMA[0] * v[0] + LUMA[1] * v[1] + LUMA[2] * v[2];
    col = [...FALSE_COLOUR_COLOURS[falseColourZone(lum)]!] as Rgb;
  } else if (p.hdr) {
    col = hdrPixel(v, p.hdr);
  } else if (p.ocio) {
    // the OCIO processor replaces the view transform; gamma after it, as OCIO's viewing pipeline
    const px = Float32Array.of(v[0], v[1], v[2], 1);
    applyOps(p.ocio.ops, px);
    col = [clamp01(px[0]!), clamp01(px[1]!), clamp01(px[2]!)];
    if (p.gamma !== 1) col = col.map((x) => (x > 0 ? Math.pow(x, 1 / p.gamma) : 0)) as Rgb;
  } else if (p.lut && p.lut.shaper !== 'display') {
    // A LUT on a shaper replaces the view transform and gamma: it maps scene values to the display itself.
    const x: Rgb = p.lut.shaper === 'log' ? [logShaper(v[0]), logShaper(v[1]), logShaper(v[2])] : v;
    const o = applyLut(p.lut.lut, x[0], x[1], x[2]);
    col = [clamp01(o[0]), clamp01(o[1]), clamp01(o[2])];
  } else {
    col = displayTransform(p.transform, v);
    if (p.gamma !== 1) {
      const inv = 1 / p.gamma;
      col = [col[0] > 0 ? Math.pow(col[0], inv) : 0, col[1] > 0 ? Math.pow(col[1], inv) : 0, col[2] > 0 ? Math.pow(col[2], inv) : 0];
    }
    if (p.lut) {
      const o = applyLut(p.lut.lut, col[0], col[1], col[2]);
      col = [clamp01(o[0]), clamp01(o[1]), clamp01(o[2])];
    }
  }
  if (p.clipping) {
    if (v[0] >= 1 || v[1] >= 1 || v[2] >= 1) col = [...OVER_COLOUR];
    else if (v[0] <= 0 && v[1] <= 0 && v[2] <= 0) col = [...UNDER_COLOUR];
  }
  if (p.channelView === 'rgba') {
    const alpha = clamp01(sanitize(a));
    const checker = (Math.floor(xPx / CHECKER_PX) + Math.floor(yPx / CHECKER_PX)) % 2 === 0 ? CHECKER_DARK : CHECKER_LIGHT;
    col = [checker + (col[0] - checker) * alpha, checker + (col[1] - checker) * alpha, checker + (col[2] - checker) * alpha];
  }
  return col;
}

/** Tone-maps interleaved linear RGBA (float) to 8-bit RGBA (alpha 255), for export and CPU thumbnails. */
export function toneMapImage(
  rgba: ArrayLike<number>,
  widthPx: number,
  heightPx: number,
  p: DisplayParams,
  out?: Uint8ClampedArray,
): Uint8ClampedArray {
  const dst = out ?? new Uint8ClampedArray(widthPx * heightPx * 4);
  for (let y = 0; y < heightPx; y++) {
    for (let x = 0; x < widthPx; x++) {
      const i = (y * widthPx + x) * 4;
      const c = toneMapPixel(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!, rgba[i + 3]!, x, y, p);
      dst[i] = Math.round(c[0] * 255);
      dst[i + 1] = Math.round(c[1] * 255);
      dst[i + 2] = Math.round(c[2] * 255);
      dst[i + 3] = 255;
    }
  }
  return dst;
}

/** Size of MIP level n+1 from level n. */
export function nextLevelSize(n: number): number {
  return Math.max(1, Math.floor(n / 2));
}

export function mipLevelCount(widthPx: number, heightPx: number): number {
  return Math.floor(Math.log2(Math.max(widthPx, heightPx))) + 1;
}

/** Bytes of an rgba32float MIP chain over this size (what a layer's texture takes on the GPU). */
export function mipChainBytes(widthPx: number, heightPx: number): number {
  let w = widthPx,
    h = heightPx,
    total = 0;
  for (let l = 0; l < mipLevelCount(widthPx, heightPx); l++) {
    total += w * h * 16;
    w = nextLevelSize(w);
    h = nextLevelSize(h);
  }
  return total;
}

/**
 * One MIP reduction in linear light, as the compute shader does it in f32: output (x, y) is the box average of
 * source (2x..2x+1, 2y..2y+1), edge-clamped; each term is scaled by 1/4 before summing so finite inputs never overflow.
 */
export function mipReduce(src: Float32Array, widthPx: number, heightPx: number): { data: Float32Array; widthPx: number; heightPx: number } {
  const w = nextLevelSize(widthPx);
  const h = nextLevelSize(heightPx);
  const out = new Float32Array(w * h * 4);
  const f = Math.fround;
  for (let y = 0; y < h; y++) {
    const y0 = Math.min(2 * y, heightPx - 1);
    const y1 = Math.min(2 * y + 1, heightPx - 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.min(2 * x, widthPx - 1);
      const x1 = Math.min(2 * x + 1, widthPx - 1);
      for (let c = 0; c < 4; c++) {
        const a = src[(y0 * widthPx + x0) * 4 + c]!;
        const b = src[(y0 * widthPx + x1) * 4 + c]!;
        const d = src[(y1 * widthPx + x0) * 4 + c]!;
        const e = src[(y1 * widthPx + x1) * 4 + c]!;
        out[(y * w + x) * 4 + c] = f(f(f(f(a * 0.25) + f(b * 0.25)) + f(d * 0.25)) + f(e * 0.25));
      }
    }
  }
  return { data: out, widthPx: w, heightPx: h };
}

/** Bin of a linear value on the histogram's log2 scale; -1 for non-finite values (not counted). */
export function histogramBin(v: number): number {
  if (!Number.isFinite(v)) return -1;
  if (v <= 0) return 0;
  const t = (Math.log2(v) - HIST_MIN_LOG2) / (HIST_MAX_LOG2 - HIST_MIN_LOG2);
  return Math.min(Math.max(Math.floor(t * HIST_BINS), 0), HIST_BINS - 1);
}

/** Histograms of interleaved RGBA: [luminance, R, G, B] × HIST_BINS counts, luminance by Rec.709 weights in f32. */
export function histogram(rgba: ArrayLike<number>, pixelCount: number): Uint32Array {
  const out = new Uint32Array(4 * HIST_BINS);
  for (let i = 0; i < pixelCount; i++) countHistogramPixel(out, rgba[i * 4]!, rgba[i * 4 + 1]!, rgba[i * 4 + 2]!);
  return out;
}

/** Counts one pixel into [luminance, R, G, B] × HIST_BINS bins, as histogram-bins.wgsl's countPixel. */
export function countHistogramPixel(out: Uint32Array, r: number, g: number, b: number): void {
  const f = Math.fround;
  const y = f(f(f(f(LUMA[0]) * r) + f(f(LUMA[1]) * g)) + f(f(LUMA[2]) * b));
  const values = [y, r, g, b];
  for (let k = 0; k < 4; k++) {
    const bin = histogramBin(values[k]!);
    if (bin >= 0) out[k * HIST_BINS + bin]! += 1;
  }
}

/** IEEE binary16 bits → number. */
export function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** binary16 bits of a number, rounded to nearest even; overflow gives ±Inf, NaN stays NaN. */
export function floatToHalf(v: number): number {
  f32[0] = v;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 112; // rebias 127 → 15
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    // subnormal half: the 24-bit significand shifted down, rounded
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rem = mant & ((1 << shift) - 1),
      halfway = 1 << (shift - 1);
    if (rem > halfway || (rem === halfway && h & 1)) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  // a carry out of the mantissa moves the exponent up, as it should (to Inf past the largest half)
  if (rem > 0x1000 || (rem === 0x1000 && h & 1)) h++;
  return sign | h;
}

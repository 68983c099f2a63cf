// Luminance/chroma (Y, RY, BY) and luminance-only files to RGBA halves, exactly as OpenEXR's RgbaInputFile does it.
//
// RgbaInputFile (ImfRgbaFile.cpp, ImfRgbaYca.cpp) works in half precision with float arithmetic in
// between: every step below rounds where it rounds, in the same order, so results match it bit for
// bit. Math.fround marks each float32 operation.

import type { Chromaticities } from './attributes.js';
import { floatToHalf, HALF_TO_FLOAT } from './core/half.js';
import type { DecodedChannel, DecodedImage } from './reader.js';
import { floorDiv } from './core/sampling.js';

const f = Math.fround;
/** Taps of the chroma filters (27 wide, every other input is a zero the filter skips). */
const N = 27;
const N2 = 13;
const RECONSTRUCT = [
  0.002128, -0.00754, 0.019597, -0.043159, 0.087929, -0.186077, 0.627123, 0.627123, -0.186077, 0.087929, -0.043159, 0.019597, -0.00754,
  0.002128,
].map(f);
const HALF_ONE = 0x3c00;
const HALF_HALF = 0x3800;
const HALF_MAX = 65504;

/** Rec. 709 primaries and D65, OpenEXR's default chromaticities. */
export const DEFAULT_CHROMATICITIES: Chromaticities = {
  red: [f(0.64), f(0.33)],
  green: [f(0.3), f(0.6)],
  blue: [f(0.15), f(0.06)],
  white: [f(0.3127), f(0.329)],
};

export type LumaChromaKind = 'luminanceChroma' | 'luminance';

/** Whether a channel set (with an optional layer prefix like "left.") is luminance/chroma, luminance only, or neither. */
export function lumaChromaKind(channelNames: readonly string[], prefix = ''): LumaChromaKind | null {
  const has = (name: string) => channelNames.includes(prefix + name);
  if (has('RY') || has('BY')) return 'luminanceChroma';
  if (has('Y')) return 'luminance';
  return null;
}

/** Luminance weights (yw) of the RGB primaries: row Y of OpenEXR's RGBtoXYZ matrix, normalised, in float32. */
export function luminanceWeights(chromaticities: Chromaticities | null): [number, number, number] {
  const c = chromaticities ?? DEFAULT_CHROMATICITIES;
  const [rx, ry] = c.red.map(f) as [number, number];
  const [gx, gy] = c.green.map(f) as [number, number];
  const [bx, by] = c.blue.map(f) as [number, number];
  const [wx, wy] = c.white.map(f) as [number, number];
  const Y = 1;
  const X = f(f(wx * Y) / wy);
  const Z = f(f(f(f(1 - wx) - wy) * Y) / wy);
  const XZ = f(X + Z);
  const d = f(f(f(rx * f(by - gy)) + f(bx * f(gy - ry))) + f(gx * f(ry - by)));
  const SrN = f(f(f(X * f(by - gy)) - f(gx * f(f(Y * f(by - 1)) + f(by * XZ)))) + f(bx * f(f(Y * f(gy - 1)) + f(gy * XZ))));
  const SgN = f(f(f(X * f(ry - by)) + f(rx * f(f(Y * f(by - 1)) + f(by * XZ)))) - f(bx * f(f(Y * f(ry - 1)) + f(ry * XZ))));
  const SbN = f(f(f(X * f(gy - ry)) - f(rx * f(f(Y * f(gy - 1)) + f(gy * XZ)))) + f(gx * f(f(Y * f(ry - 1)) + f(ry * XZ))));
  const m01 = f(f(SrN / d) * ry);
  const m11 = f(f(SgN / d) * gy);
  const m21 = f(f(SbN / d) * by);
  const sum = f(f(m01 + m11) + m21);
  return [f(m01 / sum), f(m11 / sum), f(m21 / sum)];
}

/** A channel's samples as halves, converted the way OpenEXR fills a HALF slice from FLOAT or UINT data. */
function asHalf(channel: DecodedChannel): Uint16Array {
  if (channel.pixelType === 'half') return channel.data as Uint16Array;
  const out = new Uint16Array(channel.data.length);
  const isUint = channel.pixelType === 'uint';
  for (let i = 0; i < out.length; i++) {
    const v = channel.data[i]!;
    if (isUint) out[i] = v > HALF_MAX ? 0x7c00 : floatToHalf(f(v));
    else out[i] = v > HALF_MAX ? 0x7c00 : v < -HALF_MAX ? 0xfc00 : floatToHalf(v);
  }
  return out;
}

/** One line of pixels as halves (RgbaInputFile's Rgba: r and b hold RY and BY until converted). */
interface Line {
  r: Uint16Array;
  g: Uint16Array;
  b: Uint16Array;
  a: Uint16Array;
}

function newLine(widthPx: number): Line {
  return { r: new Uint16Array(widthPx), g: new Uint16Array(widthPx), b: new Uint16Array(widthPx), a: new Uint16Array(widthPx) };
}

/**
 * The image as RGBA halves (channels R, G, B, A), as RgbaInputFile reads it: luminance/chroma is
 * reconstructed (chroma filtered horizontally, then vertically, converted with the luminance weights
 * of `chromaticities`, then over-saturated pixels toned down); luminance alone becomes grey. The image
 * must hold the whole data window (the filters clamp at its edges) and every Y/RY/BY/A channel.
 */
export function lumaChromaToRgba(image: DecodedImage, chromaticities: Chromaticities | null, prefix = ''): DecodedImage {
  const find = (name: string) => image.channels.find((c) => c.name === prefix + name) ?? null;
  const kind = lumaChromaKind(
    image.channels.map((c) => c.name),
    prefix,
  );
  if (!kind) throw new Error(`no ${prefix}Y, ${prefix}RY or ${prefix}BY channel to convert`);
  const widthPx = image.widthPx;
  const heightPx = image.heightPx;
  const yChannel = find('Y');
  const aChannel = find('A');
  for (const ch of [yChannel, aChannel]) {
    if (ch && (ch.xSampling !== 1 || ch.ySampling !== 1))
      throw new Error(`channel ${ch.name} is subsampled; RgbaInputFile reads it only at full resolution`);
  }
  const Y = yChannel ? asHalf(yChannel) : null;
  const A = aChannel ? asHalf(aChannel) : null;
  const out = {
    R: new Uint16Array(widthPx * heightPx),
    G: new Uint16Array(widthPx * heightPx),
    B: new Uint16Array(widthPx * heightPx),
    A: new Uint16Array(widthPx * heightPx),
  };

  if (kind === 'luminance') {
    for (let i = 0; i < widthPx * heightPx; i++) {
      out.R[i] = out.G[i] = out.B[i] = Y![i]!;
      out.A[i] = A ? A[i]! : HALF_ONE;
    }
  } else {
    const ry = find('RY');
    const by = find('BY');
    for (const ch of [ry, by]) {
      if (ch && (ch.xSampling !== 2 || ch.ySampling !== 2))
        throw new Error(`chroma channel ${ch.name} has sampling ${ch.xSampling}x${ch.ySampling}; RgbaInputFile reads only 2x2`);
    }
    const reader = new YcaLines(image, Y, A, ry ? asHalf(ry) : null, by ? asHalf(by) : null, ry?.widthSamples ?? by!.widthSamples);
    const yw = luminanceWeights(chromaticities);
    const rgb = new Map<number, Line>();
    const rgbLine = (t: number): Line => {
      let line = rgb.get(t);
      if (!line) {
        line = reader.rgbBeforeSaturationFix(t, yw);
        rgb.set(t, line);
        rgb.delete(t - 3);
      }
      return line;
    };
    const fixed = newLine(widthPx);
    for (let row = 0; row < heightPx; row++) {
      const y = image.region.yMin + row;
      fixSaturation(yw, widthPx, rgbLine(y - 1), rgbLine(y), rgbLine(y + 1), fixed);
      const at = row * widthPx;
      out.R.set(fixed.r, at);
      out.G.set(fixed.g, at);
      out.B.set(fixed.b, at);
      out.A.set(fixed.a, at);
    }
  }
  const plane = (name: string, data: Uint16Array): DecodedChannel => ({
    name,
    pixelType: 'half',
    xSampling: 1,
    ySampling: 1,
    widthSamples: widthPx,
    heightSamples: heightPx,
    data,
  });
  return { ...image, channels: [plane('R', out.R), plane('G', out.G), plane('B', out.B), plane('A', out.A)] };
}

/** The luminance/chroma lines of an image, read as FromYca reads them, with its edge clamping. */
class YcaLines {
  private readonly cache = new Map<number, Line>();
  private readonly widthPx: number;
  private readonly yMin: number;
  private readonly yMax: number;

  constructor(
    private readonly image: DecodedImage,
    private readonly Y: Uint16Array | null,
    private readonly A: Uint16Array | null,
    private readonly RY: Uint16Array | null,
    private readonly BY: Uint16Array | null,
    private readonly chromaWidth: number,
  ) {
    this.widthPx = image.widthPx;
    this.yMin = image.region.yMin;
    this.yMax = image.region.yMax;
  }

  /**
   * readYCAScanLine: line y (clamped: above the image to the first line, below it to the second
   * last, which keeps an even line even), chroma of even lines reconstructed horizontally.
   */
  line(y: number): Line {
    const clamped = y < this.yMin ? this.yMin : y > this.yMax ? this.yMax - 1 : y;
    let line = this.cache.get(clamped);
    if (line) return line;
    const w = this.widthPx;
    const row = clamped - this.yMin;
    line = newLine(w);
    for (let x = 0; x < w; x++) {
      line.g[x] = this.Y ? this.Y[row * w + x]! : HALF_HALF;
      line.a[x] = this.A ? this.A[row * w + x]! : HALF_ONE;
    }
    if ((clamped & 1) === 0) {
      // even lines carry chroma at even x; a missing RY or BY reads as 0
      const chromaRow = floorDiv(clamped, 2) - floorDiv(this.yMin, 2);
      const padded = { r: new Uint16Array(w + N - 1), b: new Uint16Array(w + N - 1) };
      for (let x = 0; x < w; x += 2) {
        const c = chromaRow * this.chromaWidth + x / 2;
        padded.r[N2 + x] = this.RY ? this.RY[c]! : 0;
        padded.b[N2 + x] = this.BY ? this.BY[c]! : 0;
      }
      // padTmpBuf: the first pixel to the left, the second last to the right
      for (let i = 0; i < N2; i++) {
        padded.r[i] = padded.r[N2]!;
        padded.b[i] = padded.b[N2]!;
        padded.r[w + N2 + i] = padded.r[w + N2 - 2]!;
        padded.b[w + N2 + i] = padded.b[w + N2 - 2]!;
      }
      for (let j = 0; j < w; j++) {
        if (j & 1) {
          line.r[j] = floatToHalf(filter(padded.r, j));
          line.b[j] = floatToHalf(filter(padded.b, j));
        } else {
          line.r[j] = padded.r[N2 + j]!;
          line.b[j] = padded.b[N2 + j]!;
        }
      }
    }
    this.cache.set(clamped, line);
    if (this.cache.size > 2 * N) this.cache.delete(this.cache.keys().next().value!);
    return line;
  }

  /** Line t in RGB before fixSaturation: even lines convert as read; odd lines take chroma filtered from the even lines around them. */
  rgbBeforeSaturationFix(t: number, yw: [number, number, number]): Line {
    const w = this.widthPx;
    const out = newLine(w);
    if ((t & 1) === 0) {
      ycaToRgba(yw, this.line(t), out);
      return out;
    }
    const taps: Line[] = [];
    for (let k = 0; k < N; k += 2) if (k !== N2) taps.push(this.line(t - N2 + k));
    const center = this.line(t);
    const yca = newLine(w);
    yca.g.set(center.g);
    yca.a.set(center.a);
    for (const [source, target] of [
      [taps.map((l) => l.r), yca.r],
      [taps.map((l) => l.b), yca.b],
    ] as const) {
      const sum = new Float32Array(w);
      for (let k = 0; k < source.length; k++) {
        const c = RECONSTRUCT[k]!;
        const tap = source[k]!;
        // float32 storage rounds each partial sum, as the C++ float arithmetic does
        if (k === 0) for (let i = 0; i < w; i++) sum[i] = HALF_TO_FLOAT[tap[i]!]! * c;
        else for (let i = 0; i < w; i++) sum[i] = sum[i]! + f(HALF_TO_FLOAT[tap[i]!]! * c);
      }
      for (let i = 0; i < w; i++) target[i] = floatToHalf(sum[i]!);
    }
    ycaToRgba(yw, yca, out);
    return out;
  }
}

/** reconstructChromaHoriz at odd j: the 14 even neighbours of padded position N2 + j. */
function filter(padded: Uint16Array, j: number): number {
  let sum = 0;
  let k = 0;
  for (let d = -13; d <= 13; d += 2, k++) {
    const term = f(HALF_TO_FLOAT[padded[N2 + j + d]!]! * RECONSTRUCT[k]!);
    sum = k === 0 ? term : f(sum + term);
  }
  return sum;
}

function ycaToRgba(yw: [number, number, number], yca: Line, out: Line): void {
  for (let i = 0; i < yca.g.length; i++) {
    const ryBits = yca.r[i]!;
    const byBits = yca.b[i]!;
    const yBits = yca.g[i]!;
    out.a[i] = yca.a[i]!;
    // chroma of exactly zero (either sign): grey, copied without rounding
    if ((ryBits & 0x7fff) === 0 && (byBits & 0x7fff) === 0) {
      out.r[i] = out.g[i] = out.b[i] = yBits;
      continue;
    }
    const Y = HALF_TO_FLOAT[yBits]!;
    const r = f(f(HALF_TO_FLOAT[ryBits]! + 1) * Y);
    const b = f(f(HALF_TO_FLOAT[byBits]! + 1) * Y);
    const g = f(f(f(Y - f(r * yw[0])) - f(b * yw[2])) / yw[1]);
    out.r[i] = floatToHalf(r);
    out.g[i] = floatToHalf(g);
    out.b[i] = floatToHalf(b);
  }
}

/** std::max / std::min on halves or floats: NaN-handling as `a < b ? b : a`. */
const max = (a: number, b: number) => (a < b ? b : a);
const min = (a: number, b: number) => (b < a ? b : a);

function saturation(line: Line, i: number): number {
  const r = HALF_TO_FLOAT[line.r[i]!]!;
  const g = HALF_TO_FLOAT[line.g[i]!]!;
  const b = HALF_TO_FLOAT[line.b[i]!]!;
  const rgbMax = max(r, max(g, b));
  const rgbMin = min(r, min(g, b));
  return rgbMax > 0 ? f(1 - f(rgbMin / rgbMax)) : 0;
}

/** Tones down pixels much more saturated than their diagonal neighbours (RgbaYca::fixSaturation). */
function fixSaturation(yw: [number, number, number], n: number, above: Line, center: Line, below: Line, out: Line): void {
  let a2 = saturation(above, 0);
  let a1 = a2;
  let b2 = saturation(below, 0);
  let b1 = b2;
  for (let i = 0; i < n; i++) {
    const a0 = a1;
    a1 = a2;
    const b0 = b1;
    b1 = b2;
    if (i < n - 1) {
      a2 = saturation(above, i + 1);
      b2 = saturation(below, i + 1);
    }
    const sMean = min(1, f(0.25 * f(f(f(a0 + a2) + b0) + b2)));
    const s = saturation(center, i);
    out.a[i] = center.a[i]!;
    if (s > sMean) {
      const sMax = min(1, f(1 - f(f(1 - sMean) * 0.25)));
      if (s > sMax) {
        desaturate(center, i, f(sMax / s), yw, out);
        continue;
      }
    }
    out.r[i] = center.r[i]!;
    out.g[i] = center.g[i]!;
    out.b[i] = center.b[i]!;
  }
}

function desaturate(line: Line, i: number, factor: number, yw: [number, number, number], out: Line): void {
  const r = HALF_TO_FLOAT[line.r[i]!]!;
  const g = HALF_TO_FLOAT[line.g[i]!]!;
  const b = HALF_TO_FLOAT[line.b[i]!]!;
  const rgbMax = max(r, max(g, b));
  let outR = floatToHalf(max(f(rgbMax - f(f(rgbMax - r) * factor)), 0));
  let outG = floatToHalf(max(f(rgbMax - f(f(rgbMax - g) * factor)), 0));
  let outB = floatToHalf(max(f(rgbMax - f(f(rgbMax - b) * factor)), 0));
  const luminance = (x: number, y: number, z: number) => f(f(f(x * yw[0]) + f(y * yw[1])) + f(z * yw[2]));
  const yIn = luminance(r, g, b);
  const yOut = luminance(HALF_TO_FLOAT[outR]!, HALF_TO_FLOAT[outG]!, HALF_TO_FLOAT[outB]!);
  if (yOut > 0) {
    const scale = f(yIn / yOut);
    outR = floatToHalf(f(HALF_TO_FLOAT[outR]! * scale));
    outG = floatToHalf(f(HALF_TO_FLOAT[outG]! * scale));
    outB = floatToHalf(f(HALF_TO_FLOAT[outB]! * scale));
  }
  out.r[i] = outR;
  out.g[i] = outG;
  out.b[i] = outB;
}

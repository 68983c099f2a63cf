// Per-channel statistics of a decoded part, as `exrview stats --json` prints them (DESIGN.md's shape).

import { HALF_TO_FLOAT } from './core/half.js';
import { sampleCount } from './core/sampling.js';
import type { Box2i } from './core/types.js';
import type { PartInfo } from './part.js';
import type { DecodedChannel } from './reader.js';

export interface ChannelStats {
  name: string;
  pixelType: string;
  xSampling: number;
  ySampling: number;
  min?: number | null;
  max?: number | null;
  mean?: number | null;
  nanCount?: number;
  infCount?: number;
}

export interface PartStats {
  name: string;
  type: string;
  compression: string;
  dataWindow: [number, number, number, number];
  displayWindow: [number, number, number, number];
  channels: ChannelStats[];
}

/**
 * min/max/mean over finite values (as float32, summed in double like the reference), NaN and Inf counted apart; samples
 * where `skip` holds 1 (missingSamples: chunks not written yet) are left out.
 */
export function channelStats(
  channel: DecodedChannel,
  skip?: Uint8Array,
): {
  min: number | null;
  max: number | null;
  mean: number | null;
  nanCount: number;
  infCount: number;
} {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let n = 0;
  let nanCount = 0;
  let infCount = 0;
  const data = channel.data;
  const length = data.length;
  if (channel.pixelType === 'half') {
    const table = HALF_TO_FLOAT;
    for (let i = 0; i < length; i++) {
      if (skip !== undefined && skip[i] === 1) continue;
      const bits = data[i]!;
      if ((bits & 0x7c00) === 0x7c00) {
        if (bits & 0x3ff) nanCount++;
        else infCount++;
        continue;
      }
      const v = table[bits]!;
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
      n++;
    }
  } else {
    const isUint = channel.pixelType === 'uint';
    for (let i = 0; i < length; i++) {
      if (skip !== undefined && skip[i] === 1) continue;
      const v = isUint ? Math.fround(data[i]!) : data[i]!;
      if (v !== v) {
        nanCount++;
        continue;
      }
      if (v === Infinity || v === -Infinity) {
        infCount++;
        continue;
      }
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
      n++;
    }
  }
  return n
    ? { min: nine(min), max: nine(max), mean: nine(sum / n), nanCount, infCount }
    : { min: null, max: null, mean: null, nanCount, infCount };
}

/** One byte a sample of `channel` (decoded over `region`, absolute), 1 where its pixel lies in one of `boxes`. */
export function missingSamples(channel: DecodedChannel, region: Box2i, boxes: readonly Box2i[]): Uint8Array {
  const { xSampling: xs, ySampling: ys, widthSamples } = channel;
  const mask = new Uint8Array(widthSamples * channel.heightSamples);
  // a sample's index along an axis: how many sampled coordinates of the region come before its pixel
  const before = (s: number, first: number, at: number) => sampleCount(s, first, at - 1);
  for (const b of boxes) {
    const x0 = before(xs, region.xMin, Math.max(b.xMin, region.xMin));
    const x1 = before(xs, region.xMin, Math.min(b.xMax, region.xMax) + 1);
    const y0 = before(ys, region.yMin, Math.max(b.yMin, region.yMin));
    const y1 = before(ys, region.yMin, Math.min(b.yMax, region.yMax) + 1);
    for (let row = y0; row < y1; row++) mask.fill(1, row * widthSamples + x0, row * widthSamples + Math.max(x0, x1));
  }
  return mask;
}

/**
 * 9 significant digits, as the reference prints with C's %.9g: correctly rounded from the exact
 * binary value, ties to even (JavaScript's toPrecision breaks ties upwards).
 */
export function nine(v: number): number {
  if (v === 0 || !Number.isFinite(v)) return v;
  const exact = Math.abs(v).toExponential(29); // d.ddd…e±x, exact for any tie at the 10th digit
  const digits = exact[0]! + exact.slice(2, 31);
  const exponent = Number(exact.slice(exact.indexOf('e') + 1));
  if (digits[9] === '5' && /^0*$/.test(digits.slice(10))) {
    let n = Number(digits.slice(0, 9));
    if (n % 2 === 1) n += 1;
    return Math.sign(v) * Number(`${n}e${exponent - 8}`);
  }
  return Number(v.toPrecision(9));
}

export function partSummary(part: PartInfo): Omit<PartStats, 'channels'> {
  const box = (b: { xMin: number; yMin: number; xMax: number; yMax: number }): [number, number, number, number] => [
    b.xMin,
    b.yMin,
    b.xMax,
    b.yMax,
  ];
  return {
    name: part.name,
    type: part.type,
    compression: part.compression,
    dataWindow: box(part.dataWindow),
    displayWindow: box(part.displayWindow),
  };
}

/** A number as C's printf("%.9g") writes it: the reference's text, not just its value. */
export function formatG9(v: number): string {
  if (!Number.isFinite(v)) return 'null';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const rounded = nine(v);
  const exp = Number(rounded.toExponential(8).split('e')[1]);
  if (exp < -4 || exp >= 9) {
    const [mantissa, e] = rounded.toExponential(8).split('e') as [string, string];
    const m = mantissa.includes('.') ? mantissa.replace(/0+$/, '').replace(/\.$/, '') : mantissa;
    const sign = e.startsWith('-') ? '-' : '+';
    return `${m}e${sign}${e.replace(/^[+-]/, '').padStart(2, '0')}`;
  }
  const fixed = rounded.toFixed(Math.max(0, 8 - exp));
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

/** JSON with every non-integer statistic written as %.9g, byte for byte like the reference tool. */
export function statsJson(value: unknown): string {
  const marks: string[] = [];
  const json = JSON.stringify(value, (key, v) => {
    if ((key === 'min' || key === 'max' || key === 'mean') && typeof v === 'number') {
      marks.push(formatG9(v));
      return `\u0000${marks.length - 1}\u0000`;
    }
    return v;
  });
  return json.replace(/"\\u0000(\d+)\\u0000"/g, (_, i: string) => marks[Number(i)]!);
}

// A thumbnail finished from its bands' sums: added up, divided by each bin's sample count, clamped and rounded to half
// RGBA (in the native kernels where they loaded, thumb_finish.c, the same arithmetic; else here), and tone-mapped.

import { nativeKernels } from '../../exr/compression/native.js';
import { floatToHalf, type Level, type PartInfo } from '../../exr/index.js';
import { bandSums, rgba8Of, rgbaHalfOf, wholeSums, type ThumbnailSumsLayout } from './band-sums.js';
import { binCounts, binMeans } from './binned-decode.js';
import { HALF_MAX } from './bins.js';
import type { ThumbnailChannels } from './channels.js';
import { toneMapHalfRgba, type ToneMapView } from './tone-map.js';

/** What a thumbnail is finished from: its level, its size, the channels it shows and those its sums are of (`names`). */
export interface ThumbnailShape {
  part: PartInfo;
  level: Level;
  choice: ThumbnailChannels;
  names: readonly string[];
  widthPx: number;
  heightPx: number;
}

/**
 * Finishes the thumbnail in its job's shared buffer: the whole sums and the half RGBA are written there. `native`
 * false runs the TypeScript (the fallback, and the tests' oracle).
 */
export function finishInBuffer(shape: ThumbnailShape, buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout, native = nativeKernels !== null): Uint16Array {
  const { part, level, choice, names, widthPx, heightPx } = shape;
  const out = rgbaHalfOf(buffer, layout);
  if (!native || !nativeKernels) {
    const bands = layout.bands.map((slot, b) => ({ tyMin: slot.tyMin, sums: bandSums(buffer, layout, b) }));
    return composeThumbnail(shape, bands, wholeSums(buffer, layout), out);
  }
  const { countX, countY } = binCounts(part, level, names, widthPx, heightPx);
  const bands = new Int32Array(layout.bands.length * 3);
  layout.bands.forEach((slot, b) => bands.set([slot.byteOffset / 8, slot.tyMin, slot.length], 3 * b));
  const channelOf = (name: string | null) => (name === null ? -1 : names.indexOf(name));
  const [r, g, b] = choice.kind === 'rgb' ? [choice.r, choice.g, choice.b] : choice.kind === 'grey' ? [choice.channel, choice.channel, choice.channel] : [choice.y, choice.y, choice.y];
  const rgba = Int32Array.from([channelOf(r), channelOf(g), channelOf(b), channelOf(choice.a)]);
  nativeKernels.finishThumbnail(new Float64Array(buffer), layout.countersBytes / 8, bands, names.length, widthPx, heightPx, countX, countY, rgba, out);
  return out;
}

/**
 * The thumbnail made in its job's shared buffer, by the worker whose band came in last or by the main thread's
 * fallback: finishInBuffer, then with a view its 8-bit RGBA into the layout's region. The time each took.
 */
export function makeInBuffer(shape: ThumbnailShape, buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout, view?: ToneMapView): { finishMs: number; toneMapMs: number } {
  const t0 = performance.now();
  const rgbaHalf = finishInBuffer(shape, buffer, layout);
  const t1 = performance.now();
  if (view) toneMapHalfRgba(rgbaHalf, shape.widthPx, shape.heightPx, view.params, view.memo ?? undefined, rgba8Of(buffer, layout));
  return { finishMs: t1 - t0, toneMapMs: performance.now() - t1 };
}

/**
 * A thumbnail's half RGBA from its bands' sums (one array per channel of `names`): added up in `whole` (neighbouring
 * bands share their edge bin rows), divided, then converted into `out`.
 */
export function composeThumbnail(
  shape: ThumbnailShape,
  bands: readonly { tyMin: number; sums: readonly Float64Array[] }[],
  whole: readonly Float64Array[],
  out: Uint16Array = new Uint16Array(shape.widthPx * shape.heightPx * 4),
): Uint16Array {
  const { part, level, choice, names, widthPx, heightPx } = shape;
  const acc = new Map(names.map((name, c) => [name, whole[c]!.fill(0)]));
  for (const band of bands) {
    names.forEach((name, c) => {
      const into = acc.get(name)!;
      const from = band.tyMin * widthPx;
      const sums = band.sums[c]!;
      for (let i = 0; i < sums.length; i++) into[from + i]! += sums[i]!;
    });
  }
  const means = binMeans(part, level, names, widthPx, heightPx, acc);
  return toRgbaHalf(choice, (name) => (name ? (means.get(name) ?? null) : null), widthPx * heightPx, out);
}

/** Half RGBA from the channels' means: a colour without a channel is 0, alpha without one is 1. */
export function toRgbaHalf(choice: ThumbnailChannels, filtered: (name: string | null) => Float32Array | null, pixelCount: number, out: Uint16Array = new Uint16Array(pixelCount * 4)): Uint16Array {
  let r: Float32Array | null;
  let g: Float32Array | null;
  let b: Float32Array | null;
  let a: Float32Array | null;
  if (choice.kind === 'rgb') {
    [r, g, b, a] = [filtered(choice.r), filtered(choice.g), filtered(choice.b), filtered(choice.a)];
  } else if (choice.kind === 'grey') {
    r = g = b = filtered(choice.channel);
    a = filtered(choice.a);
  } else {
    // luminance only until the codec's luma-chroma conversion lands: grey from Y
    r = g = b = filtered(choice.y);
    a = filtered(choice.a);
  }
  const ONE = floatToHalf(1);
  for (let i = 0; i < pixelCount; i++) {
    const o = i * 4;
    out[o] = r ? floatToHalf(clampHalf(r[i]!)) : 0;
    out[o + 1] = g ? floatToHalf(clampHalf(g[i]!)) : 0;
    out[o + 2] = b ? floatToHalf(clampHalf(b[i]!)) : 0;
    out[o + 3] = a ? floatToHalf(clampHalf(a[i]!)) : ONE;
  }
  return out;
}

export function clampHalf(v: number): number {
  return v > HALF_MAX ? HALF_MAX : v < -HALF_MAX ? -HALF_MAX : v;
}

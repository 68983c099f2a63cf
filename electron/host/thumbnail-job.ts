// The thumbnail worker job: cheapest correct source (smallest sufficient MIP level, else level 0), box filter in linear light, half RGBA out.

import { ExrReader, floatToHalf, HALF_TO_FLOAT, openFileSource, type DecodedChannel, type PartInfo, type StageTimings } from '../exr/index.js';
import type { AbortSignalLike } from '../exr/reader.js';
import { channelsOf, chooseThumbnailChannels, type ThumbnailChannels } from './layers.js';

export interface ThumbnailJobArgs {
  path: string;
  /** Long side of the result in pixels; images smaller than this are not enlarged. */
  longSidePx: number;
}

export interface ThumbnailJobResult {
  widthPx: number;
  heightPx: number;
  /** Linear half RGBA, interleaved, rows top to bottom. */
  rgbaHalf: ArrayBuffer;
  source: 'mip-level' | 'full-decode';
  part: number;
  lx: number;
  ly: number;
  channels: ThumbnailChannels;
  timings: StageTimings & { resizeMs: number };
}

const HALF_MAX = 65504;

/** HALF_TO_FLOAT with NaN as 0 and ±Inf as ±HALF_MAX, so one bad pixel does not poison its whole thumbnail pixel. */
const SANE_HALF: Float32Array = (() => {
  const table = Float32Array.from(HALF_TO_FLOAT);
  for (let i = 0; i < table.length; i++) {
    const v = table[i]!;
    if (Number.isNaN(v)) table[i] = 0;
    else if (!Number.isFinite(v)) table[i] = v > 0 ? HALF_MAX : -HALF_MAX;
  }
  return table;
})();

/** Thumbnail size for an image: the long side scaled to longSidePx (never enlarged), at least 1 pixel. */
export function thumbnailSize(widthPx: number, heightPx: number, longSidePx: number): { widthPx: number; heightPx: number } {
  const scale = Math.min(1, longSidePx / Math.max(widthPx, heightPx));
  return { widthPx: Math.max(1, Math.round(widthPx * scale)), heightPx: Math.max(1, Math.round(heightPx * scale)) };
}

/** The smallest level at least as large as the thumbnail in both directions (level 0 when the part has no others). */
export function chooseLevel(part: PartInfo, widthPx: number, heightPx: number): { lx: number; ly: number; widthPx: number; heightPx: number } {
  let best = part.levels[0]!;
  for (const level of part.levels) {
    if (level.widthPx >= widthPx && level.heightPx >= heightPx && level.widthPx * level.heightPx < best.widthPx * best.heightPx) best = level;
  }
  return best;
}

/** The part a thumbnail is made from: the first flat (non-deep) part. */
export function thumbnailPart(parts: readonly PartInfo[]): PartInfo {
  const part = parts.find((p) => !p.isDeep);
  if (!part) throw new Error('the file holds only deep parts, which have no thumbnail yet');
  return part;
}

export function thumbnailJob(args: ThumbnailJobArgs, ctx: { signal: AbortSignalLike }): { result: ThumbnailJobResult; transfer: ArrayBuffer[] } {
  const source = openFileSource(args.path);
  try {
    const reader = ExrReader.open(source);
    const part = thumbnailPart(reader.parts);
    const size = thumbnailSize(part.widthPx, part.heightPx, args.longSidePx);
    const level = chooseLevel(part, size.widthPx, size.heightPx);
    const choice = chooseThumbnailChannels(part.channels.map((c) => c.name));
    const image = reader.decode({ part: part.index, lx: level.lx, ly: level.ly, channels: channelsOf(choice), signal: ctx.signal });
    const t0 = performance.now();
    const byName = new Map(image.channels.map((c) => [c.name, c]));
    const filtered = (name: string | null): Float32Array | null => {
      const plane = name ? byName.get(name) : undefined;
      return plane ? boxFilter(plane, size.widthPx, size.heightPx) : null;
    };
    const rgbaHalf = toRgbaHalf(choice, filtered, size.widthPx * size.heightPx);
    const resizeMs = performance.now() - t0;
    const timings = { ...image.timings, readMs: source.stats.readMs, bytesRead: source.stats.bytesRead, resizeMs };
    return {
      result: {
        ...size,
        rgbaHalf,
        source: level.lx === 0 && level.ly === 0 ? 'full-decode' : 'mip-level',
        part: part.index,
        lx: level.lx,
        ly: level.ly,
        channels: choice,
        timings,
      },
      transfer: [rgbaHalf],
    };
  } finally {
    source.close();
  }
}

function toRgbaHalf(choice: ThumbnailChannels, filtered: (name: string | null) => Float32Array | null, pixelCount: number): ArrayBuffer {
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
  const out = new Uint16Array(pixelCount * 4);
  const ONE = floatToHalf(1);
  for (let i = 0; i < pixelCount; i++) {
    const o = i * 4;
    out[o] = r ? floatToHalf(clampHalf(r[i]!)) : 0;
    out[o + 1] = g ? floatToHalf(clampHalf(g[i]!)) : 0;
    out[o + 2] = b ? floatToHalf(clampHalf(b[i]!)) : 0;
    out[o + 3] = a ? floatToHalf(clampHalf(a[i]!)) : ONE;
  }
  return out.buffer;
}

function clampHalf(v: number): number {
  return v > HALF_MAX ? HALF_MAX : v < -HALF_MAX ? -HALF_MAX : v;
}

/** Ranges of source samples averaged into each target pixel (never empty: a target wider than the source repeats samples). */
function binRanges(sourceCount: number, targetCount: number): { start: Int32Array; end: Int32Array } {
  const start = new Int32Array(targetCount);
  const end = new Int32Array(targetCount);
  for (let t = 0; t < targetCount; t++) {
    const s0 = Math.min(sourceCount - 1, Math.floor((t * sourceCount) / targetCount));
    start[t] = s0;
    end[t] = Math.max(s0 + 1, Math.floor(((t + 1) * sourceCount) / targetCount));
  }
  return { start, end };
}

/**
 * Averages a plane's samples into widthPx × heightPx bins (a box filter over the source footprint of
 * each target pixel), in linear light. Subsampled planes are averaged over their own samples, which
 * cover the same area. NaN counts as 0 and ±Inf as ±65504.
 */
export function boxFilter(plane: DecodedChannel, widthPx: number, heightPx: number): Float32Array {
  const ws = plane.widthSamples;
  const hs = plane.heightSamples;
  const xs = binRanges(ws, widthPx);
  const ys = binRanges(hs, heightPx);
  const out = new Float32Array(widthPx * heightPx);
  const acc = new Float64Array(widthPx);
  const data = plane.data;
  const half = plane.pixelType === 'half';
  const float = plane.pixelType === 'float';
  for (let ty = 0; ty < heightPx; ty++) {
    acc.fill(0);
    const y0 = ys.start[ty]!;
    const y1 = ys.end[ty]!;
    for (let sy = y0; sy < y1; sy++) {
      const base = sy * ws;
      for (let tx = 0; tx < widthPx; tx++) {
        const x1 = base + xs.end[tx]!;
        let sum = 0;
        if (half) {
          for (let i = base + xs.start[tx]!; i < x1; i++) sum += SANE_HALF[data[i]!]!;
        } else if (float) {
          for (let i = base + xs.start[tx]!; i < x1; i++) {
            const v = data[i]!;
            sum += v === v ? (v > HALF_MAX ? HALF_MAX : v < -HALF_MAX ? -HALF_MAX : v) : 0;
          }
        } else {
          for (let i = base + xs.start[tx]!; i < x1; i++) sum += data[i]!;
        }
        acc[tx] = acc[tx]! + sum;
      }
    }
    const row = ty * widthPx;
    const rows = y1 - y0;
    for (let tx = 0; tx < widthPx; tx++) out[row + tx] = acc[tx]! / (rows * (xs.end[tx]! - xs.start[tx]!));
  }
  return out;
}

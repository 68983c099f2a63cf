// The CPU reference tone-map (shaders/tonemap-reference.ts) applied to half RGBA images, memoised per half value where the transform allows.

import { HALF_TO_FLOAT } from '../exr/index.js';
import type { DisplayParams } from '../../shaders/display-params.js';
import { toneMapImage, toneMapPixel } from '../../shaders/tonemap-reference.js';

/** Transforms that map each channel on its own (no channel mixing), so one channel's result depends on its value alone. */
const PER_CHANNEL = new Set(['linear', 'srgb', 'rec709', 'reinhard']);

/** True when toneMapPixel's R, G, B outputs each depend only on the same input channel. */
export function isPerChannel(p: DisplayParams): boolean {
  return PER_CHANNEL.has(p.transform) && p.channelView === 'rgb' && !p.falseColour && !p.clipping;
}

/** Memo tables by view, kept across calls: a folder of thumbnails shares one view. */
const memos = new Map<string, Int16Array>();

function memoFor(p: DisplayParams): Int16Array {
  const key = JSON.stringify(p);
  let memo = memos.get(key);
  if (!memo) {
    if (memos.size >= 16) memos.delete(memos.keys().next().value!);
    memo = new Int16Array(65536).fill(-1);
    memos.set(key, memo);
  }
  return memo;
}

/**
 * Linear half RGBA (binary16 bits, interleaved) to 8-bit RGBA (alpha 255) through the view. For
 * per-channel transforms the reference is evaluated once per distinct half value (at most 65536
 * times, far fewer for a thumbnail) and looked up; otherwise it runs per pixel.
 */
export function toneMapHalfRgba(bits: Uint16Array, widthPx: number, heightPx: number, p: DisplayParams): Uint8ClampedArray {
  const pixels = widthPx * heightPx;
  if (!isPerChannel(p) || p.nanInf) {
    const linear = new Float32Array(pixels * 4);
    for (let i = 0; i < linear.length; i++) linear[i] = HALF_TO_FLOAT[bits[i]!]!;
    return toneMapImage(linear, widthPx, heightPx, p);
  }
  const memo = memoFor(p);
  const out = new Uint8ClampedArray(pixels * 4);
  for (let i = 0; i < pixels * 4; i += 4) {
    for (let c = 0; c < 3; c++) {
      const h = bits[i + c]!;
      let v = memo[h]!;
      if (v < 0) {
        const x = HALF_TO_FLOAT[h]!;
        v = Math.round(toneMapPixel(x, x, x, 1, 0, 0, p)[0] * 255);
        memo[h] = v;
      }
      out[i + c] = v;
    }
    out[i + 3] = 255;
  }
  return out;
}

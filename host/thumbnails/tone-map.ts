// The CPU reference tone-map (shaders/tonemap-cpu.ts) applied to half RGBA images, memoised per half value where the transform allows.

import { HALF_TO_FLOAT } from '../../codec/index.js';
import type { DisplayParams } from '../../shaders/display-params.js';
import { toneMapImage, toneMapPixel } from '../../shaders/tonemap-cpu.js';

/** Transforms that map each channel on its own (no channel mixing), so one channel's result depends on its value alone. */
const PER_CHANNEL = new Set(['linear', 'srgb', 'rec709', 'reinhard']);

/** True when toneMapPixel's R, G, B outputs each depend only on the same input channel. */
export function isPerChannel(p: DisplayParams): boolean {
  return PER_CHANNEL.has(p.transform) && p.channelView === 'rgb' && !p.falseColour && !p.clipping && !p.lut && !p.ocio; // a 3D LUT or OCIO mixes channels
}

/** True when a view can be tone-mapped through a memo table: per channel, and no NaN/Inf colours (which look at all three). */
export function memoApplies(p: DisplayParams): boolean {
  return isPerChannel(p) && !p.nanInf;
}

/** A memo table (one entry per half value, -1 until computed) in shared memory: workers tone-mapping one view fill it
 * together (a racing write stores the same value). */
export function sharedToneMapMemo(): Int16Array {
  return new Int16Array(new SharedArrayBuffer(65536 * 2)).fill(-1);
}

/** A view thumbnails are tone-mapped through on the workers, with its shared memo table (per-channel views). */
export interface ToneMapView {
  params: DisplayParams;
  memo: Int16Array | null;
}

/** Memo tables by view, kept across calls: a folder of thumbnails shares one view. */
const memos = new Map<string, Int16Array>();

/**
 * The memo table of a per-channel view (null for any other view), kept across calls; in shared memory, so that it can
 * go to the decode workers tone-mapping through the view (see ToneMapView).
 */
export function viewMemo(p: DisplayParams): Int16Array | null {
  if (!memoApplies(p)) return null;
  const key = JSON.stringify(p);
  let memo = memos.get(key);
  if (!memo) {
    if (memos.size >= 16) memos.delete(memos.keys().next().value!);
    memo = sharedToneMapMemo();
    memos.set(key, memo);
  }
  return memo;
}

/**
 * Linear half RGBA (binary16 bits, interleaved) to 8-bit RGBA (alpha 255) through the view. For
 * per-channel transforms the reference is evaluated once per distinct half value (at most 65536
 * times, far fewer for a thumbnail) and looked up (in `sharedMemo`, made for this view, when given); otherwise it runs
 * per pixel. Written into `into` when given (pixels * 4 bytes); through a memo, from pixel `fromPixel` on (the ones
 * before it are already there).
 */
export function toneMapHalfRgba(
  bits: Uint16Array,
  widthPx: number,
  heightPx: number,
  p: DisplayParams,
  sharedMemo?: Int16Array,
  into?: Uint8ClampedArray,
  fromPixel = 0,
): Uint8ClampedArray {
  const pixels = widthPx * heightPx;
  if (!memoApplies(p)) {
    // (fromPixel is for the memo path: a caller has mapped the pixels before it through the memo)
    const linear = new Float32Array(pixels * 4);
    for (let i = 0; i < linear.length; i++) linear[i] = HALF_TO_FLOAT[bits[i]!]!;
    const mapped = toneMapImage(linear, widthPx, heightPx, p);
    if (!into) return mapped;
    into.set(mapped);
    return into;
  }
  const memo = sharedMemo ?? viewMemo(p)!;
  const out = into ?? new Uint8ClampedArray(pixels * 4);
  const out8 = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  // the loop stops at a value the memo has not seen, which is computed here, and goes on from that pixel
  for (let from = fromPixel * 4; from < pixels * 4;) {
    from = lookUpMemo(bits, memo, out8, from, pixels * 4);
    if (from < pixels * 4) for (let c = 0; c < 3; c++) memoise(memo, bits[from + c]!, p);
  }
  return out;
}

/**
 * 8-bit RGBA from the memo, from sample `from` on, until a value it has not seen (returns that pixel's first sample
 * index) or the end. Only typed arrays come in, so the compiled loop does not depend on the view object's shape (a
 * view reaches a worker cloned by a message, with another shape than one made there, as in the warm-up).
 */
function lookUpMemo(bits: Uint16Array, memo: Int16Array, out8: Uint8Array, from: number, end: number): number {
  for (let i = from; i < end; i += 4) {
    const r = memo[bits[i]!]!;
    const g = memo[bits[i + 1]!]!;
    const b = memo[bits[i + 2]!]!;
    if ((r | g | b) < 0) return i;
    // memo entries are 0..255 already: plain byte stores
    out8[i] = r;
    out8[i + 1] = g;
    out8[i + 2] = b;
    out8[i + 3] = 255;
  }
  return end;
}

/** Every entry of a per-channel view's memo computed now (a command that knows its one view, before its clock starts). */
export function fillToneMapMemo(memo: Int16Array, p: DisplayParams): void {
  for (let h = 0; h < 65536; h++) memoise(memo, h, p);
}

/** The 8-bit result for one half value through a per-channel view, computed once. */
function memoise(memo: Int16Array, h: number, p: DisplayParams): number {
  let v = memo[h]!;
  if (v < 0) {
    const x = HALF_TO_FLOAT[h]!;
    // clamped here as Uint8ClampedArray would (a NaN becomes 0 in the Int16Array)
    memo[h] = Math.min(255, Math.max(0, Math.round(toneMapPixel(x, x, x, 1, 0, 0, p)[0] * 255)));
    v = memo[h]!;
  }
  return v;
}

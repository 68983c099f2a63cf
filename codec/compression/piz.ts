// PIZ compression: bitmap of used 16-bit values + LUT, a 2D Haar-like wavelet per 16-bit plane, then Huffman.
//
// Chunk format: minNonZero, maxNonZero (u16): the range of non-zero bitmap bytes, then those bytes
// (none when minNonZero > maxNonZero); a u32 byte length; the Huffman block. The Huffman block holds
// the wavelet-transformed, LUT-compacted values of every channel, channel after channel (header
// order), each as a plane of heightSamples rows of widthSamples samples. A 32-bit sample is two
// 16-bit words (little-endian order) and the two words are transformed as separate interleaved planes.

import { invalid } from '../core/errors.js';
import { floorMod, sampleCount } from '../core/sampling.js';
import { PIXEL_TYPE_BYTES, type BlockLayout } from '../core/types.js';
import { huffmanCompress, huffmanDecodeInto } from './huffman.js';

const VALUE_RANGE = 65536;
const BITMAP_BYTES = VALUE_RANGE >> 3;
/** Below this maximum value the wavelet uses plain (non-modular) arithmetic, which compresses better. */
const WAVELET_14BIT_LIMIT = 1 << 14;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** One channel's plane in the planar buffer: heightSamples rows of rowWords words, rows one after the other. */
export interface ChannelPlane {
  widthSamples: number;
  heightSamples: number;
  /** 1 for half, 2 for float and uint. */
  wordsPerSample: number;
  ySampling: number;
  /** First word of this channel in the planar buffer. */
  start: number;
  /** widthSamples * wordsPerSample. */
  rowWords: number;
}

export interface PlanarLayout {
  planes: ChannelPlane[];
  totalWords: number;
}

/** The channel planes of a PIZ chunk, checked to hold expectedBytes. */
export function checkedPlanarLayout(block: BlockLayout, expectedBytes: number): PlanarLayout {
  const layout = planarLayout(block);
  if (layout.totalWords * 2 !== expectedBytes) {
    throw invalid(`PIZ block of ${layout.totalWords * 2} bytes does not match the expected ${expectedBytes}`);
  }
  return layout;
}

function planarLayout(block: BlockLayout): PlanarLayout {
  const { x0, y0, widthPx, heightPx } = block;
  if (!Number.isInteger(widthPx) || !Number.isInteger(heightPx) || widthPx < 0 || heightPx < 0) {
    throw invalid(`bad PIZ block size ${widthPx}x${heightPx}`);
  }
  const planes: ChannelPlane[] = [];
  let totalWords = 0;
  for (const channel of block.channels) {
    const { xSampling, ySampling } = channel;
    if (!Number.isInteger(xSampling) || !Number.isInteger(ySampling) || xSampling < 1 || ySampling < 1) {
      throw invalid(`channel ${channel.name} has bad sampling ${xSampling}x${ySampling}`);
    }
    const widthSamples = sampleCount(xSampling, x0, x0 + widthPx - 1);
    const heightSamples = sampleCount(ySampling, y0, y0 + heightPx - 1);
    const wordsPerSample = PIXEL_TYPE_BYTES[channel.pixelType] / 2;
    const rowWords = widthSamples * wordsPerSample;
    planes.push({ widthSamples, heightSamples, wordsPerSample, ySampling, start: totalWords, rowWords });
    totalWords += rowWords * heightSamples;
  }
  return { planes, totalWords };
}

// ---- wavelet ----
// One level pairs samples p apart: a 2x2 group (x, x + p) x (y, y + p) becomes an average and three
// differences, with a 1D step for a leftover odd column or row. The 14-bit variant works on signed
// values without wrap-around; the 16-bit one works modulo 2^16 around an offset of 2^15. Writes into
// the Uint16Array truncate to 16 bits, which is exactly the C code's conversion to uint16_t.
// The 14-bit inverse adds (h & 1) + (h >> 1), written here as the equal and cheaper (h + 1) >> 1.

/** In-place inverse wavelet of one plane: nx x ny samples, ox words between columns, oy between rows. */
export function wav2Decode(buf: Uint16Array, base: number, nx: number, ox: number, ny: number, oy: number, maxValue: number): void {
  const w14 = maxValue < WAVELET_14BIT_LIMIT;
  const n = Math.min(nx, ny);
  let p = 1;
  while (p <= n) p <<= 1;
  p >>= 1;
  let p2 = p;
  p >>= 1;

  while (p >= 1) {
    const oy1 = oy * p;
    const oy2 = oy * p2;
    const ox1 = ox * p;
    const ox2 = ox * p2;
    const ey = base + oy * (ny - p2);
    let py = base;
    for (; py <= ey; py += oy2) {
      const ex = py + ox * (nx - p2);
      let px = py;
      if (w14) {
        for (; px <= ex; px += ox2) {
          const p01 = px + ox1;
          const p10 = px + oy1;
          const p11 = p10 + ox1;
          // columns first: (px, p10) and (p01, p11), then rows.
          let h = (buf[p10]! << 16) >> 16;
          const i00 = ((buf[px]! << 16) >> 16) + ((h + 1) >> 1);
          const i10 = i00 - h;
          h = (buf[p11]! << 16) >> 16;
          const i01 = ((buf[p01]! << 16) >> 16) + ((h + 1) >> 1);
          const i11 = i01 - h;
          h = (i01 << 16) >> 16;
          let a = ((i00 << 16) >> 16) + ((h + 1) >> 1);
          buf[px] = a;
          buf[p01] = a - h;
          h = (i11 << 16) >> 16;
          a = ((i10 << 16) >> 16) + ((h + 1) >> 1);
          buf[p10] = a;
          buf[p11] = a - h;
        }
        if (nx & p) {
          const p10 = px + oy1;
          const h = (buf[p10]! << 16) >> 16;
          const a = ((buf[px]! << 16) >> 16) + ((h + 1) >> 1);
          buf[px] = a;
          buf[p10] = a - h;
        }
      } else {
        for (; px <= ex; px += ox2) {
          const p01 = px + ox1;
          const p10 = px + oy1;
          const p11 = p10 + ox1;
          let d = buf[p10]!;
          let b = (buf[px]! - (d >> 1)) & 0xffff;
          const i00 = (d + b - 0x8000) & 0xffff;
          const i10 = b;
          d = buf[p11]!;
          b = (buf[p01]! - (d >> 1)) & 0xffff;
          const i01 = (d + b - 0x8000) & 0xffff;
          const i11 = b;
          b = (i00 - (i01 >> 1)) & 0xffff;
          buf[px] = i01 + b - 0x8000;
          buf[p01] = b;
          b = (i10 - (i11 >> 1)) & 0xffff;
          buf[p10] = i11 + b - 0x8000;
          buf[p11] = b;
        }
        if (nx & p) {
          const p10 = px + oy1;
          const d = buf[p10]!;
          const b = (buf[px]! - (d >> 1)) & 0xffff;
          buf[px] = d + b - 0x8000;
          buf[p10] = b;
        }
      }
    }
    if (ny & p) {
      const ex = py + ox * (nx - p2);
      for (let px = py; px <= ex; px += ox2) {
        const p01 = px + ox1;
        if (w14) {
          const h = (buf[p01]! << 16) >> 16;
          const a = ((buf[px]! << 16) >> 16) + ((h + 1) >> 1);
          buf[px] = a;
          buf[p01] = a - h;
        } else {
          const d = buf[p01]!;
          const b = (buf[px]! - (d >> 1)) & 0xffff;
          buf[px] = d + b - 0x8000;
          buf[p01] = b;
        }
      }
    }
    p2 = p;
    p >>= 1;
  }
}

/** In-place forward wavelet of one plane (the inverse of wav2Decode). */
export function wav2Encode(buf: Uint16Array, base: number, nx: number, ox: number, ny: number, oy: number, maxValue: number): void {
  const w14 = maxValue < WAVELET_14BIT_LIMIT;
  const n = Math.min(nx, ny);
  let p = 1;
  let p2 = 2;

  while (p2 <= n) {
    const oy1 = oy * p;
    const oy2 = oy * p2;
    const ox1 = ox * p;
    const ox2 = ox * p2;
    const ey = base + oy * (ny - p2);
    let py = base;
    for (; py <= ey; py += oy2) {
      const ex = py + ox * (nx - p2);
      let px = py;
      for (; px <= ex; px += ox2) {
        const p01 = px + ox1;
        const p10 = px + oy1;
        const p11 = p10 + ox1;
        if (w14) {
          // rows first: (px, p01) and (p10, p11), then columns.
          const a00 = (buf[px]! << 16) >> 16;
          const a01 = (buf[p01]! << 16) >> 16;
          const a10 = (buf[p10]! << 16) >> 16;
          const a11 = (buf[p11]! << 16) >> 16;
          const i00 = (((a00 + a01) >> 1) << 16) >> 16;
          const i01 = ((a00 - a01) << 16) >> 16;
          const i10 = (((a10 + a11) >> 1) << 16) >> 16;
          const i11 = ((a10 - a11) << 16) >> 16;
          buf[px] = (i00 + i10) >> 1;
          buf[p10] = i00 - i10;
          buf[p01] = (i01 + i11) >> 1;
          buf[p11] = i01 - i11;
        } else {
          const i00i01 = wenc16(buf[px]!, buf[p01]!);
          const i10i11 = wenc16(buf[p10]!, buf[p11]!);
          const top = wenc16(i00i01 >>> 16, i10i11 >>> 16);
          buf[px] = top >>> 16;
          buf[p10] = top;
          const bottom = wenc16(i00i01 & 0xffff, i10i11 & 0xffff);
          buf[p01] = bottom >>> 16;
          buf[p11] = bottom;
        }
      }
      if (nx & p) {
        const p10 = px + oy1;
        encodePair(buf, px, p10, w14);
      }
    }
    if (ny & p) {
      const ex = py + ox * (nx - p2);
      for (let px = py; px <= ex; px += ox2) encodePair(buf, px, px + ox1, w14);
    }
    p = p2;
    p2 <<= 1;
  }
}

/** Modular wavelet step: returns (low << 16) | high. */
function wenc16(a: number, b: number): number {
  const ao = (a + 0x8000) & 0xffff;
  let m = (ao + b) >> 1;
  const d = ao - b;
  if (d < 0) m = (m + 0x8000) & 0xffff;
  return ((m << 16) | (d & 0xffff)) >>> 0;
}

function encodePair(buf: Uint16Array, i: number, j: number, w14: boolean): void {
  if (w14) {
    const a = (buf[i]! << 16) >> 16;
    const b = (buf[j]! << 16) >> 16;
    buf[i] = (a + b) >> 1;
    buf[j] = a - b;
  } else {
    const lh = wenc16(buf[i]!, buf[j]!);
    buf[i] = lh >>> 16;
    buf[j] = lh;
  }
}

// ---- LUT ----

/** Reused reverse LUT; entries at and above reverseLutUsed are zero (values beyond maxValue decode to 0). */
const reverseLut = new Uint16Array(VALUE_RANGE);
let reverseLutUsed = 0;
const bitmapScratch = new Uint8Array(BITMAP_BYTES);

/** Fills reverseLut from the bitmap bytes [minNonZero, maxNonZero]; returns maxValue (count of used values - 1). */
function buildReverseLut(bitmap: Uint8Array, minNonZero: number, maxNonZero: number): number {
  let k = 0;
  reverseLut[k++] = 0; // zero is always present and never stored in the bitmap
  for (let byte = minNonZero; byte <= maxNonZero; byte++) {
    const bits = bitmap[byte]!;
    if (bits === 0) continue;
    for (let bit = 0; bit < 8; bit++) {
      const value = byte * 8 + bit;
      if (bits & (1 << bit) && value !== 0) reverseLut[k++] = value;
    }
  }
  if (k < reverseLutUsed) reverseLut.fill(0, k, reverseLutUsed);
  reverseLutUsed = k;
  return k - 1;
}

// ---- decode ----

function readU16(src: Uint8Array, at: number): number {
  return src[at]! | (src[at + 1]! << 8);
}

/**
 * A PIZ chunk decoded up to its last two passes: every channel's plane after the wavelet, in LUT
 * codes. `words` is a scratch buffer, valid only until the next PIZ chunk is decoded; the value of
 * a code is `lut[code]`, and `lut` is null when every code is its own value.
 */
export interface PizPlanes {
  words: Uint16Array;
  planes: readonly ChannelPlane[];
  lut: Uint16Array | null;
  /** The largest code in use. */
  maxCode: number;
}

/** Decompresses one PIZ chunk into the uncompressed layout of BlockLayout. */
export function decompressPiz(src: Uint8Array, block: BlockLayout, expectedBytes: number): Uint8Array {
  const { words, planes, lut } = decompressPizPlanes(src, block, expectedBytes);
  if (lut) applyLut(words, lut);
  const out = new Uint8Array(expectedBytes);
  interleaveRows(words, planes, block, out);
  return out;
}

/** Decompresses one PIZ chunk as far as its channel planes (for readers that sum samples and need neither the LUT pass nor the scanline order). */
export function decompressPizPlanes(src: Uint8Array, block: BlockLayout, expectedBytes: number): PizPlanes {
  const { planes, totalWords } = checkedPlanarLayout(block, expectedBytes);
  if (src.length < 4) throw invalid('PIZ chunk is too short for its bitmap range');
  const minNonZero = readU16(src, 0);
  const maxNonZero = readU16(src, 2);
  if (maxNonZero >= BITMAP_BYTES) throw invalid(`PIZ bitmap range ends at ${maxNonZero}, beyond ${BITMAP_BYTES - 1}`);
  let pos = 4;
  const bitmap = bitmapScratch;
  bitmap.fill(0);
  if (minNonZero <= maxNonZero) {
    const length = maxNonZero - minNonZero + 1;
    if (pos + length > src.length) throw invalid('PIZ bitmap runs past the end of the chunk');
    bitmap.set(src.subarray(pos, pos + length), minNonZero);
    pos += length;
  }
  const maxValue = buildReverseLut(bitmap, minNonZero, maxNonZero);

  if (pos + 4 > src.length) throw invalid('PIZ chunk is too short for its Huffman length');
  const huffmanBytes = (readU16(src, pos) | (readU16(src, pos + 2) << 16)) >>> 0;
  pos += 4;
  if (huffmanBytes > src.length - pos) throw invalid(`PIZ Huffman block of ${huffmanBytes} bytes runs past the end of the chunk`);

  const planar = planarScratch(totalWords);
  huffmanDecodeInto(src.subarray(pos, pos + huffmanBytes), planar);

  for (const plane of planes) {
    const { widthSamples, heightSamples, wordsPerSample } = plane;
    for (let word = 0; word < wordsPerSample; word++) {
      wav2Decode(planar, plane.start + word, widthSamples, wordsPerSample, heightSamples, plane.rowWords, maxValue);
    }
  }

  // The LUT is increasing from 0, so it is the identity exactly when its last used entry maps to
  // itself (every value up to maxValue occurs). Codes above maxValue map to 0 (the LUT is zero there).
  return { words: planar, planes, lut: reverseLut[maxValue] !== maxValue ? reverseLut : null, maxCode: maxValue };
}

/** Largest planar buffer kept between chunks (16 MiB); bigger chunks get their own. */
const SCRATCH_KEEP_WORDS = 1 << 23;
let scratchWords = new Uint16Array(0);

/** The working buffer of one chunk: reused, since fresh large buffers cost a page fault per 4 KiB. */
export function planarScratch(words: number): Uint16Array {
  if (words > SCRATCH_KEEP_WORDS) return new Uint16Array(words);
  if (scratchWords.length < words) scratchWords = new Uint16Array(words);
  return scratchWords.subarray(0, words);
}

/** data[i] = lut[data[i]], two values per step where the buffer allows: half the loads and stores of one at a time. */
export function applyLut(data: Uint16Array, lut: Uint16Array): void {
  let i = 0;
  if (data.byteOffset % 4 === 0) {
    const pairs = new Uint32Array(data.buffer, data.byteOffset, data.length >> 1);
    for (let k = 0; k < pairs.length; k++) {
      const two = pairs[k]!;
      pairs[k] = lut[two & 0xffff]! | (lut[two >>> 16]! << 16);
    }
    i = pairs.length * 2;
  }
  for (; i < data.length; i++) data[i] = lut[data[i]!]!;
}

/** Interleaves the channel planes back into scanline order (a separate LUT pass plus row copies beats a fused loop). */
function interleaveRows(planar: Uint16Array, planes: readonly ChannelPlane[], block: BlockLayout, out: Uint8Array): void {
  const rowOf = new Int32Array(planes.length);
  const out16 = LITTLE_ENDIAN ? new Uint16Array(out.buffer, out.byteOffset, out.length >> 1) : null;
  let o = 0;
  for (let line = 0; line < block.heightPx; line++) {
    const y = block.y0 + line;
    for (let c = 0; c < planes.length; c++) {
      const plane = planes[c]!;
      if (floorMod(y, plane.ySampling) !== 0) continue;
      const rowWords = plane.rowWords;
      const from = plane.start + rowOf[c]!++ * rowWords;
      if (out16) {
        out16.set(planar.subarray(from, from + rowWords), o);
      } else {
        for (let k = 0; k < rowWords; k++) {
          const value = planar[from + k]!;
          out[2 * (o + k)] = value;
          out[2 * (o + k) + 1] = value >>> 8;
        }
      }
      o += rowWords;
    }
  }
}

// ---- encode ----

/** The bytes as 16-bit words (host order, little-endian here), copied only when not 2-byte aligned. */
function littleEndianWords(raw: Uint8Array): Uint16Array {
  const aligned = raw.byteOffset % 2 === 0 ? raw : raw.slice();
  return new Uint16Array(aligned.buffer, aligned.byteOffset, aligned.length >> 1);
}

/** Compresses one chunk laid out as BlockLayout describes. */
export function compressPiz(raw: Uint8Array, block: BlockLayout): Uint8Array {
  const { planes, totalWords } = planarLayout(block);
  if (totalWords * 2 !== raw.length) {
    throw invalid(`PIZ block of ${totalWords * 2} bytes does not match the ${raw.length} bytes given`);
  }

  // Gather scanline-ordered rows into channel planes of 16-bit words.
  const planar = new Uint16Array(totalWords);
  const words = LITTLE_ENDIAN ? littleEndianWords(raw) : null;
  const rowOf = new Int32Array(planes.length);
  let r = 0;
  for (let line = 0; line < block.heightPx; line++) {
    const y = block.y0 + line;
    for (let c = 0; c < planes.length; c++) {
      const plane = planes[c]!;
      if (floorMod(y, plane.ySampling) !== 0) continue;
      const rowWords = plane.rowWords;
      const to = plane.start + rowOf[c]!++ * rowWords;
      if (words) planar.set(words.subarray(r, r + rowWords), to);
      else for (let k = 0; k < rowWords; k++) planar[to + k] = raw[2 * (r + k)]! | (raw[2 * (r + k) + 1]! << 8);
      r += rowWords;
    }
  }

  const bitmap = new Uint8Array(BITMAP_BYTES);
  for (let i = 0; i < totalWords; i++) {
    const value = planar[i]!;
    bitmap[value >> 3]! |= 1 << (value & 7);
  }
  bitmap[0]! &= ~1; // zero is implied
  let minNonZero = BITMAP_BYTES - 1;
  let maxNonZero = 0;
  for (let byte = 0; byte < BITMAP_BYTES; byte++) {
    if (bitmap[byte] === 0) continue;
    if (byte < minNonZero) minNonZero = byte;
    maxNonZero = byte;
  }

  const forwardLut = new Uint16Array(VALUE_RANGE);
  let k = 0;
  for (let value = 0; value < VALUE_RANGE; value++) {
    if (value === 0 || bitmap[value >> 3]! & (1 << (value & 7))) forwardLut[value] = k++;
  }
  const maxValue = k - 1;
  for (let i = 0; i < totalWords; i++) planar[i] = forwardLut[planar[i]!]!;

  for (const plane of planes) {
    const { widthSamples, heightSamples, wordsPerSample } = plane;
    for (let word = 0; word < wordsPerSample; word++) {
      wav2Encode(planar, plane.start + word, widthSamples, wordsPerSample, heightSamples, plane.rowWords, maxValue);
    }
  }

  const huffman = huffmanCompress(planar);
  const bitmapLength = minNonZero <= maxNonZero ? maxNonZero - minNonZero + 1 : 0;
  const out = new Uint8Array(4 + bitmapLength + 4 + huffman.length);
  out[0] = minNonZero;
  out[1] = minNonZero >>> 8;
  out[2] = maxNonZero;
  out[3] = maxNonZero >>> 8;
  let pos = 4;
  if (bitmapLength > 0) {
    out.set(bitmap.subarray(minNonZero, maxNonZero + 1), pos);
    pos += bitmapLength;
  }
  out[pos] = huffman.length;
  out[pos + 1] = huffman.length >>> 8;
  out[pos + 2] = huffman.length >>> 16;
  out[pos + 3] = huffman.length >>> 24;
  out.set(huffman, pos + 4);
  return out;
}

// PXR24 compression: per line and channel, samples are delta-coded and split into big-endian byte
// planes, float samples rounded to 24 bits first, and the whole chunk deflated. Lossy for float only.

import zlib from 'node:zlib';
import { invalid } from '../core/errors.js';
import { floorMod, sampleCount } from '../core/sampling.js';
import type { BlockLayout, PixelType } from '../core/types.js';
// libdeflate (native or WebAssembly) where loaded, node:zlib otherwise
import { inflateExact } from './inflate-tier.js';

/** Bytes per sample in the PXR24 stream (float keeps its top 24 bits). */
const CODED_BYTES: Readonly<Record<PixelType, number>> = { uint: 4, half: 2, float: 3 };
const OUTPUT_BYTES: Readonly<Record<PixelType, number>> = { uint: 4, half: 2, float: 4 };
const DEFLATE_LEVEL = 4;

/** One channel's samples on one line of the chunk, in stream order. */
interface LineRun {
  pixelType: PixelType;
  samples: number;
}

function lineRuns(block: BlockLayout): LineRun[] {
  const runs: LineRun[] = [];
  const xLast = block.x0 + block.widthPx - 1;
  const widths = block.channels.map((c) => sampleCount(c.xSampling, block.x0, xLast));
  for (let y = block.y0; y < block.y0 + block.heightPx; y++) {
    block.channels.forEach((channel, index) => {
      const samples = widths[index]!;
      if (samples > 0 && floorMod(y, channel.ySampling) === 0) runs.push({ pixelType: channel.pixelType, samples });
    });
  }
  return runs;
}

export function decompressPxr24(src: Uint8Array, block: BlockLayout, expectedBytes: number): Uint8Array {
  const runs = lineRuns(block);
  let codedBytes = 0;
  let outputBytes = 0;
  for (const run of runs) {
    codedBytes += run.samples * CODED_BYTES[run.pixelType];
    outputBytes += run.samples * OUTPUT_BYTES[run.pixelType];
  }
  if (outputBytes !== expectedBytes) {
    throw invalid(`PXR24 chunk layout holds ${outputBytes} bytes, expected ${expectedBytes}`);
  }
  const coded = inflateExact(src, codedBytes, 'PXR24');
  const out = new Uint8Array(expectedBytes);
  // Every sample starts at an even byte offset, so the output is written as 16-bit units
  // (a 32-bit sample as its low unit, then its high unit).
  const out16 = new Uint16Array(out.buffer, 0, expectedBytes >> 1);
  let inPos = 0;
  let unit = 0;
  for (const { pixelType, samples } of runs) {
    // Delta decoding wraps modulo 2^32 (uint, float) or 2^16 (half), like the C unsigned arithmetic.
    if (pixelType === 'half') {
      const p0 = inPos;
      const p1 = p0 + samples;
      let pixel = 0;
      for (let x = 0; x < samples; x++) {
        pixel = (pixel + ((coded[p0 + x]! << 8) | coded[p1 + x]!)) & 0xffff;
        out16[unit++] = pixel;
      }
      inPos = p1 + samples;
    } else if (pixelType === 'float') {
      const p0 = inPos;
      const p1 = p0 + samples;
      const p2 = p1 + samples;
      let pixel = 0;
      for (let x = 0; x < samples; x++) {
        pixel = (pixel + ((coded[p0 + x]! << 24) | (coded[p1 + x]! << 16) | (coded[p2 + x]! << 8))) | 0;
        out16[unit++] = pixel & 0xffff;
        out16[unit++] = pixel >>> 16;
      }
      inPos = p2 + samples;
    } else {
      const p0 = inPos;
      const p1 = p0 + samples;
      const p2 = p1 + samples;
      const p3 = p2 + samples;
      let pixel = 0;
      for (let x = 0; x < samples; x++) {
        pixel = (pixel + ((coded[p0 + x]! << 24) | (coded[p1 + x]! << 16) | (coded[p2 + x]! << 8) | coded[p3 + x]!)) | 0;
        out16[unit++] = pixel & 0xffff;
        out16[unit++] = pixel >>> 16;
      }
      inPos = p3 + samples;
    }
  }
  if (!LITTLE_ENDIAN) swapByteOrder16(out);
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Turns native 16-bit units into little-endian ones on a big-endian host. */
function swapByteOrder16(bytes: Uint8Array): void {
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    const low = bytes[i]!;
    bytes[i] = bytes[i + 1]!;
    bytes[i + 1] = low;
  }
}

/** A float's bit pattern rounded to its top 24 bits (sign, exponent, 15 significand bits), as OpenEXR does. */
export function floatBitsTo24(bits: number): number {
  const sign = bits & 0x80000000;
  const exponent = bits & 0x7f800000;
  const significand = bits & 0x007fffff;
  let reduced: number;
  if (exponent === 0x7f800000) {
    if (significand !== 0) {
      // NaN: keep the top significand bits, but at least one, or it would turn into an infinity.
      const kept = significand >>> 8;
      reduced = (exponent >>> 8) | kept | (kept === 0 ? 1 : 0);
    } else {
      reduced = exponent >>> 8;
    }
  } else {
    reduced = ((exponent | significand) + (significand & 0x80)) >>> 8;
    // Rounding up near the largest float would overflow into infinity: truncate instead.
    if (reduced >= 0x7f8000) reduced = (exponent | significand) >>> 8;
  }
  return ((sign >>> 8) | reduced) >>> 0;
}

export function compressPxr24(raw: Uint8Array, block: BlockLayout): Uint8Array {
  const runs = lineRuns(block);
  let codedBytes = 0;
  let rawBytes = 0;
  for (const run of runs) {
    codedBytes += run.samples * CODED_BYTES[run.pixelType];
    rawBytes += run.samples * OUTPUT_BYTES[run.pixelType];
  }
  if (rawBytes !== raw.length) throw invalid(`PXR24 chunk layout holds ${rawBytes} bytes, given ${raw.length}`);
  const coded = new Uint8Array(codedBytes);
  let inPos = 0;
  let outPos = 0;
  for (const { pixelType, samples } of runs) {
    if (pixelType === 'half') {
      let previous = 0;
      for (let x = 0; x < samples; x++) {
        const pixel = raw[inPos]! | (raw[inPos + 1]! << 8);
        inPos += 2;
        const diff = (pixel - previous) & 0xffff;
        previous = pixel;
        coded[outPos + x] = diff >>> 8;
        coded[outPos + samples + x] = diff & 0xff;
      }
      outPos += 2 * samples;
    } else {
      const planes = pixelType === 'float' ? 3 : 4;
      let previous = 0;
      for (let x = 0; x < samples; x++) {
        let pixel = (raw[inPos]! | (raw[inPos + 1]! << 8) | (raw[inPos + 2]! << 16) | (raw[inPos + 3]! << 24)) >>> 0;
        inPos += 4;
        if (pixelType === 'float') pixel = floatBitsTo24(pixel);
        const diff = (pixel - previous) >>> 0;
        previous = pixel;
        if (planes === 3) {
          coded[outPos + x] = (diff >>> 16) & 0xff;
          coded[outPos + samples + x] = (diff >>> 8) & 0xff;
          coded[outPos + 2 * samples + x] = diff & 0xff;
        } else {
          coded[outPos + x] = diff >>> 24;
          coded[outPos + samples + x] = (diff >>> 16) & 0xff;
          coded[outPos + 2 * samples + x] = (diff >>> 8) & 0xff;
          coded[outPos + 3 * samples + x] = diff & 0xff;
        }
      }
      outPos += planes * samples;
    }
  }
  return zlib.deflateSync(coded, { level: DEFLATE_LEVEL });
}

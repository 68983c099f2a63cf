// B44 and B44A compression: half channels in 4x4 blocks of 14 bytes (3 for a flat block, which
// B44A writes and both read); uint and float channels stored uncompressed. Lossy; decoding is exact.
//
// Chunk layout: channel by channel (header order), each channel's samples of the whole chunk as one
// plane. A half plane is cut into 4x4 blocks, row by row; blocks past the right or bottom edge are
// padded when written and their extra samples are dropped when read. Other planes are stored as
// little-endian samples, row by row.

import { invalid } from '../core/errors.js';
import { floorMod, sampleCount } from '../core/sampling.js';
import type { BlockLayout, PixelType } from '../core/types.js';
import { b44LogTable } from './b44-log-table.js';

/** Byte 2 of a block holds shift << 2 in a 14-byte block (shift <= 12); larger values mark a flat 3-byte block. */
const FLAT_BLOCK_MIN_BYTE2 = 13 << 2;

/** Ordered 16-bit code (larger code = larger value) back to half bits. */
function codeToHalf(code: number): number {
  return code & 0x8000 ? code & 0x7fff : ~code & 0xffff;
}

interface PlaneInfo {
  pixelType: PixelType;
  pLinear: boolean;
  widthSamples: number;
  heightSamples: number;
  /** Output byte offset of each of the plane's rows in the chunk's line-interleaved layout. */
  rowByteOffsets: number[];
}

function planes(block: BlockLayout): { planes: PlaneInfo[]; totalBytes: number } {
  const xLast = block.x0 + block.widthPx - 1;
  const yLast = block.y0 + block.heightPx - 1;
  const infos: PlaneInfo[] = block.channels.map((channel) => ({
    pixelType: channel.pixelType,
    pLinear: channel.pLinear,
    widthSamples: sampleCount(channel.xSampling, block.x0, xLast),
    heightSamples: sampleCount(channel.ySampling, block.y0, yLast),
    rowByteOffsets: [],
  }));
  let byteOffset = 0;
  for (let y = block.y0; y <= yLast; y++) {
    block.channels.forEach((channel, index) => {
      if (floorMod(y, channel.ySampling) !== 0) return;
      const info = infos[index]!;
      info.rowByteOffsets.push(byteOffset);
      byteOffset += info.widthSamples * (info.pixelType === 'half' ? 2 : 4);
    });
  }
  return { planes: infos, totalBytes: byteOffset };
}

// One decoded block, reused from call to call (module state is per thread, and decoding never re-enters).
const blockValues = new Uint16Array(16);

/** Unpacks the 14-byte block at src[pos] into blockValues (ordered codes, not yet half bits). */
function unpack14(src: Uint8Array, pos: number): void {
  const b2 = src[pos + 2]!;
  const b3 = src[pos + 3]!;
  const b4 = src[pos + 4]!;
  const b5 = src[pos + 5]!;
  const b6 = src[pos + 6]!;
  const b7 = src[pos + 7]!;
  const b8 = src[pos + 8]!;
  const b9 = src[pos + 9]!;
  const b10 = src[pos + 10]!;
  const b11 = src[pos + 11]!;
  const b12 = src[pos + 12]!;
  const b13 = src[pos + 13]!;
  const shift = b2 >> 2;
  const bias = 0x20 << shift;
  const s = blockValues;
  // First column top to bottom, then each row left to right; every step adds a 6-bit difference.
  // Uint16Array stores wrap modulo 2^16 like the C unsigned short arithmetic.
  s[0] = (src[pos]! << 8) | src[pos + 1]!;
  s[4] = s[0]! + ((((b2 << 4) | (b3 >> 4)) & 0x3f) << shift) - bias;
  s[8] = s[4]! + ((((b3 << 2) | (b4 >> 6)) & 0x3f) << shift) - bias;
  s[12] = s[8]! + ((b4 & 0x3f) << shift) - bias;
  s[1] = s[0]! + ((b5 >> 2) << shift) - bias;
  s[5] = s[4]! + ((((b5 << 4) | (b6 >> 4)) & 0x3f) << shift) - bias;
  s[9] = s[8]! + ((((b6 << 2) | (b7 >> 6)) & 0x3f) << shift) - bias;
  s[13] = s[12]! + ((b7 & 0x3f) << shift) - bias;
  s[2] = s[1]! + ((b8 >> 2) << shift) - bias;
  s[6] = s[5]! + ((((b8 << 4) | (b9 >> 4)) & 0x3f) << shift) - bias;
  s[10] = s[9]! + ((((b9 << 2) | (b10 >> 6)) & 0x3f) << shift) - bias;
  s[14] = s[13]! + ((b10 & 0x3f) << shift) - bias;
  s[3] = s[2]! + ((b11 >> 2) << shift) - bias;
  s[7] = s[6]! + ((((b11 << 4) | (b12 >> 4)) & 0x3f) << shift) - bias;
  s[11] = s[10]! + ((((b12 << 2) | (b13 >> 6)) & 0x3f) << shift) - bias;
  s[15] = s[14]! + ((b13 & 0x3f) << shift) - bias;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Turns the native-order half samples into little-endian ones on a big-endian host. */
function swapHalfByteOrder(out: Uint8Array, infos: readonly PlaneInfo[]): void {
  for (const plane of infos) {
    if (plane.pixelType !== 'half') continue;
    for (const rowByteOffset of plane.rowByteOffsets) {
      for (let i = rowByteOffset; i < rowByteOffset + plane.widthSamples * 2; i += 2) {
        const low = out[i]!;
        out[i] = out[i + 1]!;
        out[i + 1] = low;
      }
    }
  }
}

export function decompressB44(src: Uint8Array, block: BlockLayout, expectedBytes: number): Uint8Array {
  const { planes: infos, totalBytes } = planes(block);
  if (totalBytes !== expectedBytes) throw invalid(`B44 chunk layout holds ${totalBytes} bytes, expected ${expectedBytes}`);
  const out = new Uint8Array(expectedBytes);
  // Every sample starts at an even byte offset: half samples are written as 16-bit units.
  const out16 = new Uint16Array(out.buffer, 0, expectedBytes >> 1);
  const srcBytes = src.length;
  const s = blockValues;
  let inPos = 0;
  for (const plane of infos) {
    const { widthSamples, heightSamples, rowByteOffsets } = plane;
    if (widthSamples === 0 || heightSamples === 0) continue;
    if (plane.pixelType !== 'half') {
      const rowBytes = widthSamples * 4;
      if (inPos + rowBytes * heightSamples > srcBytes) throw invalid('B44 chunk ends inside an uncompressed channel');
      for (let row = 0; row < heightSamples; row++) {
        out.set(src.subarray(inPos, inPos + rowBytes), rowByteOffsets[row]!);
        inPos += rowBytes;
      }
      continue;
    }
    const logTable = plane.pLinear ? b44LogTable() : null;
    for (let blockY = 0; blockY < heightSamples; blockY += 4) {
      const rows = Math.min(4, heightSamples - blockY);
      for (let blockX = 0; blockX < widthSamples; blockX += 4) {
        if (inPos + 3 > srcBytes) throw invalid('B44 chunk ends inside a block');
        if (src[inPos + 2]! >= FLAT_BLOCK_MIN_BYTE2) {
          s.fill((src[inPos]! << 8) | src[inPos + 1]!);
          inPos += 3;
        } else {
          if (inPos + 14 > srcBytes) throw invalid('B44 chunk ends inside a block');
          unpack14(src, inPos);
          inPos += 14;
        }
        const columns = Math.min(4, widthSamples - blockX);
        for (let row = 0; row < rows; row++) {
          const unit = (rowByteOffsets[blockY + row]! >> 1) + blockX;
          for (let column = 0; column < columns; column++) {
            const half = codeToHalf(s[row * 4 + column]!);
            out16[unit + column] = logTable ? logTable[half]! : half;
          }
        }
      }
    }
  }
  if (inPos !== srcBytes) throw invalid(`B44 chunk holds ${srcBytes - inPos} bytes past its last block`);
  if (!LITTLE_ENDIAN) swapHalfByteOrder(out, infos);
  return out;
}

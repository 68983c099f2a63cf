// DWAA and DWAB decompression (DreamWorks' lossy DCT codec), bit-exact with libOpenEXR 3.1.
//
// A chunk is 11 little-endian u64 counters, then (version 2) the channel classification rules,
// then four sections: UNKNOWN channels (zlib), AC coefficients (OpenEXR Huffman or zlib), DC
// coefficients (zlib + the ZIP predictor), RLE channels (zlib + byte RLE). Lossy channels are
// coded in 8x8 blocks of half-float DCT coefficients of a perceptually encoded signal; R, G, B
// of one layer are coded together as Y'CbCr. DWAA and DWAB differ only in lines per chunk.
//
// The per-block arithmetic runs in a WebAssembly SIMD kernel (dwa-wasm.ts) where it loads, else
// in TypeScript (decodeLossy, dwa-dct.ts); both reproduce the library's float32 operations.

import { ExrError, invalid, unsupported } from '../core/errors.js';
import { HALF_TO_FLOAT } from '../core/half.js';
import { floorMod, sampleCount } from '../core/sampling.js';
import { PIXEL_TYPE_BYTES, type BlockLayout, type Channel, type PixelType } from '../core/types.js';
import { csc709Inverse, halfFromFloatBits, inverseDct8x8, inverseDctDcOnly } from './dwa-dct.js';
import { ZIGZAG_ROW_START, ZIGZAG_TO_NATURAL, dwaIdentityTable, dwaToLinearTable } from './dwa-tables.js';
import { COEFFICIENT_OFFSET, IDENTITY_TABLE_OFFSET, TABLE_OFFSET, WORK_OFFSET, dwaKernel, type DwaKernel } from './dwa-wasm.js';
import { huffmanDecodeInto } from './huffman.js';
import { unpredictAndInterleave } from './predictor.js';
import { nativeCodecsInUse, type RlePlane } from './native-codecs.js';
// libdeflate through the native addon or the WebAssembly kernels where they loaded (picked once), node:zlib otherwise
import { inflateExact } from './inflate-tier.js';
import { wasmCodecsInUse } from './wasm-codecs.js';

// the AC values' Huffman decoding in the native kernels where they loaded: the TypeScript decoder is as fast once the
// JIT has tiered it up, but in every fresh worker V8 deoptimises it several times before it gets there
const huffmanDecode = nativeCodecsInUse?.huffmanDecodeInto ?? wasmCodecsInUse?.huffmanDecodeInto ?? huffmanDecodeInto;
// an RLE channel (alpha, in renders) is a per-sample byte interleave, a large share of a DWAA file's decode in JavaScript
const nativeRlePlane = nativeCodecsInUse?.dwaRlePlane;
// the DC and RLE sections' predictor and run decoding: in TypeScript they are compiled again in every worker, and
// their first real DWA chunks (larger than the warm-up image's) would otherwise compile them mid-decode
const nativeDcInto = nativeCodecsInUse?.dwaDcInto;
const nativeRleBytesInto = nativeCodecsInUse?.dwaRleBytesInto;

const COUNTER_NAMES = [
  'version',
  'unknown uncompressed size',
  'unknown compressed size',
  'AC compressed size',
  'DC compressed size',
  'RLE compressed size',
  'RLE uncompressed size',
  'RLE raw size',
  'AC value count',
  'DC value count',
  'AC compression',
] as const;
const HEADER_BYTES = COUNTER_NAMES.length * 8;
const RULE_SIZE_BYTES = 2;
/** OpenEXR's longest channel name; longer rule suffixes are damage. */
const MAX_SUFFIX_BYTES = 255;

const UNKNOWN = 0;
const LOSSY_DCT = 1;
const RLE = 2;
type Scheme = typeof UNKNOWN | typeof LOSSY_DCT | typeof RLE;

const AC_STATIC_HUFFMAN = 0;
const AC_DEFLATE = 1;

/** AC run-length symbols: 0xff00 ends the block, 0xffNN skips NN zero coefficients. */
const AC_END_OF_BLOCK = 0xff00;
const AC_RUN_MIN = 0xff00;
const AC_PER_BLOCK_MAX = 63;

/**
 * 8x8 blocks along `samples` (a block's samples: far below 2^32). In integers: Math.ceil(samples / 8) compiled on
 * the warm-up image's widths, all multiples of 8, was thrown away at the first real chunk of a cropped data window
 * (V8's "lost precision" in every worker's first DWA bands).
 */
const blocksAlong = (samples: number): number => (samples + 7) >>> 3;
/** A lossy plane's 8x8 blocks: the plane's size in samples, and its blocks across, down and in all. */
function blockGrid(plane: Plane): { width: number; height: number; blocksX: number; blocksY: number; blockCount: number } {
  const width = plane.widthSamples;
  const height = plane.heightSamples;
  const blocksX = blocksAlong(width);
  const blocksY = blocksAlong(height);
  return { width, height, blocksX, blocksY, blockCount: blocksX * blocksY };
}

const PIXEL_TYPE_BY_CODE: readonly PixelType[] = ['uint', 'half', 'float'];

/** A channel classification rule: channels whose name suffix (after the last '.') and type match get `scheme`. */
interface Rule {
  suffix: string;
  scheme: Scheme;
  pixelType: PixelType;
  /** Position in an R, G, B colour set (0..2), or -1. */
  cscIndex: number;
  caseInsensitive: boolean;
}

function rule(suffix: string, scheme: Scheme, pixelType: PixelType, cscIndex: number): Rule {
  return { suffix, scheme, pixelType, cscIndex, caseInsensitive: true };
}

/** The rules of version 0 and 1 streams, which do not carry their own. */
const LEGACY_RULES: readonly Rule[] = [
  ...(['half', 'float'] as const).flatMap((t) => [
    rule('r', LOSSY_DCT, t, 0),
    rule('red', LOSSY_DCT, t, 0),
    rule('g', LOSSY_DCT, t, 1),
    rule('grn', LOSSY_DCT, t, 1),
    rule('green', LOSSY_DCT, t, 1),
    rule('b', LOSSY_DCT, t, 2),
    rule('blu', LOSSY_DCT, t, 2),
    rule('blue', LOSSY_DCT, t, 2),
    rule('y', LOSSY_DCT, t, -1),
    rule('by', LOSSY_DCT, t, -1),
    rule('ry', LOSSY_DCT, t, -1),
  ]),
  rule('a', RLE, 'uint', -1),
  rule('a', RLE, 'half', -1),
  rule('a', RLE, 'float', -1),
];
// Rule order decides ties (the last matching rule wins); the legacy list's pairs of half and
// float rules never match the same channel, so grouping them by type changes nothing.

/** C's tolower in the "C" locale: ASCII letters only. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => String.fromCharCode(letter.charCodeAt(0) + 32));
}

function ruleMatches(r: Rule, suffix: string, pixelType: PixelType): boolean {
  if (r.pixelType !== pixelType) return false;
  return r.caseInsensitive ? asciiLower(suffix) === r.suffix : suffix === r.suffix;
}

const utf8 = new TextDecoder('utf-8', { fatal: false });
const utf8Encoder = new TextEncoder();

/** Parses the version 2 rule table: u16 size (counting itself), then per rule: suffix, NUL, flags, type. */
function readRules(src: Uint8Array, start: number, end: number): Rule[] {
  const rules: Rule[] = [];
  let pos = start;
  while (pos < end) {
    let nul = pos;
    while (nul < end && src[nul] !== 0) nul++;
    if (nul >= end || nul - pos > MAX_SUFFIX_BYTES || nul + 3 > end) throw invalid('DWA channel rule is truncated');
    const suffixBytes = src.subarray(pos, nul);
    const flags = src[nul + 1]!;
    const typeCode = src[nul + 2]!;
    // flags: csc index + 1 in the high nibble, scheme in bits 2..3, case-insensitive in bit 0
    // (read as a signed char by the library, so the top bit set is damage).
    const cscIndex = (flags >> 4) - 1;
    const scheme = (flags >> 2) & 3;
    if (flags & 0x80 || cscIndex >= 3) throw invalid('DWA channel rule has a corrupt colour set index');
    if (scheme > RLE) throw invalid('DWA channel rule has a corrupt scheme');
    const pixelType = PIXEL_TYPE_BY_CODE[typeCode];
    if (!pixelType) throw invalid('DWA channel rule has a corrupt pixel type');
    const caseInsensitive = (flags & 1) === 1;
    const suffix = utf8.decode(suffixBytes);
    rules.push({
      suffix: caseInsensitive ? asciiLower(suffix) : suffix,
      scheme: scheme as Scheme,
      pixelType,
      cscIndex,
      caseInsensitive,
    });
    pos = nul + 3;
  }
  return rules;
}

/** Byte-wise comparison of UTF-8 encodings: the order of the library's std::map of name prefixes. */
function compareBytes(a: string, b: string): number {
  const x = utf8Encoder.encode(a);
  const y = utf8Encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

interface Classification {
  schemes: Scheme[];
  /** R, G, B channel indices of each colour set, in the library's decode order. */
  cscSets: [number, number, number][];
}

/** Which scheme codes each channel, and which channels form Y'CbCr sets (as the library classifies them). */
function classify(channels: readonly Channel[], rules: readonly Rule[]): Classification {
  const schemes: Scheme[] = [];
  const setsByPrefix = new Map<string, [number, number, number]>();
  channels.forEach((channel, index) => {
    const lastDot = channel.name.lastIndexOf('.');
    const prefix = lastDot >= 0 ? channel.name.slice(0, lastDot) : '';
    const suffix = lastDot >= 0 ? channel.name.slice(lastDot + 1) : channel.name;
    let set = setsByPrefix.get(prefix);
    if (!set) {
      set = [-1, -1, -1];
      setsByPrefix.set(prefix, set);
    }
    let scheme: Scheme = UNKNOWN;
    for (const r of rules) {
      if (!ruleMatches(r, suffix, channel.pixelType)) continue;
      scheme = r.scheme;
      if (r.cscIndex >= 0) set[r.cscIndex] = index;
    }
    schemes.push(scheme);
  });
  const cscSets: [number, number, number][] = [];
  const prefixes = [...setsByPrefix.keys()].sort(compareBytes);
  for (const prefix of prefixes) {
    const set = setsByPrefix.get(prefix)!;
    const [r, g, b] = set;
    if (r < 0 || g < 0 || b < 0) continue;
    const cr = channels[r]!;
    const cg = channels[g]!;
    const cb = channels[b]!;
    if (cr.xSampling !== cg.xSampling || cr.xSampling !== cb.xSampling) continue;
    if (cr.ySampling !== cg.ySampling || cr.ySampling !== cb.ySampling) continue;
    if (schemes[r] !== LOSSY_DCT || schemes[g] !== LOSSY_DCT || schemes[b] !== LOSSY_DCT) {
      throw invalid('DWA colour set holds a channel that is not lossy');
    }
    // Only crafted rules can put one channel in two slots; the library's result then depends on
    // stale buffer contents.
    if (r === g || r === b || g === b) throw invalid('DWA colour set uses one channel twice');
    cscSets.push([r, g, b]);
  }
  return { schemes, cscSets };
}

/** Where one channel's samples go in the chunk. */
interface Plane {
  channel: Channel;
  widthSamples: number;
  heightSamples: number;
  bytesPerSample: number;
  /** Byte offset in the output of each of the channel's rows in the chunk. */
  rowOffsets: Int32Array;
}

/** Each channel's plane in the chunk and where its rows lie in the output: rows interleaved channel by channel, line by line. */
function layOut(block: BlockLayout): { planes: Plane[]; totalBytes: number } {
  // plain loops, no callbacks: run once a chunk, this was compiled again in every worker's first real DWA bands
  const xLast = block.x0 + block.widthPx - 1;
  const yLast = block.y0 + block.heightPx - 1;
  const channels = block.channels;
  const count = channels.length;
  const planes: Plane[] = [];
  for (let c = 0; c < count; c++) {
    const channel = channels[c]!;
    const heightSamples = sampleCount(channel.ySampling, block.y0, yLast);
    planes.push({
      channel,
      widthSamples: sampleCount(channel.xSampling, block.x0, xLast),
      heightSamples,
      bytesPerSample: PIXEL_TYPE_BYTES[channel.pixelType],
      rowOffsets: new Int32Array(heightSamples),
    });
  }
  const rowsDone = new Int32Array(count);
  let offset = 0;
  for (let y = block.y0; y <= yLast; y++) {
    for (let c = 0; c < count; c++) {
      const plane = planes[c]!;
      if (floorMod(y, plane.channel.ySampling) !== 0) continue;
      plane.rowOffsets[rowsDone[c]!++] = offset;
      offset += plane.widthSamples * plane.bytesPerSample;
    }
  }
  return { planes, totalBytes: offset };
}

/** Reads the 64-bit counters; none can be meaningful at 2^53 or above (the library also rejects negatives). */
function readCounters(src: Uint8Array): number[] {
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  return COUNTER_NAMES.map((name, i) => {
    const low = view.getUint32(i * 8, true);
    const high = view.getUint32(i * 8 + 4, true);
    if (high >= 0x200000) throw invalid(`DWA ${name} is out of range`);
    return high * 0x100000000 + low;
  });
}

/** zlib-then-RLE channel data: signed count c; c < 0: -c literal bytes; else the next byte c + 1 times. */
/** The RLE section's decoded bytes, reused from chunk to chunk: they are copied into the chunk before decompressDwaInto returns. */
let rleScratch = new Uint8Array(0);

/** The first `rawBytes` of this thread's rleScratch, grown to hold them. */
function rleScratchOf(rawBytes: number): Uint8Array {
  if (rleScratch.length < rawBytes) rleScratch = new Uint8Array(rawBytes);
  return rleScratch.subarray(0, rawBytes);
}

/** Byte RLE into this thread's rleScratch; the result is valid until the next chunk (exported as the native kernel's oracle). */
export function rleDecode(src: Uint8Array, rawBytes: number): Uint8Array {
  const out = rleScratchOf(rawBytes);
  let inPos = 0;
  let outPos = 0;
  while (inPos < src.length) {
    const count = src[inPos++]!;
    if (count >= 128) {
      const literalBytes = 256 - count;
      if (inPos + literalBytes > src.length) throw invalid('DWA RLE literal run extends past its data');
      if (outPos + literalBytes > rawBytes) throw invalid('DWA RLE data decodes to more bytes than declared');
      out.set(src.subarray(inPos, inPos + literalBytes), outPos);
      inPos += literalBytes;
      outPos += literalBytes;
    } else {
      if (inPos >= src.length) throw invalid('DWA RLE run is missing its value');
      if (outPos + count + 1 > rawBytes) throw invalid('DWA RLE data decodes to more bytes than declared');
      out.fill(src[inPos++]!, outPos, outPos + count + 1);
      outPos += count + 1;
    }
  }
  if (outPos !== rawBytes) throw invalid(`DWA RLE data decodes to ${outPos} bytes, expected ${rawBytes}`);
  return out;
}

/** inflateExact with zlib's own failures (corrupt stream, output over the bound) reported as damage. */
function inflateSection(src: Uint8Array, expectedBytes: number, what: string): Uint8Array {
  try {
    return inflateExact(src, expectedBytes, what);
  } catch (error) {
    if (error instanceof ExrError) throw error;
    throw invalid(`${what} data is corrupt (${(error as Error).message})`);
  }
}

/** One RLE channel's byte planes (from `start` in `data`) into its rows, as little-endian words (the native kernel's oracle). */
export function copyRlePlane(data: Uint8Array, start: number, plane: RlePlane, out16: Uint16Array): void {
  const width = plane.widthSamples;
  const planeSamples = width * plane.heightSamples;
  const wide = plane.bytesPerSample === 4;
  for (let row = 0; row < plane.heightSamples; row++) {
    const low = start + row * width;
    const high = low + planeSamples;
    let word = plane.rowOffsets[row]! >> 1; // row offsets are always even
    if (wide) {
      const third = high + planeSamples;
      const fourth = third + planeSamples;
      for (let x = 0; x < width; x++) {
        out16[word++] = data[low + x]! | (data[high + x]! << 8);
        out16[word++] = data[third + x]! | (data[fourth + x]! << 8);
      }
    } else {
      for (let x = 0; x < width; x++) out16[word++] = data[low + x]! | (data[high + x]! << 8);
    }
  }
}

/** Little-endian u16 values of a byte array (a view when aligned). */
function u16View(bytes: Uint8Array): Uint16Array {
  if (bytes.byteOffset % 2 === 0) return new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length >> 1);
  return new Uint16Array(bytes.slice().buffer, 0, bytes.length >> 1);
}

const IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The float32 bit pattern of each half, for writing FLOAT channels as two u16 words. */
const HALF_TO_FLOAT_BITS = new Uint32Array(HALF_TO_FLOAT.buffer, HALF_TO_FLOAT.byteOffset, 65536);

/** How many trailing rows of the block are all zero, given the zig-zag index of the last non-zero coefficient. */
const ZEROED_ROWS_BY_LAST = (() => {
  const table = new Uint8Array(64);
  for (let last = 0; last < 64; last++) {
    let rowsUsed = 1;
    while (rowsUsed < 8 && last >= ZIGZAG_ROW_START[rowsUsed]!) rowsUsed++;
    table[last] = 8 - rowsUsed;
  }
  return table;
})();

// Scratch for the block decoder, reused across chunks (decoding is synchronous).
const blockFloats = [new Float32Array(64), new Float32Array(64), new Float32Array(64)] as const;
const blockBits = blockFloats.map((b) => new Uint32Array(b.buffer));
const acZigIndex = new Uint8Array(64);
const acValue = new Uint16Array(64);
/** Output word index of each of the (up to) 8 rows of the current block row, per component. */
const rowWords = new Int32Array(3 * 8);
let acScratch = new Uint16Array(0);
/** The DC values, reused as acScratch is (the native kernel's output). */
let dcScratch = new Uint16Array(0);

/** Where the AC and DC readers stand. */
interface CoefficientCursor {
  ac: Uint16Array;
  acPos: number;
  dc: Uint16Array;
  dcPos: number;
}

/**
 * Decodes one lossy plane, or three planes coded together as Y'CbCr, into `out16` (the chunk as
 * u16 words): block by block, AC un-RLE and un-zig-zag, inverse DCT, colour conversion, float to
 * half, then through `toLinear` into the block's place in each row, widened to float for FLOAT
 * channels. The library converts whole blocks and crops afterwards; converting only the pixels
 * that land in the chunk gives the same values.
 */
function decodeLossy(planes: readonly Plane[], toLinear: Uint16Array, cursor: CoefficientCursor, out16: Uint16Array): void {
  const componentCount = planes.length;
  const { width, height, blocksX, blocksY, blockCount } = blockGrid(planes[0]!);
  const isFloat0 = planes[0]!.channel.pixelType === 'float';
  const isFloat1 = componentCount === 3 && planes[1]!.channel.pixelType === 'float';
  const isFloat2 = componentCount === 3 && planes[2]!.channel.pixelType === 'float';

  const dc = cursor.dc;
  const dcStart = cursor.dcPos;
  if (dcStart + componentCount * blockCount > dc.length) throw invalid('DWA DC data ends early');
  cursor.dcPos = dcStart + componentCount * blockCount;
  const ac = cursor.ac;
  const acEnd = ac.length;
  let acPos = cursor.acPos;

  const dcOnlyValue = [0, 0, 0];
  const isDcOnly = [false, false, false];

  for (let blockY = 0; blockY < blocksY; blockY++) {
    const firstRow = blockY * 8;
    const rowsHere = Math.min(8, height - firstRow);
    for (let comp = 0; comp < componentCount; comp++) {
      const rowOffsets = planes[comp]!.rowOffsets;
      for (let r = 0; r < rowsHere; r++) rowWords[comp * 8 + r] = rowOffsets[firstRow + r]! >> 1;
    }

    for (let blockX = 0; blockX < blocksX; blockX++) {
      const columns = Math.min(8, width - blockX * 8);
      let blockIsConstant = true;
      for (let comp = 0; comp < componentCount; comp++) {
        const dcBits = dc[dcStart + comp * blockCount + blockY * blocksX + blockX]!;

        // AC un-RLE: literal halves at increasing zig-zag positions, runs of zeros, end of block.
        let zig = 1;
        let lastNonZero = 0;
        let literalCount = 0;
        while (zig < 64) {
          if (acPos >= acEnd) throw invalid('DWA AC data ends early');
          const symbol = ac[acPos++]!;
          if (symbol >= AC_RUN_MIN) {
            if (symbol === AC_END_OF_BLOCK) break;
            zig += symbol & 0xff;
          } else {
            acZigIndex[literalCount] = zig;
            acValue[literalCount] = symbol;
            literalCount++;
            lastNonZero = zig;
            zig++;
          }
        }

        if (lastNonZero === 0) {
          isDcOnly[comp] = true;
          dcOnlyValue[comp] = inverseDctDcOnly(HALF_TO_FLOAT[dcBits]!);
        } else {
          isDcOnly[comp] = false;
          blockIsConstant = false;
          const floats = blockFloats[comp]!;
          floats.fill(0);
          floats[0] = HALF_TO_FLOAT[dcBits]!;
          for (let i = 0; i < literalCount; i++) floats[ZIGZAG_TO_NATURAL[acZigIndex[i]!]!] = HALF_TO_FLOAT[acValue[i]!]!;
          inverseDct8x8(floats, ZEROED_ROWS_BY_LAST[lastNonZero]!);
        }
      }

      if (blockIsConstant) {
        // Every component is flat: convert one value each and fill the block with it.
        for (let comp = 0; comp < componentCount; comp++) blockFloats[comp]![0] = dcOnlyValue[comp]!;
        if (componentCount === 3) csc709Inverse(blockFloats[0], blockFloats[1], blockFloats[2], 1);
        for (let comp = 0; comp < componentCount; comp++) {
          const linear = toLinear[halfFromFloatBits(blockBits[comp]![0]!)]!;
          const isFloat = comp === 0 ? isFloat0 : comp === 1 ? isFloat1 : isFloat2;
          if (isFloat) {
            const bits = HALF_TO_FLOAT_BITS[linear]!;
            const low = bits & 0xffff;
            const high = bits >>> 16;
            for (let r = 0; r < rowsHere; r++) {
              let word = rowWords[comp * 8 + r]! + blockX * 16;
              for (let x = 0; x < columns; x++) {
                out16[word++] = low;
                out16[word++] = high;
              }
            }
          } else {
            for (let r = 0; r < rowsHere; r++) {
              const word = rowWords[comp * 8 + r]! + blockX * 8;
              for (let x = 0; x < columns; x++) out16[word + x] = linear;
            }
          }
        }
        continue;
      }

      for (let comp = 0; comp < componentCount; comp++) {
        if (isDcOnly[comp]) blockFloats[comp]!.fill(dcOnlyValue[comp]!);
      }
      if (componentCount === 3) csc709Inverse(blockFloats[0], blockFloats[1], blockFloats[2], 64);
      for (let comp = 0; comp < componentCount; comp++) {
        const bits = blockBits[comp]!;
        const isFloat = comp === 0 ? isFloat0 : comp === 1 ? isFloat1 : isFloat2;
        for (let r = 0; r < rowsHere; r++) {
          const src = r * 8;
          if (isFloat) {
            let word = rowWords[comp * 8 + r]! + blockX * 16;
            for (let x = 0; x < columns; x++) {
              const floatBits = HALF_TO_FLOAT_BITS[toLinear[halfFromFloatBits(bits[src + x]!)]!]!;
              out16[word++] = floatBits & 0xffff;
              out16[word++] = floatBits >>> 16;
            }
          } else {
            const word = rowWords[comp * 8 + r]! + blockX * 8;
            for (let x = 0; x < columns; x++) out16[word + x] = toLinear[halfFromFloatBits(bits[src + x]!)]!;
          }
        }
      }
    }
  }
  cursor.acPos = acPos;
}

/** Where a chunk's coefficients sit in the kernel's memory. */
interface KernelChunk {
  kernel: DwaKernel;
  /** Byte offsets of the AC and DC values (u16) and the end of the AC values. */
  acOffset: number;
  acEnd: number;
  dcOffset: number;
}

/**
 * Copies the chunk's AC and DC values into the kernel's memory, after room for the widest lossy
 * plane's rows of halves (three components, eight rows, whole blocks).
 */
function prepareKernel(kernel: DwaKernel, ac: Uint16Array, dc: Uint16Array, maxBlocksX: number): KernelChunk {
  const rowsBytes = 3 * 8 * maxBlocksX * 8 * 2;
  const dcOffset = WORK_OFFSET + rowsBytes;
  const acOffset = dcOffset + ((dc.length * 2 + 15) & ~15);
  kernel.reserve(acOffset - WORK_OFFSET + ac.length * 2);
  new Uint16Array(kernel.memory.buffer, dcOffset, dc.length).set(dc);
  new Uint16Array(kernel.memory.buffer, acOffset, ac.length).set(ac);
  new Float32Array(kernel.memory.buffer, COEFFICIENT_OFFSET, 3 * 64).fill(0); // a failed chunk may leave some behind
  return { kernel, acOffset, acEnd: acOffset + ac.length * 2, dcOffset };
}

/**
 * The same decoding as decodeLossy, done by the WebAssembly kernel a row of blocks at a time;
 * here only the copy of its rows of halves into the chunk (widened for FLOAT channels).
 */
function decodeLossyKernel(
  planes: readonly Plane[],
  identity: boolean,
  cursor: CoefficientCursor,
  out16: Uint16Array,
  chunk: KernelChunk,
): void {
  const componentCount = planes.length;
  const { width, height, blocksX, blocksY, blockCount } = blockGrid(planes[0]!);
  const dcStart = cursor.dcPos;
  if (dcStart + componentCount * blockCount > cursor.dc.length) throw invalid('DWA DC data ends early');
  cursor.dcPos = dcStart + componentCount * blockCount;

  const { kernel, acOffset, acEnd, dcOffset } = chunk;
  const rowWords = blocksX * 8;
  const rows = new Uint16Array(kernel.memory.buffer, WORK_OFFSET, componentCount * 8 * rowWords);
  const componentsAndTable = componentCount | (identity ? IDENTITY_TABLE_OFFSET : TABLE_OFFSET);
  let acAddress = acOffset + cursor.acPos * 2;
  for (let blockY = 0; blockY < blocksY; blockY++) {
    const dcAddress = dcOffset + (dcStart + blockY * blocksX) * 2;
    acAddress = kernel.row(acEnd, acAddress, dcAddress, blockCount * 2, blocksX, componentsAndTable, WORK_OFFSET, rowWords * 2);
    if (acAddress < 0) throw invalid('DWA AC data ends early');

    const firstRow = blockY * 8;
    const rowsHere = Math.min(8, height - firstRow);
    for (let comp = 0; comp < componentCount; comp++) {
      const plane = planes[comp]!;
      for (let r = 0; r < rowsHere; r++) {
        const src = (comp * 8 + r) * rowWords;
        const dst = plane.rowOffsets[firstRow + r]! >> 1;
        if (plane.channel.pixelType === 'half') {
          out16.set(rows.subarray(src, src + width), dst);
        } else {
          let word = dst;
          for (let x = 0; x < width; x++) {
            const bits = HALF_TO_FLOAT_BITS[rows[src + x]!]!;
            out16[word++] = bits & 0xffff;
            out16[word++] = bits >>> 16;
          }
        }
      }
    }
  }
  cursor.acPos = (acAddress - acOffset) / 2;
}

let kernelEnabled = true;

/** Turns the WebAssembly kernel off or on (tests and benchmarks compare the two paths). */
export function useDwaKernel(enabled: boolean): void {
  kernelEnabled = enabled;
}

export function decompressDwa(src: Uint8Array, block: BlockLayout, expectedBytes: number): Uint8Array {
  const out = new Uint8Array(expectedBytes);
  decompressDwaInto(src, block, out);
  return out;
}

/**
 * One DWAA or DWAB chunk into `out` (its uncompressed size): every byte is written, so a reused
 * buffer or the shared chunk store can take it without zero-filling or a copy.
 */
export function decompressDwaInto(src: Uint8Array, block: BlockLayout, out: Uint8Array): void {
  const expectedBytes = out.length;
  if (!IS_LITTLE_ENDIAN) throw unsupported('DWA decoding needs a little-endian host');
  if (src.length < HEADER_BYTES) throw invalid('DWA chunk is shorter than its header');
  const [
    version,
    unknownRawBytes,
    unknownPackedBytes,
    acPackedBytes,
    dcPackedBytes,
    rlePackedBytes,
    rleUnpackedBytes,
    rleRawBytes,
    acCount,
    dcCount,
    acCompression,
  ] = readCounters(src) as [number, number, number, number, number, number, number, number, number, number, number];
  if (version > 2) throw invalid(`DWA stream version ${version} is not one the library writes`);

  let pos = HEADER_BYTES;
  let rules: readonly Rule[] = LEGACY_RULES;
  if (version >= 2) {
    if (pos + RULE_SIZE_BYTES > src.length) throw invalid('DWA rule table is truncated');
    const ruleBytes = src[pos]! | (src[pos + 1]! << 8);
    if (ruleBytes < RULE_SIZE_BYTES || pos + ruleBytes > src.length) throw invalid('DWA rule table is truncated');
    rules = readRules(src, pos + RULE_SIZE_BYTES, pos + ruleBytes);
    pos += ruleBytes;
  }
  // Each size is below 2^53, so the sum is exact.
  const packedEnd = pos + unknownPackedBytes + acPackedBytes + dcPackedBytes + rlePackedBytes;
  if (packedEnd > src.length) throw invalid('DWA sections extend past the end of the chunk');

  const { planes, totalBytes } = layOut(block);
  if (totalBytes !== expectedBytes) throw invalid(`DWA chunk layout holds ${totalBytes} bytes, expected ${expectedBytes}`);
  const { schemes, cscSets } = classify(block.channels, rules);

  let unknownBytes = 0;
  let rleBytes = 0;
  let lossyPlaneCount = 0;
  planes.forEach((plane, index) => {
    const bytes = plane.widthSamples * plane.heightSamples * plane.bytesPerSample;
    if (schemes[index] === UNKNOWN) unknownBytes += bytes;
    else if (schemes[index] === RLE) rleBytes += bytes;
    else if (plane.channel.pixelType === 'uint') throw unsupported('DWA lossy coding of a uint channel');
    else lossyPlaneCount++;
  });
  const lossyJobs: number[][] = cscSets.map((set) => [...set]);
  const inColourSet = new Set(cscSets.flat());
  planes.forEach((_, index) => {
    if (schemes[index] === LOSSY_DCT && !inColourSet.has(index)) lossyJobs.push([index]);
  });
  let dcNeeded = 0;
  for (const job of lossyJobs) {
    const plane = planes[job[0]!]!;
    dcNeeded += job.length * blocksAlong(plane.widthSamples) * blocksAlong(plane.heightSamples);
  }
  // The library's buffer bounds: one DC and at most 63 AC values per block of every lossy channel.
  const dcBound = blocksAlong(block.widthPx) * blocksAlong(block.heightPx) * lossyPlaneCount;

  const unknownStart = pos;
  const acStart = unknownStart + unknownPackedBytes;
  const dcStart = acStart + acPackedBytes;
  const rleStart = dcStart + dcPackedBytes;

  let unknownData: Uint8Array | undefined;
  if (unknownPackedBytes > 0) {
    if (unknownRawBytes > expectedBytes) throw invalid('DWA unknown-channel size exceeds the chunk');
    unknownData = inflateSection(src.subarray(unknownStart, acStart), unknownRawBytes, 'DWA unknown-channel');
  }
  if ((unknownData?.length ?? 0) < unknownBytes) throw invalid('DWA unknown-channel data is shorter than its channels');

  let ac: Uint16Array = new Uint16Array(0);
  if (acPackedBytes > 0) {
    if (acCount > AC_PER_BLOCK_MAX * dcBound) throw invalid('DWA AC value count exceeds the chunk');
    const acPacked = src.subarray(acStart, dcStart);
    if (acCompression === AC_STATIC_HUFFMAN) {
      // Decoded into a reused buffer: the AC values are consumed before this function returns.
      if (acScratch.length < acCount) acScratch = new Uint16Array(acCount);
      ac = acScratch.subarray(0, acCount);
      huffmanDecode(acPacked, ac);
    } else if (acCompression === AC_DEFLATE) {
      ac = u16View(inflateSection(acPacked, acCount * 2, 'DWA AC'));
    } else {
      throw invalid(`DWA AC compression ${acCompression} is unknown`);
    }
  }

  let dc: Uint16Array = new Uint16Array(0);
  if (dcPackedBytes > 0) {
    if (dcCount > dcBound) throw invalid('DWA DC value count exceeds the chunk');
    const dcPacked = src.subarray(dcStart, rleStart);
    if (nativeDcInto) {
      if (dcScratch.length < dcCount) dcScratch = new Uint16Array(dcCount);
      dc = dcScratch.subarray(0, dcCount);
      nativeDcInto(dcPacked, new Uint8Array(dc.buffer, dc.byteOffset, dc.byteLength));
    } else {
      dc = u16View(unpredictAndInterleave(inflateSection(dcPacked, dcCount * 2, 'DWA DC')));
    }
  } else if (dcCount !== 0) {
    throw invalid('DWA DC values are declared but absent');
  }
  if (dc.length < dcNeeded) throw invalid(`DWA chunk holds ${dc.length} DC values, its channels need ${dcNeeded}`);

  let rleData: Uint8Array | undefined;
  if (rleRawBytes > 0) {
    if (rleRawBytes > expectedBytes) throw invalid('DWA RLE raw size exceeds the chunk');
    // Byte RLE never grows data by more than one count byte per 127 bytes.
    if (rleUnpackedBytes > 2 * rleRawBytes + 2) throw invalid('DWA RLE size is out of range');
    const unpacked = inflateSection(src.subarray(rleStart, rleStart + rlePackedBytes), rleUnpackedBytes, 'DWA RLE');
    if (nativeRleBytesInto) {
      rleData = rleScratchOf(rleRawBytes);
      nativeRleBytesInto(unpacked, rleData);
    } else {
      rleData = rleDecode(unpacked, rleRawBytes);
    }
  }
  if ((rleData?.length ?? 0) < rleBytes) throw invalid('DWA RLE data is shorter than its channels');

  // the views share out's byte offset, which is even: chunk stores and reused buffers hold whole samples
  if (out.byteOffset % 2 !== 0) throw new RangeError('DWA output must start on a 2-byte boundary');
  const out16 = new Uint16Array(out.buffer, out.byteOffset, expectedBytes >> 1);
  const cursor: CoefficientCursor = { ac, acPos: 0, dc, dcPos: 0 };
  const toLinear = dwaToLinearTable();
  const kernel = kernelEnabled && lossyJobs.length > 0 ? dwaKernel(toLinear, HALF_TO_FLOAT, ZIGZAG_TO_NATURAL, ZEROED_ROWS_BY_LAST) : null;
  const maxBlocksX = Math.max(0, ...lossyJobs.map((job) => blocksAlong(planes[job[0]!]!.widthSamples)));
  const kernelChunk = kernel ? prepareKernel(kernel, ac, dc, maxBlocksX) : null;
  for (const job of lossyJobs) {
    const jobPlanes = job.map((index) => planes[index]!);
    // Colour sets always go through the transfer curve; single channels only when not pLinear.
    const identity = job.length === 1 && jobPlanes[0]!.channel.pLinear;
    if (kernelChunk) decodeLossyKernel(jobPlanes, identity, cursor, out16, kernelChunk);
    else decodeLossy(jobPlanes, identity ? dwaIdentityTable() : toLinear, cursor, out16);
  }

  // RLE channels: planar bytes (all low bytes, then the next byte, ...), channel after channel.
  // UNKNOWN channels: their rows back to back, channel after channel.
  let rlePos = 0;
  let unknownPos = 0;
  for (let index = 0; index < planes.length; index++) {
    const plane = planes[index]!;
    if (schemes[index] === RLE) {
      if (nativeRlePlane) nativeRlePlane(rleData!, rlePos, plane, out);
      else copyRlePlane(rleData!, rlePos, plane, out16);
      rlePos += plane.widthSamples * plane.heightSamples * plane.bytesPerSample;
    } else if (schemes[index] === UNKNOWN) {
      const rowBytes = plane.widthSamples * plane.bytesPerSample;
      for (let row = 0; row < plane.heightSamples; row++) {
        out.set(unknownData!.subarray(unknownPos, unknownPos + rowBytes), plane.rowOffsets[row]!);
        unknownPos += rowBytes;
      }
    }
  }
}

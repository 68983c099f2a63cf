// OpenEXR's Huffman coder for 16-bit values (PIZ, and the AC coefficients of DWAA/DWAB).
//
// Block format (all integers little-endian u32):
//   im, iM          smallest and largest symbol in the code table; iM is also the run-length symbol
//   tableLength     bytes of the packed code-length table (not trusted: the table is self-delimiting)
//   nBits           bits of coded data after the table
//   reserved        0
//   packed table    6-bit code lengths for symbols im..iM, MSB first; 59..62 = 2..5 zero lengths,
//                   63 + 8 bits = 6..261 zero lengths
//   coded data      MSB-first codes; the run-length symbol is followed by 8 bits: how many more
//                   copies of the previous value to emit
//
// Codes are canonical with longer codes numerically lower. That gives two properties the decoder
// relies on: the first code of every length is at most the number of longer codes (so every code
// value fits easily in a double), and the L-bit prefix of any longer code is below firstCode[L].

import { invalid } from '../core/errors.js';

const HEADER_BYTES = 20;
/** 65536 values plus the run-length pseudo-symbol. */
const SYMBOL_COUNT = 65537;
const MAX_CODE_BITS = 58;
const SHORT_ZEROCODE_RUN = 59;
const LONG_ZEROCODE_RUN = 63;
const SHORTEST_LONG_RUN = 2 + LONG_ZEROCODE_RUN - SHORT_ZEROCODE_RUN;
const LONGEST_LONG_RUN = 255 + SHORTEST_LONG_RUN;
/** First-level lookup width: 64 KiB of Int32 entries, resolves every code up to this length at once. */
const LOOKUP_BITS = 14;
/** Longest code the fast path resolves from its 32-bit window (it holds at least 24 bits there). */
const WINDOW_CODE_BITS = 24;
/** At best one value per bit for plain codes; a run (rlc code + 8 bits) yields 255 values in 9 bits. */
const MAX_VALUES_PER_BIT = 29;
/** Lookup entries for the run-length code are -(RLC_ENTRY + length), below every long-code hint. */
const RLC_ENTRY = 64;

// Decoder state, reused between calls: a worker decodes one block at a time and nothing here
// calls out, so one set of tables per thread is enough and saves ~400 KiB of allocation per block.
const codeLength = new Uint8Array(SYMBOL_COUNT);
const lengthCount = new Int32Array(MAX_CODE_BITS + 2);
/** Canonical first (lowest) code of each length; at most SYMBOL_COUNT, see the header comment. */
const firstCode = new Int32Array(MAX_CODE_BITS + 2);
/** Index in symbolsByCode of the first symbol of each code length. */
const symbolOffset = new Int32Array(MAX_CODE_BITS + 2);
/** Symbols ordered by code length, then by code (= by symbol within a length). */
const symbolsByCode = new Int32Array(SYMBOL_COUNT);
const rankCursor = new Int32Array(MAX_CODE_BITS + 2);
/**
 * Indexed by the next LOOKUP_BITS bits: (symbol << 6) | length for codes up to LOOKUP_BITS long,
 * except the run-length code: -(RLC_ENTRY + length), so the common case is just entry > 0;
 * -length of the shortest longer code with that prefix; 0 where no code starts with the prefix.
 */
const lookup = new Int32Array(1 << LOOKUP_BITS);

interface CodeShape {
  minLength: number;
  maxLength: number;
}

function readU32(src: Uint8Array, at: number): number {
  return (src[at]! | (src[at + 1]! << 8) | (src[at + 2]! << 16) | (src[at + 3]! << 24)) >>> 0;
}

function writeU32(dst: Uint8Array, at: number, value: number): void {
  dst[at] = value;
  dst[at + 1] = value >>> 8;
  dst[at + 2] = value >>> 16;
  dst[at + 3] = value >>> 24;
}

/** Unpacks the code lengths of symbols im..iM into codeLength; returns the byte offset just past the table. */
function readCodeLengths(src: Uint8Array, im: number, iM: number): number {
  const end = src.length;
  let pos = HEADER_BYTES;
  let bits = 0;
  let bitCount = 0;
  for (let symbol = im; symbol <= iM; symbol++) {
    if (bitCount < 6) {
      if (pos >= end) throw invalid('Huffman code table is truncated');
      bits = (bits << 8) | src[pos++]!;
      bitCount += 8;
    }
    bitCount -= 6;
    const length = (bits >>> bitCount) & 63;
    bits &= (1 << bitCount) - 1;
    if (length < SHORT_ZEROCODE_RUN) {
      codeLength[symbol] = length;
      continue;
    }
    let run: number;
    if (length === LONG_ZEROCODE_RUN) {
      if (bitCount < 8) {
        if (pos >= end) throw invalid('Huffman code table is truncated');
        bits = (bits << 8) | src[pos++]!;
        bitCount += 8;
      }
      bitCount -= 8;
      run = ((bits >>> bitCount) & 255) + SHORTEST_LONG_RUN;
      bits &= (1 << bitCount) - 1;
    } else {
      run = length - SHORT_ZEROCODE_RUN + 2;
    }
    if (symbol + run > iM + 1) throw invalid('Huffman code table runs past its last symbol');
    codeLength.fill(0, symbol, symbol + run);
    symbol += run - 1;
  }
  return pos;
}

/**
 * Builds the canonical code from codeLength[im..iM] and the lookup table. Rejects tables whose
 * canonical assignment is not a prefix code (over-subscribed, or a shorter code that would be the
 * prefix of a longer one); incomplete but prefix-free tables are accepted.
 */
function buildDecoder(im: number, iM: number): CodeShape {
  lengthCount.fill(0);
  for (let symbol = im; symbol <= iM; symbol++) lengthCount[codeLength[symbol]!]!++;
  let minLength = 0;
  let maxLength = 0;
  for (let length = 1; length <= MAX_CODE_BITS; length++) {
    if (lengthCount[length] === 0) continue;
    if (minLength === 0) minLength = length;
    maxLength = length;
  }
  if (maxLength === 0) return { minLength, maxLength };

  // Longest codes first: firstCode[L - 1] = (firstCode[L] + count[L]) / 2. An odd sum at a level
  // where shorter codes exist means a code of that level would prefix a longer one.
  let code = 0;
  for (let length = MAX_CODE_BITS; length >= 1; length--) {
    firstCode[length] = code;
    const next = code + lengthCount[length]!;
    if ((next & 1) !== 0 && length - 1 >= minLength) throw invalid('Huffman code table is not a prefix code');
    code = next >> 1;
  }
  if (firstCode[minLength]! + lengthCount[minLength]! > 2 ** minLength) {
    throw invalid('Huffman code table is over-subscribed');
  }

  let offset = 0;
  for (let length = 1; length <= maxLength; length++) {
    symbolOffset[length] = offset;
    offset += lengthCount[length]!;
  }
  // symbolOffset[L] + rank is each symbol's slot; symbols of one length are in ascending order.
  const cursor = rankCursor;
  cursor.fill(0);
  for (let symbol = im; symbol <= iM; symbol++) {
    const length = codeLength[symbol]!;
    if (length === 0) continue;
    symbolsByCode[symbolOffset[length]! + cursor[length]!++] = symbol;
  }

  // Always the full width: a constant shift in the hot loop is measurably faster than a variable one.
  const lookupBits = LOOKUP_BITS;
  lookup.fill(0, 0, 1 << lookupBits);
  for (let length = minLength; length <= lookupBits; length++) {
    const span = 1 << (lookupBits - length);
    const count = lengthCount[length]!;
    const base = symbolOffset[length]!;
    let start = firstCode[length]! * span;
    for (let rank = 0; rank < count; rank++) {
      const symbol = symbolsByCode[base + rank]!;
      const entry = symbol === iM ? -(RLC_ENTRY + length) : (symbol << 6) | length;
      // Most codes are long and cover a few entries: a loop beats a call to fill() there.
      if (span < 32) for (let end = start + span; start < end; start++) lookup[start] = entry;
      else {
        lookup.fill(entry, start, start + span);
        start += span;
      }
    }
  }
  for (let length = lookupBits + 1; length <= maxLength; length++) {
    const shift = length - lookupBits;
    const count = lengthCount[length]!;
    const first = firstCode[length]!;
    for (let rank = 0; rank < count; rank++) {
      // Code values stay below 2^18, so a shift of 18 or more leaves the prefix 0.
      const prefix = shift < 31 ? (first + rank) >>> shift : 0;
      if (lookup[prefix] === 0) lookup[prefix] = -length;
    }
  }
  return { minLength, maxLength };
}

/**
 * Decodes one code bit by bit from the data, starting at bit `pos` (relative to dataStart);
 * returns (symbol << 6) | length. Used for codes longer than the fast window and near the end.
 */
function decodeCodeSlowly(src: Uint8Array, dataStart: number, pos: number, endBit: number, shape: CodeShape): number {
  let value = 0;
  for (let length = 1; length <= shape.maxLength; length++) {
    const bit = pos + length - 1;
    if (bit >= endBit) throw invalid('Huffman data ends inside a code');
    value = value * 2 + ((src[dataStart + (bit >>> 3)]! >>> (7 - (bit & 7))) & 1);
    if (length < shape.minLength) continue;
    const first = firstCode[length]!;
    if (value >= first) {
      const rank = value - first;
      if (rank >= lengthCount[length]!) break;
      return (symbolsByCode[symbolOffset[length]! + rank]! << 6) | length;
    }
  }
  throw invalid('Huffman data holds an undefined code');
}

function readByteSlowly(src: Uint8Array, dataStart: number, pos: number, endBit: number): number {
  if (pos + 8 > endBit) throw invalid('Huffman data ends inside a run length');
  const at = dataStart + (pos >>> 3);
  const shift = pos & 7;
  return shift === 0 ? src[at]! : ((src[at]! << shift) | (src[at + 1]! >>> (8 - shift))) & 255;
}

/** Upper bound of decoded values that nBits of coded data can produce (rejects absurd requests before allocating). */
function checkPlausible(src: Uint8Array, outCount: number): void {
  if (src.length < HEADER_BYTES) {
    if (outCount !== 0) throw invalid(`Huffman block of ${src.length} bytes is shorter than its header`);
    return;
  }
  const nBits = readU32(src, 12);
  if (outCount > nBits * MAX_VALUES_PER_BIT + 1) {
    throw invalid(`Huffman block of ${nBits} bits cannot hold ${outCount} values`);
  }
}

/** Decodes a whole Huffman block (from its 20-byte header) into outCount 16-bit values. */
export function huffmanDecompress(src: Uint8Array, outCount: number): Uint16Array {
  if (!Number.isSafeInteger(outCount) || outCount < 0) throw invalid(`bad Huffman output count ${outCount}`);
  checkPlausible(src, outCount);
  const out = new Uint16Array(outCount);
  huffmanDecodeInto(src, out);
  return out;
}

/** Decodes a whole Huffman block into `out`, which it fills exactly. */
export function huffmanDecodeInto(src: Uint8Array, out: Uint16Array): void {
  const outCount = out.length;
  checkPlausible(src, outCount);
  if (src.length < HEADER_BYTES) return;
  const im = readU32(src, 0);
  const iM = readU32(src, 4);
  const nBits = readU32(src, 12);
  if (im >= SYMBOL_COUNT || iM >= SYMBOL_COUNT || im > iM) {
    throw invalid(`Huffman symbol range ${im}..${iM} is out of bounds`);
  }
  const dataStart = readCodeLengths(src, im, iM);
  const dataEnd = dataStart + Math.ceil(nBits / 8);
  if (dataEnd > src.length) throw invalid(`Huffman data of ${nBits} bits runs past the end of its block`);
  if (outCount === 0) return;
  const shape = buildDecoder(im, iM);
  if (shape.maxLength === 0) throw invalid('Huffman code table is empty');

  const rlc = iM;
  const table = lookup;
  const counts = lengthCount;
  const firsts = firstCode;
  const offsets = symbolOffset;
  const symbols = symbolsByCode;
  const maxLength = shape.maxLength;
  const windowLimit = Math.min(maxLength, WINDOW_CODE_BITS);
  // The fast loop reads at most 5 bytes past p per value without checking, so it stops 8 bytes short.
  const fastEnd = dataEnd - 8;

  // `window` holds the next `windowBits` stream bits left-aligned (bit 31 first); the bits below
  // them are the stream's next bits too (the start of byte p), never garbage. The stream position
  // of bit 31 is always (p - dataStart) * 8 - windowBits.
  // JavaScript bit operations are 32-bit, so instead of the 64-bit accumulator of the C code the
  // window is topped up before every code without a branch: OR in the 32 bits at p, then count
  // the whole bytes that fitted. That leaves 24..31 valid bits, enough for the 14-bit lookup, a
  // 24-bit code, or a short code and its 8-bit run count.
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  let window = 0;
  let windowBits = 0;
  let p = dataStart;
  let o = 0;

  while (o < outCount && p <= fastEnd) {
    window |= view.getUint32(p) >>> windowBits;
    const bytes = (31 - windowBits) >> 3;
    p += bytes;
    windowBits += bytes << 3;
    const entry = table[window >>> (32 - LOOKUP_BITS)]!;
    if (entry > 0) {
      const length = entry & 63;
      window <<= length;
      windowBits -= length;
      out[o++] = entry >>> 6;
      continue;
    }
    let symbol: number;
    if (entry <= -RLC_ENTRY) {
      symbol = rlc;
      const length = -entry - RLC_ENTRY;
      window <<= length;
      windowBits -= length;
    } else {
      if (entry === 0) throw invalid('Huffman data holds an undefined code');
      // Canonical search from the shortest length sharing this prefix.
      symbol = -1;
      let length = -entry;
      for (; length <= windowLimit; length++) {
        const value = window >>> (32 - length);
        const first = firsts[length]!;
        if (value >= first) {
          const rank = value - first;
          if (rank >= counts[length]!) throw invalid('Huffman data holds an undefined code');
          symbol = symbols[offsets[length]! + rank]!;
          break;
        }
      }
      if (symbol >= 0) {
        window <<= length;
        windowBits -= length;
      } else {
        // Longer than the window: decode from the byte stream, then re-seat the window after it.
        let pos = (p - dataStart) * 8 - windowBits;
        const packed = decodeCodeSlowly(src, dataStart, pos, nBits, shape);
        symbol = packed >>> 6;
        pos += packed & 63;
        if (symbol === rlc) {
          const run = readByteSlowly(src, dataStart, pos, nBits);
          pos += 8;
          if (o === 0 || o + run > outCount) throw invalid('Huffman run-length code out of place');
          out.fill(out[o - 1]!, o, o + run);
          o += run;
        } else {
          out[o++] = symbol;
        }
        p = dataStart + (pos >>> 3);
        const skip = pos & 7;
        window = 0;
        windowBits = -skip;
        for (let k = 0; k < 3 && p < dataEnd; k++) {
          window |= src[p++]! << (24 - 8 * k);
          windowBits += 8;
        }
        window <<= skip;
        continue;
      }
    }
    if (symbol === rlc) {
      if (windowBits < 8) {
        window |= src[p++]! << (24 - windowBits);
        windowBits += 8;
      }
      const run = window >>> 24;
      window <<= 8;
      windowBits -= 8;
      if (o === 0 || o + run > outCount) throw invalid('Huffman run-length code out of place');
      const value = out[o - 1]!;
      const stop = o + run;
      while (o < stop) out[o++] = value;
    } else {
      out[o++] = symbol;
    }
  }

  // The last few bytes, with every read checked against nBits.
  let pos = (p - dataStart) * 8 - windowBits;
  while (o < outCount) {
    const packed = decodeCodeSlowly(src, dataStart, pos, nBits, shape);
    const symbol = packed >>> 6;
    pos += packed & 63;
    if (symbol === rlc) {
      const run = readByteSlowly(src, dataStart, pos, nBits);
      pos += 8;
      if (o === 0 || o + run > outCount) throw invalid('Huffman run-length code out of place');
      out.fill(out[o - 1]!, o, o + run);
      o += run;
    } else {
      out[o++] = symbol;
    }
  }
}

// ---- encoding ----

/**
 * Huffman code lengths for the symbols with non-zero frequency in im..iM. Two-queue construction
 * over the leaves sorted by (frequency, symbol): merged nodes come out in non-decreasing weight,
 * so no heap is needed and ties resolve deterministically (leaves first).
 */
function buildCodeLengths(frequency: Uint32Array, im: number, iM: number, lengths: Uint8Array): void {
  let leaves = 0;
  for (let symbol = im; symbol <= iM; symbol++) if (frequency[symbol]! > 0) leaves++;
  // frequency < 2^32 and symbol < 2^17, so the key is an exact integer below 2^49.
  const keys = new Float64Array(leaves);
  let k = 0;
  for (let symbol = im; symbol <= iM; symbol++) {
    const count = frequency[symbol]!;
    if (count > 0) keys[k++] = count * 131072 + symbol;
  }
  keys.sort();

  const nodes = 2 * leaves - 1;
  const weight = new Float64Array(nodes);
  const parent = new Int32Array(nodes);
  for (let i = 0; i < leaves; i++) weight[i] = Math.floor(keys[i]! / 131072);
  let nextLeaf = 0;
  let nextMerged = leaves;
  for (let node = leaves; node < nodes; node++) {
    // Two smallest among the front leaf and the front merged node (merged nodes are < node).
    let a: number;
    if (nextLeaf < leaves && (nextMerged >= node || weight[nextLeaf]! <= weight[nextMerged]!)) a = nextLeaf++;
    else a = nextMerged++;
    let b: number;
    if (nextLeaf < leaves && (nextMerged >= node || weight[nextLeaf]! <= weight[nextMerged]!)) b = nextLeaf++;
    else b = nextMerged++;
    weight[node] = weight[a]! + weight[b]!;
    parent[a] = node;
    parent[b] = node;
  }
  // Children always precede their parent, so one backward pass gives every depth.
  const depth = new Uint8Array(nodes);
  for (let node = nodes - 2; node >= 0; node--) depth[node] = depth[parent[node]!]! + 1;
  for (let i = 0; i < leaves; i++) {
    const length = depth[i]!;
    // Reaching 59 bits would take more than Fibonacci(60) values; no Uint16Array holds that many.
    if (length > MAX_CODE_BITS) throw new Error(`Huffman code of ${length} bits exceeds the format's limit`);
    lengths[keys[i]! % 131072] = length;
  }
}

/**
 * Writes the coded values from byte `start` on; returns the number of bits written (the last
 * partial byte is flushed, zero-padded). Runs of a value (up to 255 repeats) become value,
 * run-length code and an 8-bit count when that is shorter than repeating the value's code.
 * Every code here is at most 24 bits, so one write never overflows the 32-bit accumulator.
 */
function encodeData(values: Uint16Array, codes: Int32Array, lengths: Uint8Array, rlc: number, out: Uint8Array, start: number): number {
  const rlcCode = codes[rlc]!;
  const rlcLength = lengths[rlc]!;
  const n = values.length;
  let pos = start;
  let bits = 0;
  let bitCount = 0;
  let i = 0;
  while (i < n) {
    const value = values[i]!;
    const code = codes[value]!;
    const length = lengths[value]!;
    if (i + 1 === n || values[i + 1] !== value) {
      // The common case: no repeat.
      i++;
      bits = (bits << length) | code;
      bitCount += length;
      while (bitCount >= 8) {
        bitCount -= 8;
        out[pos++] = bits >>> bitCount;
      }
      continue;
    }
    const limit = Math.min(n, i + 256);
    let end = i + 2;
    while (end < limit && values[end] === value) end++;
    const extra = end - i - 1;
    i = end;
    if (length + rlcLength + 8 < length * extra) {
      bits = (bits << length) | code;
      bitCount += length;
      while (bitCount >= 8) {
        bitCount -= 8;
        out[pos++] = bits >>> bitCount;
      }
      bits = (bits << rlcLength) | rlcCode;
      bitCount += rlcLength;
      while (bitCount >= 8) {
        bitCount -= 8;
        out[pos++] = bits >>> bitCount;
      }
      bits = (bits << 8) | extra;
      out[pos++] = bits >>> bitCount;
    } else {
      for (let k = 0; k <= extra; k++) {
        bits = (bits << length) | code;
        bitCount += length;
        while (bitCount >= 8) {
          bitCount -= 8;
          out[pos++] = bits >>> bitCount;
        }
      }
    }
  }
  const nBits = (pos - start) * 8 + bitCount;
  if (bitCount > 0) out[pos] = bits << (8 - bitCount);
  return nBits;
}

/** encodeData for tables with codes longer than 24 bits (only from extremely skewed data): bit by bit. */
function encodeDataLongCodes(
  values: Uint16Array,
  codes: Int32Array,
  lengths: Uint8Array,
  rlc: number,
  out: Uint8Array,
  start: number,
): number {
  let bit = 0;
  const put = (value: number, width: number): void => {
    for (let k = width - 1; k >= 0; k--, bit++) {
      // Codes are below 2^18: the bits above are leading zeros (and >>> would wrap at 32).
      if (k < 24 && ((value >>> k) & 1) !== 0) out[start + (bit >>> 3)]! |= 0x80 >>> (bit & 7);
    }
  };
  const n = values.length;
  let i = 0;
  while (i < n) {
    const value = values[i]!;
    const limit = Math.min(n, i + 256);
    let end = i + 1;
    while (end < limit && values[end] === value) end++;
    const extra = end - i - 1;
    i = end;
    const length = lengths[value]!;
    if (extra > 0 && length + lengths[rlc]! + 8 < length * extra) {
      put(codes[value]!, length);
      put(codes[rlc]!, lengths[rlc]!);
      put(extra, 8);
    } else {
      for (let k = 0; k <= extra; k++) put(codes[value]!, length);
    }
  }
  return bit;
}

/** Encodes values as one Huffman block (header, packed table, data); an empty input gives an empty block. */
export function huffmanCompress(values: Uint16Array): Uint8Array {
  const n = values.length;
  if (n === 0) return new Uint8Array(0);
  if (n >= 2 ** 32) throw new Error('too many values for one Huffman block');
  const frequency = new Uint32Array(SYMBOL_COUNT);
  for (let i = 0; i < n; i++) frequency[values[i]!]!++;
  let im = 0;
  while (frequency[im] === 0) im++;
  let iM = 65535;
  while (frequency[iM] === 0) iM--;
  // The run-length pseudo-symbol follows the largest value.
  const rlc = iM + 1;
  iM = rlc;
  frequency[rlc] = 1;

  const lengths = new Uint8Array(SYMBOL_COUNT);
  buildCodeLengths(frequency, im, iM, lengths);

  // Canonical codes, assigned exactly as the decoder derives them.
  const count = new Float64Array(MAX_CODE_BITS + 2);
  for (let symbol = im; symbol <= iM; symbol++) count[lengths[symbol]!]!++;
  const nextCode = new Float64Array(MAX_CODE_BITS + 2);
  let code = 0;
  for (let length = MAX_CODE_BITS; length >= 1; length--) {
    nextCode[length] = code;
    code = (code + count[length]!) >> 1;
  }
  const codes = new Int32Array(SYMBOL_COUNT);
  let codedBitsBound = 0;
  for (let symbol = im; symbol <= iM; symbol++) {
    const length = lengths[symbol]!;
    if (length === 0) continue;
    codes[symbol] = nextCode[length]!++;
    codedBitsBound += frequency[symbol]! * length;
  }
  if (codedBitsBound > 0xffffffff) throw new Error('Huffman data would exceed 2^32 bits');

  // Runs only ever replace plain codes when shorter, so sum(frequency * length) bounds the data.
  const tableBytesBound = Math.ceil(((iM - im + 1) * 6) / 8) + 1;
  const bytes = new Uint8Array(HEADER_BYTES + tableBytesBound + Math.ceil(codedBitsBound / 8) + 1);

  // Packed table: 6-bit lengths, zero-length runs as 59..62 or 63 + 8 bits.
  let pos = HEADER_BYTES;
  let bits = 0;
  let bitCount = 0;
  const put = (value: number, width: number): void => {
    bits = (bits << width) | value;
    bitCount += width;
    while (bitCount >= 8) {
      bitCount -= 8;
      bytes[pos++] = bits >>> bitCount;
    }
  };
  for (let symbol = im; symbol <= iM; symbol++) {
    const length = lengths[symbol]!;
    if (length !== 0) {
      put(length, 6);
      continue;
    }
    let run = 1;
    while (symbol < iM && run < LONGEST_LONG_RUN && lengths[symbol + 1] === 0) {
      symbol++;
      run++;
    }
    if (run >= SHORTEST_LONG_RUN) {
      put(LONG_ZEROCODE_RUN, 6);
      put(run - SHORTEST_LONG_RUN, 8);
    } else if (run >= 2) {
      put(SHORT_ZEROCODE_RUN + run - 2, 6);
    } else {
      put(0, 6);
    }
  }
  if (bitCount > 0) bytes[pos++] = bits << (8 - bitCount);
  const dataStart = pos;
  const tableLength = dataStart - HEADER_BYTES;

  let maxLength = 0;
  for (let symbol = im; symbol <= iM; symbol++) maxLength = Math.max(maxLength, lengths[symbol]!);
  const nBits = (maxLength <= 24 ? encodeData : encodeDataLongCodes)(values, codes, lengths, rlc, bytes, dataStart);
  writeU32(bytes, 0, im);
  writeU32(bytes, 4, iM);
  writeU32(bytes, 8, tableLength);
  writeU32(bytes, 12, nBits);
  writeU32(bytes, 16, 0);
  return bytes.subarray(0, dataStart + Math.ceil(nBits / 8));
}

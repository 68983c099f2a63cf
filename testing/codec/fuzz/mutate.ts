// Structure-aware mutations of an EXR file: bit flips, byte sets, truncations, extreme sizes, offsets and counts, swapped and duplicated chunks.

import { ExrReader } from '../../../codec/reader.js';
import { memorySource } from '../../../codec/source.js';

/** Deterministic 32-bit PRNG (mulberry32): the same seed gives the same cases on every machine. */
export function prng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  };
}

export interface Rng {
  next(): number;
  /** 0 ≤ r < n */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
}

interface AttributeSpan {
  name: string;
  type: string;
  /** Byte position of the int32 size field. */
  sizeAt: number;
  valueAt: number;
  size: number;
}

/** Where the fields of a valid seed are, so mutations can aim at them. */
export interface Layout {
  attributes: AttributeSpan[];
  headerEnd: number;
  /** Byte positions of every u64 offset-table entry. */
  offsetEntries: number[];
  /** Chunks as [start, end) in file order. */
  chunks: Array<[number, number]>;
}

/** Maps a valid file; undefined when the seed itself does not open (corpus files the codec refuses still mutate blindly). */
export function layoutOf(bytes: Uint8Array): Layout | undefined {
  let reader: ExrReader;
  try {
    reader = ExrReader.open(memorySource(bytes));
  } catch {
    return undefined;
  }
  const attributes: AttributeSpan[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cString = (at: number): [string, number] => {
    let end = at;
    while (end < bytes.length && bytes[end] !== 0) end++;
    return [Buffer.from(bytes.subarray(at, end)).toString('latin1'), end + 1];
  };
  let at = 8;
  for (let part = 0; part < reader.parts.length; part++) {
    for (;;) {
      const [name, afterName] = cString(at);
      if (name === '') {
        at = afterName;
        break;
      }
      const [type, afterType] = cString(afterName);
      const size = view.getInt32(afterType, true);
      attributes.push({ name, type, sizeAt: afterType, valueAt: afterType + 4, size });
      at = afterType + 4 + size;
    }
  }
  // a multipart file ends its header list with one more empty header
  const headerEnd = reader.headerEndByte;
  const offsetEntries: number[] = [];
  const starts: number[] = [];
  let entry = headerEnd;
  for (const part of reader.parts) {
    for (let i = 0; i < part.chunkCount; i++, entry += 8) {
      offsetEntries.push(entry);
      starts.push(Number(view.getBigUint64(entry, true)));
    }
  }
  const sorted = [...new Set(starts)].filter((s) => s > 0 && s < bytes.length).sort((a, b) => a - b);
  const chunks = sorted.map((s, i): [number, number] => [s, sorted[i + 1] ?? bytes.length]);
  return { attributes, headerEnd, offsetEntries, chunks };
}

/** Extremes, plus large values just inside the header limits (2^30 pixels per part), which pass validation and reach allocation. */
const I32_EXTREMES = [0, -1, 1, 0x7fffffff, -0x80000000, 0x40000000, 0x10000, 0xffff, -2, 0x3fffffff, 0x0fffffff, 0x00ffffff, 0x3ffffff0];
const U64_EXTREMES = [0n, 0xffffffffffffffffn, 0x8000000000000000n, 0xffffffffn, 0x7fffffffn, 2n ** 53n + 1n, 2n ** 40n];

export interface Mutation {
  bytes: Uint8Array;
  /** What was done, for the report and the regression file's note. */
  what: string;
}

type Operator = (input: Uint8Array, layout: Layout | undefined, rng: Rng) => Mutation;

const copy = (b: Uint8Array) => new Uint8Array(b);
const dv = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** A position biased towards the header and tables, where one byte changes the most. */
function position(b: Uint8Array, layout: Layout | undefined, rng: Rng): number {
  if (layout && rng.next() < 0.6) {
    const structEnd = Math.min(b.length, layout.headerEnd + layout.offsetEntries.length * 8);
    return rng.int(Math.max(1, structEnd));
  }
  return rng.int(Math.max(1, b.length));
}

const bitFlips: Operator = (input, layout, rng) => {
  const b = copy(input);
  const n = 1 + rng.int(rng.next() < 0.7 ? 2 : 16);
  for (let i = 0; i < n; i++) b[position(b, layout, rng) % b.length]! ^= 1 << rng.int(8);
  return { bytes: b, what: `flip ${n} bit(s)` };
};

const byteSets: Operator = (input, layout, rng) => {
  const b = copy(input);
  const n = 1 + rng.int(8);
  for (let i = 0; i < n; i++) b[position(b, layout, rng) % b.length] = rng.pick([0, 0xff, 0x7f, 0x80, rng.int(256)]);
  return { bytes: b, what: `set ${n} byte(s)` };
};

const truncate: Operator = (input, layout, rng) => {
  let cut: number;
  if (layout && rng.next() < 0.5) {
    // at or near a structural boundary: inside the header, the tables, or a chunk
    const marks = [
      layout.headerEnd,
      ...layout.chunks.flatMap(([s, e]) => [s, s + 4, s + 8, e - 1]),
      ...layout.attributes.map((a) => a.valueAt),
    ];
    cut = rng.pick(marks) + rng.int(5) - 2;
  } else {
    cut = rng.int(input.length);
  }
  cut = Math.max(0, Math.min(input.length - 1, cut));
  return { bytes: input.slice(0, cut), what: `truncate to ${cut} of ${input.length} bytes` };
};

const attributeSizeLie: Operator = (input, layout, rng) => {
  if (!layout?.attributes.length) return bitFlips(input, layout, rng);
  const b = copy(input);
  const a = rng.pick(layout.attributes);
  const size = rng.pick([0, -1, 1, 0x7fffffff, -0x80000000, a.size + 1, a.size - 1, a.size * 2, a.size + 8, 0xfffffff0 | 0]);
  dv(b).setInt32(a.sizeAt, size, true);
  return { bytes: b, what: `attribute ${a.name} (${a.type}) size ${a.size} -> ${size}` };
};

const attributeValueExtreme: Operator = (input, layout, rng) => {
  const fields = layout?.attributes.filter((a) => a.size >= 4) ?? [];
  if (!fields.length) return byteSets(input, layout, rng);
  const b = copy(input);
  const a = rng.pick(fields);
  // chlist values are names then four int32 fields: any aligned or unaligned int32 inside the value
  const at = a.valueAt + rng.int(a.size - 3);
  const value = rng.pick(I32_EXTREMES);
  dv(b).setInt32(at, value, true);
  return { bytes: b, what: `attribute ${a.name} (${a.type}) int32 at +${at - a.valueAt} -> ${value}` };
};

/** 2^30: the reader's default limit on pixels per part (part.ts DEFAULT_LIMITS). */
const PIXEL_LIMIT = 2 ** 30;

/**
 * A data window grown to just under the pixel limit, keeping one side: the header passes every check
 * and the size reaches whatever allocates by it, while the file stays a few KB.
 */
const windowAtLimit: Operator = (input, layout, rng) => {
  const windows = layout?.attributes.filter((a) => a.name === 'dataWindow' && a.size === 16) ?? [];
  if (!windows.length) return attributeValueExtreme(input, layout, rng);
  const b = copy(input);
  const a = rng.pick(windows);
  const v = dv(b);
  const [x0, y0, x1, y1] = [0, 4, 8, 12].map((k) => v.getInt32(a.valueAt + k, true)) as [number, number, number, number];
  const w = x1 - x0 + 1;
  const h = y1 - y0 + 1;
  const mode = rng.int(3);
  if (mode === 0) v.setInt32(a.valueAt + 8, x0 + Math.floor(PIXEL_LIMIT / h) - 1, true);
  else if (mode === 1) v.setInt32(a.valueAt + 12, y0 + Math.floor(PIXEL_LIMIT / w) - 1, true);
  else {
    v.setInt32(a.valueAt + 8, x0 + (1 << 15) - 1, true);
    v.setInt32(a.valueAt + 12, y0 + (1 << 15) - 1, true);
  }
  return { bytes: b, what: `dataWindow grown to the pixel limit (${['width', 'height', 'both sides'][mode]})` };
};

const offsetExtreme: Operator = (input, layout, rng) => {
  if (!layout?.offsetEntries.length) return byteSets(input, layout, rng);
  const b = copy(input);
  const n = 1 + (rng.next() < 0.3 ? rng.int(layout.offsetEntries.length) : 0);
  const values: string[] = [];
  for (let i = 0; i < n; i++) {
    const at = rng.pick(layout.offsetEntries);
    const chunk: [number, number] = layout.chunks.length ? rng.pick(layout.chunks) : [layout.headerEnd, layout.headerEnd];
    const value = rng.pick([
      ...U64_EXTREMES,
      BigInt(input.length),
      BigInt(input.length - 1),
      BigInt(layout.headerEnd),
      BigInt(chunk[0] + 1),
      BigInt(chunk[1] - 4),
    ]);
    dv(b).setBigUint64(at, value, true);
    values.push(value.toString());
  }
  return { bytes: b, what: `offset entries -> ${values.slice(0, 4).join(', ')}${values.length > 4 ? ', …' : ''}` };
};

const chunkFieldExtreme: Operator = (input, layout, rng) => {
  if (!layout?.chunks.length) return byteSets(input, layout, rng);
  const b = copy(input);
  const [start, end] = rng.pick(layout.chunks);
  // the first 40 bytes hold every chunk header field (part, coordinates, sizes; deep: three u64 sizes)
  const field = rng.int(Math.max(1, Math.min(10, (end - start) >> 2)));
  const at = start + field * 4;
  if (at + 8 <= b.length && rng.next() < 0.3) {
    const value = rng.pick(U64_EXTREMES);
    dv(b).setBigUint64(at, value, true);
    return { bytes: b, what: `chunk at ${start} u64 field +${field * 4} -> ${value}` };
  }
  if (at + 4 > b.length) return byteSets(input, layout, rng);
  const value = rng.pick(I32_EXTREMES);
  dv(b).setInt32(at, value, true);
  return { bytes: b, what: `chunk at ${start} int32 field +${field * 4} -> ${value}` };
};

const chunkSwap: Operator = (input, layout, rng) => {
  if (!layout || layout.chunks.length < 2) return truncate(input, layout, rng);
  const i = rng.int(layout.chunks.length);
  let j = rng.int(layout.chunks.length - 1);
  if (j >= i) j++;
  const b = copy(input);
  if (rng.next() < 0.5) {
    // swap two offset-table entries: each points at the other's chunk
    const ea = rng.pick(layout.offsetEntries);
    const eb = rng.pick(layout.offsetEntries);
    const va = dv(b).getBigUint64(ea, true);
    dv(b).setBigUint64(ea, dv(b).getBigUint64(eb, true), true);
    dv(b).setBigUint64(eb, va, true);
    return { bytes: b, what: `swap offset entries at ${ea} and ${eb}` };
  }
  // swap the chunk bytes themselves (the offsets keep pointing at the old places)
  const [a0, a1] = layout.chunks[Math.min(i, j)]!;
  const [b0, b1] = layout.chunks[Math.max(i, j)]!;
  const out = new Uint8Array(input.length);
  out.set(input.subarray(0, a0));
  let at = a0;
  for (const piece of [input.subarray(b0, b1), input.subarray(a1, b0), input.subarray(a0, a1), input.subarray(b1)]) {
    out.set(piece, at);
    at += piece.length;
  }
  return { bytes: out, what: `swap chunk bytes [${a0},${a1}) and [${b0},${b1})` };
};

const chunkDuplicate: Operator = (input, layout, rng) => {
  if (!layout || layout.chunks.length < 2) return bitFlips(input, layout, rng);
  const [s0, s1] = rng.pick(layout.chunks);
  const [d0, d1] = rng.pick(layout.chunks);
  const b = copy(input);
  if (rng.next() < 0.5) {
    // overwrite another chunk in place (as much as fits)
    b.set(input.subarray(s0, Math.min(s1, s0 + (d1 - d0))), d0);
    return { bytes: b, what: `copy chunk [${s0},${s1}) over [${d0},${d1})` };
  }
  // point every entry of a run at one chunk
  const first = rng.int(layout.offsetEntries.length);
  const n = 1 + rng.int(layout.offsetEntries.length - first);
  for (let k = first; k < first + n; k++) dv(b).setBigUint64(layout.offsetEntries[k]!, BigInt(s0), true);
  return { bytes: b, what: `offset entries ${first}..${first + n - 1} -> chunk at ${s0}` };
};

const splice: Operator = (input, layout, rng) => {
  const at = position(input, layout, rng);
  if (rng.next() < 0.5) {
    const n = 1 + rng.int(16);
    const out = new Uint8Array(input.length + n);
    out.set(input.subarray(0, at));
    for (let k = 0; k < n; k++) out[at + k] = rng.int(256);
    out.set(input.subarray(at), at + n);
    return { bytes: out, what: `insert ${n} byte(s) at ${at}` };
  }
  const n = Math.min(input.length - at, 1 + rng.int(16));
  const out = new Uint8Array(input.length - n);
  out.set(input.subarray(0, at));
  out.set(input.subarray(at + n), at);
  return { bytes: out, what: `delete ${n} byte(s) at ${at}` };
};

const OPERATORS: Array<[Operator, number]> = [
  [bitFlips, 18],
  [byteSets, 12],
  [truncate, 10],
  [attributeSizeLie, 8],
  [attributeValueExtreme, 14],
  [windowAtLimit, 2],
  [offsetExtreme, 10],
  [chunkFieldExtreme, 12],
  [chunkSwap, 6],
  [chunkDuplicate, 5],
  [splice, 5],
];
const TOTAL_WEIGHT = OPERATORS.reduce((s, [, w]) => s + w, 0);

function pickOperator(rng: Rng): Operator {
  let r = rng.next() * TOTAL_WEIGHT;
  for (const [op, w] of OPERATORS) if ((r -= w) < 0) return op;
  return bitFlips;
}

/** One to three stacked mutations of a seed (stacking reaches states one change cannot, e.g. a lied size plus a moved offset). */
export function mutate(input: Uint8Array, layout: Layout | undefined, rng: Rng): Mutation {
  const rounds = rng.next() < 0.75 ? 1 : 2 + rng.int(2);
  let bytes = input;
  const what: string[] = [];
  for (let i = 0; i < rounds; i++) {
    if (bytes.length === 0) break;
    // after the first change the layout may no longer describe the bytes; later rounds reuse it only where it still fits
    const m = pickOperator(rng)(bytes, bytes.length === input.length ? layout : undefined, rng);
    bytes = m.bytes;
    what.push(m.what);
  }
  return { bytes, what: what.join('; ') };
}

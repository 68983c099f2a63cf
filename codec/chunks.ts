// Chunk offset tables and chunk headers: every offset checked against the file, sizes against chunk extents.

import { ByteReader } from './bytes.js';
import { walkChunks, walkOf, type ChunkWalk, type OffsetTables } from './chunk-walk.js';
import { invalid } from './core/errors.js';
import type { PartInfo } from './part.js';
import type { ByteSource } from './source.js';

export type { OffsetTables };

/** A file's offset tables as a reader uses them; `walk` where they were rebuilt from the chunks (see chunk-walk.ts). */
export interface ReadTables {
  tables: OffsetTables;
  walk?: ChunkWalk;
}

/**
 * Reads every part's offset table (from `prefix`, the file's first bytes already read, where it lies within them).
 * When any entry does not point into the file (a writer fills the tables at close; a file cut short), the tables are
 * rebuilt by walking the chunks stored after them, as far as they are whole; from `previous`'s walk on, when given
 * (the same file read before, since grown), so that the chunks walked then are not read again.
 */
export function readOffsetTables(
  source: ByteSource,
  headerEndByte: number,
  parts: PartInfo[],
  multipart: boolean,
  prefix?: Uint8Array,
  previous?: Required<ReadTables>,
): ReadTables {
  const tables: OffsetTables = [];
  const totalChunks = parts.reduce((sum, p) => sum + p.chunkCount, 0);
  const tablesEnd = headerEndByte + totalChunks * 8;
  const bytes =
    prefix && tablesEnd <= prefix.length ? prefix.subarray(headerEndByte, tablesEnd) : source.readAt(headerEndByte, totalChunks * 8);
  const r = new ByteReader(bytes);
  let bad = 0;
  for (const part of parts) {
    const table = new Float64Array(part.chunkCount);
    for (let i = 0; i < part.chunkCount; i++) {
      const offset = r.u64Le('chunk offset');
      if (offset < tablesEnd || offset + minChunkHeaderBytes(part, multipart) > source.sizeBytes) {
        table[i] = -1;
        bad++;
      } else {
        table[i] = offset;
      }
    }
    tables.push(table);
  }
  if (bad === 0) return { tables };
  // a file that shrank since is another file: walked afresh
  const from = previous && previous.walk.endByte <= source.sizeBytes ? previous : null;
  const walked = from ? from.tables.map((t) => t.slice()) : tables.map((t) => t.fill(-1));
  const endByte = walkChunks(source, parts, multipart, walked, from ? from.walk.endByte : tablesEnd);
  return { tables: walked, walk: walkOf(walked, endByte) };
}

export function minChunkHeaderBytes(part: PartInfo, multipart: boolean): number {
  const coords = part.isTiled ? 16 : 4;
  const sizes = part.isDeep ? 24 : 4;
  return (multipart ? 4 : 0) + coords + sizes;
}

/**
 * Where each chunk can end: the next stored offset of any part, or the end of the file. Used to
 * bound a chunk's stated size and to read spans of chunks in one go.
 */
export class ChunkExtents {
  /** Extents from chunk starts already sorted and distinct, the file's size last (`sorted` of another open, handed over). */
  constructor(
    readonly sorted: Float64Array,
    private readonly fileSizeBytes: number,
  ) {}

  /** A file's extents from its offset tables (entries below 0, chunks not written, are left out). */
  static fromTables(tables: OffsetTables, fileSizeBytes: number): ChunkExtents {
    // Tables are nearly always written in increasing order: copied straight, sorted and deduplicated only when not.
    // Every worker built this for every file it opened before the main thread handed its parse over (header-handoff.ts).
    let count = 1;
    for (const t of tables) count += t.length;
    const all = new Float64Array(count);
    let n = 0;
    let increasing = true;
    for (const t of tables) {
      for (let i = 0; i < t.length; i++) {
        const o = t[i]!;
        if (o < 0) continue;
        if (n > 0 && o <= all[n - 1]!) increasing = false;
        all[n++] = o;
      }
    }
    if (n > 0 && fileSizeBytes <= all[n - 1]!) increasing = false;
    all[n++] = fileSizeBytes;
    return new ChunkExtents(increasing ? all.subarray(0, n) : uniqueSorted(all.subarray(0, n)), fileSizeBytes);
  }

  /** End (exclusive) of the chunk that starts at byteOffset. */
  endOf(byteOffset: number): number {
    const s = this.sorted;
    let lo = 0;
    let hi = s.length - 1;
    // first entry > byteOffset
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (s[mid]! > byteOffset) hi = mid;
      else lo = mid + 1;
    }
    const end = s[lo]!;
    return end > byteOffset ? end : this.fileSizeBytes;
  }
}

/** The distinct values of `values`, ascending (sorts `values` in place). */
function uniqueSorted(values: Float64Array): Float64Array {
  values.sort();
  let n = 0;
  for (let i = 0; i < values.length; i++) if (n === 0 || values[i] !== values[n - 1]) values[n++] = values[i]!;
  return values.subarray(0, n);
}

export interface ChunkHeader {
  /** Scanline parts: first line. Tiled parts: tile and level coordinates. */
  y: number;
  tileX: number;
  tileY: number;
  levelX: number;
  levelY: number;
  /** Flat parts: the compressed pixel data. */
  data: Uint8Array;
  /** Deep parts: compressed sample count table, compressed sample data, and the unpacked sample data size. */
  deepCounts: Uint8Array | null;
  unpackedSampleBytes: number;
}

/** Parses the chunk at the start of `bytes` (which hold the whole chunk extent). */
export function parseChunk(bytes: Uint8Array, part: PartInfo, multipart: boolean): ChunkHeader {
  const r = new ByteReader(bytes);
  if (multipart) {
    const partNumber = r.i32Le('chunk part number');
    if (partNumber !== part.index) throw invalid(`chunk says it belongs to part ${partNumber}`);
  }
  let y = 0;
  let tileX = 0;
  let tileY = 0;
  let levelX = 0;
  let levelY = 0;
  if (part.isTiled) {
    tileX = r.i32Le('tile x');
    tileY = r.i32Le('tile y');
    levelX = r.i32Le('tile level x');
    levelY = r.i32Le('tile level y');
  } else {
    y = r.i32Le('chunk y');
  }
  if (part.isDeep) {
    const countBytes = r.u64Le('packed sample count table size');
    const sampleBytes = r.u64Le('packed sample data size');
    const unpackedSampleBytes = r.u64Le('unpacked sample data size');
    if (countBytes > r.remaining || sampleBytes > r.remaining - countBytes) {
      throw invalid(`deep chunk claims ${countBytes} + ${sampleBytes} bytes, only ${r.remaining} are stored`);
    }
    if (!Number.isFinite(unpackedSampleBytes)) throw invalid('deep chunk unpacked size is out of range');
    const deepCounts = r.bytesOf(countBytes, 'sample count table');
    const data = r.bytesOf(sampleBytes, 'sample data');
    return { y, tileX, tileY, levelX, levelY, data, deepCounts, unpackedSampleBytes };
  }
  const dataBytes = r.i32Le('chunk data size');
  if (dataBytes < 0 || dataBytes > r.remaining) {
    throw invalid(`chunk claims ${dataBytes} bytes of data, only ${r.remaining} are stored`);
  }
  return { y, tileX, tileY, levelX, levelY, data: r.bytesOf(dataBytes, 'chunk data'), deepCounts: null, unpackedSampleBytes: 0 };
}

// Offset tables rebuilt from the chunks themselves, for files still being written (tables zeroed until close) or cut short.

import { ByteReader } from './bytes.js';
import type { PartInfo } from './part.js';
import type { ByteSource } from './source.js';

/** Offsets per part; -1 marks an entry that does not point inside the file (or a chunk not written yet). */
export type OffsetTables = Float64Array[];

/**
 * How far a walk of the chunks stored after the offset tables got: present when the tables held entries that do not
 * point into the file (a writer fills them at close), so that the chunks were placed by their own headers instead.
 */
export interface ChunkWalk {
  /** The first byte after the last whole chunk walked: where a walk of the file, grown since, continues. */
  endByte: number;
  /** Chunks the walk placed, of every part. */
  chunksPresent: number;
  /** Chunks the file will hold once written, of every part. */
  chunksTotal: number;
}

/** Chunk headers are read through windows of this size, so that a file of small chunks is walked in few reads. */
const WINDOW_BYTES = 64 * 1024;

/**
 * Walks the chunks stored from `fromByte` on, as OpenEXR does for a file whose tables are not written: each chunk's
 * header (part number, line or tile and level, data sizes) is read, checked to be in range, whole within the file
 * and not a chunk already placed, and its offset entered in `tables` (entries not placed stay as they are). Stops at
 * the first chunk that is not: the one being written. Returns the first byte after the last whole chunk.
 */
export function walkChunks(
  source: ByteSource,
  parts: readonly PartInfo[],
  multipart: boolean,
  tables: OffsetTables,
  fromByte: number,
): number {
  let remaining = 0;
  for (const t of tables) for (let i = 0; i < t.length; i++) if (t[i]! < 0) remaining++;
  let windowStart = 0;
  let window: Uint8Array = new Uint8Array(0);
  let byteOffset = fromByte;
  for (; remaining > 0; remaining--) {
    const firstHeader = (multipart ? 4 : 0) + 4;
    if (byteOffset + firstHeader > source.sizeBytes) break;
    // the chunk header's largest form (tiled, deep) fits the window, or the file ends first
    const headerMax = Math.min((multipart ? 4 : 0) + 16 + 24, source.sizeBytes - byteOffset);
    if (byteOffset < windowStart || byteOffset + headerMax > windowStart + window.length) {
      windowStart = byteOffset;
      window = source.readAt(byteOffset, Math.min(WINDOW_BYTES, source.sizeBytes - byteOffset));
    }
    const r = new ByteReader(window, byteOffset - windowStart);
    const partIndex = multipart ? r.i32Le() : 0;
    const part = parts[partIndex];
    if (!part) break;
    const headerBytes = (multipart ? 4 : 0) + (part.isTiled ? 16 : 4) + (part.isDeep ? 24 : 4);
    if (byteOffset + headerBytes > source.sizeBytes) break;
    const index = chunkIndexAt(r, part);
    const payloadBytes = part.isDeep ? r.u64Le() + r.u64Le() : r.i32Le();
    const table = tables[partIndex]!;
    if (index < 0 || table[index]! >= 0) break;
    if (!(payloadBytes >= 0) || byteOffset + headerBytes + payloadBytes > source.sizeBytes) break;
    table[index] = byteOffset;
    byteOffset += headerBytes + payloadBytes;
  }
  return byteOffset;
}

/** The chunk index the line or tile coordinates at `r` name, or -1 where they name none of the part's chunks. */
function chunkIndexAt(r: ByteReader, part: PartInfo): number {
  if (part.isTiled) {
    const tx = r.i32Le();
    const ty = r.i32Le();
    const lx = r.i32Le();
    const ly = r.i32Le();
    const level = part.levels.find((l) => l.lx === lx && l.ly === ly);
    if (!level || tx < 0 || ty < 0 || tx >= level.tilesX || ty >= level.tilesY) return -1;
    return level.firstChunk + ty * level.tilesX + tx;
  }
  const line = r.i32Le() - part.dataWindow.yMin;
  if (line < 0 || line % part.linesPerChunk !== 0 || line >= part.heightPx) return -1;
  return line / part.linesPerChunk;
}

/** The chunks present and to come once `tables` are walked (entries at or above 0 are present). */
export function walkOf(tables: OffsetTables, endByte: number): ChunkWalk {
  let chunksPresent = 0;
  let chunksTotal = 0;
  for (const t of tables) {
    chunksTotal += t.length;
    for (let i = 0; i < t.length; i++) if (t[i]! >= 0) chunksPresent++;
  }
  return { endByte, chunksPresent, chunksTotal };
}

/**
 * Why a chunk the tables do not place cannot be read: not written yet (tables with an entry that does not point into
 * the file are always walked, so a chunk is unplaced only where the file is incomplete; null is a reader's fallback).
 */
export function unplacedReason(incomplete: ChunkWalk | null): string {
  return incomplete
    ? `chunk is not written yet (incomplete file: ${incomplete.chunksPresent} of ${incomplete.chunksTotal} chunks)`
    : 'chunk offset points outside the file (incomplete file?)';
}

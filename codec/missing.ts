// What a tolerant decode could not read: the chunks that failed, where their pixels lie and why, as few boxes as they cover.

import type { ChunkWalk } from './chunk-walk.js';
import type { BlockLayout, Box2i } from './core/types.js';

/** One chunk a tolerant decode could not read or decompress: its pixels within the decoded region, and the codec's reason. */
export interface ChunkFailure {
  chunk: number;
  region: Box2i;
  /** The ExrError's message ("part 0, chunk 14: chunk offset points outside the file (incomplete file?)"). */
  reason: string;
}

/** The chunks of a tolerant decode that failed (their pixels are zero), and how many of the decode's chunks were read. */
export interface MissingChunks {
  failures: ChunkFailure[];
  chunksRead: number;
  chunksTotal: number;
  /**
   * The file is still being written (its offset tables not filled yet) or was cut short: how many of its chunks, of
   * every part, are there. Its failures are then chunks not written yet rather than damage.
   */
  incomplete?: { chunksPresent: number; chunksTotal: number };
}

/** A tolerant decode's failures among its `chunksTotal` chunks, with how much of the file is there where it is incomplete. */
export function missingChunks(failures: ChunkFailure[], chunksTotal: number, incomplete: ChunkWalk | null): MissingChunks {
  return {
    failures,
    chunksRead: chunksTotal - failures.length,
    chunksTotal,
    ...(incomplete ? { incomplete: { chunksPresent: incomplete.chunksPresent, chunksTotal: incomplete.chunksTotal } } : {}),
  };
}

/**
 * The failed chunks' pixels as few boxes: neighbours in a row of tiles joined, then runs of rows (line blocks, or
 * rows of tiles) with the same columns joined. A file cut short is then one box, whatever its chunk count.
 */
export function missingRegions(failures: readonly ChunkFailure[]): Box2i[] {
  const boxes = failures.map((f) => ({ ...f.region })).sort((a, b) => a.yMin - b.yMin || a.xMin - b.xMin);
  const rows: Box2i[] = [];
  for (const box of boxes) {
    const last = rows[rows.length - 1];
    if (last && last.yMin === box.yMin && last.yMax === box.yMax && last.xMax + 1 === box.xMin) last.xMax = box.xMax;
    else rows.push(box);
  }
  const merged: Box2i[] = [];
  for (const box of rows) {
    const above = merged.find((m) => m.xMin === box.xMin && m.xMax === box.xMax && m.yMax + 1 === box.yMin);
    if (above) above.yMax = box.yMax;
    else merged.push(box);
  }
  return merged;
}

/** The pixels of a chunk's block that lie in `region` (absolute coordinates). */
export function blockInRegion(block: BlockLayout, region: Box2i): Box2i {
  return {
    xMin: Math.max(block.x0, region.xMin),
    yMin: Math.max(block.y0, region.yMin),
    xMax: Math.min(block.x0 + block.widthPx - 1, region.xMax),
    yMax: Math.min(block.y0 + block.heightPx - 1, region.yMax),
  };
}

// Geometry of one chunk: which pixels it covers (BlockLayout) and its uncompressed size.

import { invalid } from './core/errors.js';
import type { Level, PartInfo } from './part.js';
import { floorMod, sampleCount } from './core/sampling.js';
import { PIXEL_TYPE_BYTES, type BlockLayout, type Box2i, type Channel } from './core/types.js';

export interface ChunkPlace {
  level: Level;
  /** Tile coordinates within the level (tiled parts), or 0 and the line-block index (scanline parts). */
  tileX: number;
  tileY: number;
  block: BlockLayout;
}

/** Which pixels chunk `chunkIndex` of a part covers. */
export function chunkPlace(part: PartInfo, chunkIndex: number): ChunkPlace {
  if (!part.isTiled) {
    const level = part.levels[0]!;
    const y0 = part.dataWindow.yMin + chunkIndex * part.linesPerChunk;
    const heightPx = Math.min(part.linesPerChunk, part.dataWindow.yMax - y0 + 1);
    return {
      level,
      tileX: 0,
      tileY: chunkIndex,
      block: { channels: part.channels, x0: part.dataWindow.xMin, y0, widthPx: part.widthPx, heightPx },
    };
  }
  const level = levelOfChunk(part, chunkIndex);
  const indexInLevel = chunkIndex - level.firstChunk;
  const tileX = indexInLevel % level.tilesX;
  const tileY = Math.floor(indexInLevel / level.tilesX);
  return { level, tileX, tileY, block: tileBlock(part, level, tileX, tileY) };
}

export function tileBlock(part: PartInfo, level: Level, tileX: number, tileY: number): BlockLayout {
  const tiles = part.tiles!;
  const xOffsetPx = tileX * tiles.xSizePx;
  const yOffsetPx = tileY * tiles.ySizePx;
  return {
    channels: part.channels,
    x0: part.dataWindow.xMin + xOffsetPx,
    y0: part.dataWindow.yMin + yOffsetPx,
    widthPx: Math.min(tiles.xSizePx, level.widthPx - xOffsetPx),
    heightPx: Math.min(tiles.ySizePx, level.heightPx - yOffsetPx),
  };
}

function levelOfChunk(part: PartInfo, chunkIndex: number): Level {
  let lo = 0;
  let hi = part.levels.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (part.levels[mid]!.firstChunk <= chunkIndex) lo = mid;
    else hi = mid - 1;
  }
  const level = part.levels[lo]!;
  if (chunkIndex < level.firstChunk || chunkIndex >= level.firstChunk + level.tilesX * level.tilesY) {
    throw invalid(`chunk index ${chunkIndex} is out of range`);
  }
  return level;
}

/** Bytes of one line of `channel` within the block (0 when the line carries no samples of it). */
export function lineBytes(channel: Channel, block: BlockLayout, y: number): number {
  if (floorMod(y, channel.ySampling) !== 0) return 0;
  return sampleCount(channel.xSampling, block.x0, block.x0 + block.widthPx - 1) * PIXEL_TYPE_BYTES[channel.pixelType];
}

/** Size of the block's pixels in the uncompressed layout described in types.ts. */
export function uncompressedBytes(block: BlockLayout): number {
  let total = 0;
  const y1 = block.y0 + block.heightPx - 1;
  for (const ch of block.channels) {
    const lines = sampleCount(ch.ySampling, block.y0, y1);
    const samples = sampleCount(ch.xSampling, block.x0, block.x0 + block.widthPx - 1);
    total += lines * samples * PIXEL_TYPE_BYTES[ch.pixelType];
  }
  return total;
}

/** Where each chunk of a level sits in a chunk store (a level's decompressed chunks kept in RAM): byte offsets by chunk index within the level, and the total. */
export interface ChunkStoreLayout {
  offsets: Float64Array;
  totalBytes: number;
}

/** The level's chunks' uncompressed bytes, one after the other in chunk order. */
export function chunkStoreLayout(part: PartInfo, level: Level): ChunkStoreLayout {
  // a scanline part's one level has tilesX = 1 and a tile per chunk
  const count = level.tilesX * level.tilesY;
  const offsets = new Float64Array(count);
  let totalBytes = 0;
  for (let i = 0; i < count; i++) {
    offsets[i] = totalBytes;
    totalBytes += uncompressedBytes(chunkPlace(part, level.firstChunk + i).block);
  }
  return { offsets, totalBytes };
}

/** The region a decode asked for, checked to lie inside the level (the whole level when none was asked for). */
export function checkedRegion(part: PartInfo, level: Level, requested: Box2i | undefined, partIndex: number): Box2i {
  const levelBox: Box2i = {
    xMin: part.dataWindow.xMin,
    yMin: part.dataWindow.yMin,
    xMax: part.dataWindow.xMin + level.widthPx - 1,
    yMax: part.dataWindow.yMin + level.heightPx - 1,
  };
  const region = requested ?? levelBox;
  if (
    region.xMin < levelBox.xMin ||
    region.yMin < levelBox.yMin ||
    region.xMax > levelBox.xMax ||
    region.yMax > levelBox.yMax ||
    region.xMax < region.xMin ||
    region.yMax < region.yMin
  ) {
    throw invalid('requested region lies outside the level', { part: partIndex });
  }
  return region;
}

/** Chunk indices of a part that intersect `region` of `level`. */
export function chunksForRegion(part: PartInfo, level: Level, region: Box2i): number[] {
  const out: number[] = [];
  if (!part.isTiled) {
    const first = Math.floor((region.yMin - part.dataWindow.yMin) / part.linesPerChunk);
    const last = Math.floor((region.yMax - part.dataWindow.yMin) / part.linesPerChunk);
    for (let c = first; c <= last; c++) out.push(c);
    return out;
  }
  const tiles = part.tiles!;
  const tx0 = Math.floor((region.xMin - part.dataWindow.xMin) / tiles.xSizePx);
  const tx1 = Math.floor((region.xMax - part.dataWindow.xMin) / tiles.xSizePx);
  const ty0 = Math.floor((region.yMin - part.dataWindow.yMin) / tiles.ySizePx);
  const ty1 = Math.floor((region.yMax - part.dataWindow.yMin) / tiles.ySizePx);
  for (let ty = ty0; ty <= ty1; ty++) {
    for (let tx = tx0; tx <= tx1; tx++) out.push(level.firstChunk + ty * level.tilesX + tx);
  }
  return out;
}

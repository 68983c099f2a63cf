// The OpenEXR writer for images too large to hold in memory: one flat part, each chunk's pixels asked for and written as it goes.

import { chunkPlace } from './blocks.js';
import { ByteWriter } from './byte-writer.js';
import { compress } from './compression/index.js';
import { invalid, unsupported } from './core/errors.js';
import type { BlockLayout } from './core/types.js';
import type { Plane } from './mip-levels.js';
import { packBlock, type PackPlane } from './pack.js';
import type { Level } from './part.js';
import { encodeHeaders, writeThenRename, type HeaderPart } from './writer.js';

/** A single flat part (scanline or tiled, any level mode), full-resolution channels; samples come from `BlockPixels`. */
export type StreamPart = Omit<HeaderPart, 'deepSampleCounts' | 'lineOrder'>;

/**
 * The samples of one chunk: for each channel of the part (in the order the part lists them) the block's
 * widthPx × heightPx samples, rows top to bottom, half as binary16 bits. Lower levels are the caller's to make.
 */
export type BlockPixels = (level: Level, block: BlockLayout) => readonly Plane[];

/**
 * Where the blocks come from. `sameAs`, when given, names a block's content: a block named as one already written
 * (of the same size) reuses its compressed bytes without asking `pixels`, so an image of repeated blocks is made
 * and compressed once per distinct block.
 */
export interface BlockSource {
  pixels: BlockPixels;
  sameAs?: (level: Level, block: BlockLayout) => string;
}

/** Writes chunk by chunk to a temporary file beside `path`, then renames it into place; memory holds one chunk. */
export function writeExrFileStreaming(path: string, part: StreamPart, source: BlockSource): void {
  for (const ch of part.channels) {
    if ((ch.xSampling ?? 1) !== 1 || (ch.ySampling ?? 1) !== 1) throw unsupported(`streaming subsampled channel "${ch.name}"`);
  }
  const { headerBytes, infos } = encodeHeaders([part]);
  const info = infos[0]!;
  // channels are stored sorted by name: where each of the caller's planes goes
  const callerIndex = info.channels.map((c) => part.channels.findIndex((p) => p.name === c.name));
  const tableByte = headerBytes.length;
  const offsets = new ByteWriter(info.chunkCount * 8);
  const packedByName = new Map<string, Uint8Array>();
  writeThenRename(path, (put) => {
    put(headerBytes, 0);
    let byteOffset = tableByte + info.chunkCount * 8;
    for (let chunkIndex = 0; chunkIndex < info.chunkCount; chunkIndex++) {
      const { level, tileX, tileY, block } = chunkPlace(info, chunkIndex);
      const name = source.sameAs ? `${block.widthPx}x${block.heightPx}:${source.sameAs(level, block)}` : undefined;
      let packed = name === undefined ? undefined : packedByName.get(name);
      if (!packed) {
        const planes = packPlanes(source.pixels(level, block), callerIndex, info.channels, block);
        packed = compress(info.compression, packBlock(planes, { xMin: block.x0, yMin: block.y0 }, block), block);
        if (name !== undefined) packedByName.set(name, packed);
      }
      const head = new ByteWriter(24);
      if (info.isTiled) head.i32(tileX).i32(tileY).i32(level.lx).i32(level.ly);
      else head.i32(block.y0);
      head.i32(packed.length);
      const headBytes = head.finish();
      put(headBytes, byteOffset);
      put(packed, byteOffset + headBytes.length);
      offsets.u64(byteOffset);
      byteOffset += headBytes.length + packed.length;
    }
    put(offsets.finish(), tableByte);
  });
}

function packPlanes(
  planes: readonly Plane[],
  callerIndex: readonly number[],
  channels: readonly { name: string; pixelType: PackPlane['pixelType'] }[],
  block: BlockLayout,
): PackPlane[] {
  if (planes.length !== channels.length) throw invalid(`a block needs ${channels.length} planes, was given ${planes.length}`);
  return channels.map((ch, c) => {
    const data = planes[callerIndex[c]!]!;
    const expectedType = { half: Uint16Array, float: Float32Array, uint: Uint32Array }[ch.pixelType];
    if (!(data instanceof expectedType))
      throw invalid(`channel "${ch.name}" is ${ch.pixelType} but its block is a ${data.constructor.name}`);
    if (data.length !== block.widthPx * block.heightPx) {
      throw invalid(`channel "${ch.name}": the block holds ${data.length} samples, expected ${block.widthPx * block.heightPx}`);
    }
    return { xSampling: 1, ySampling: 1, pixelType: ch.pixelType, data, widthSamples: block.widthPx };
  });
}

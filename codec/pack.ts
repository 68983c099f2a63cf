// Packing planes into one chunk's uncompressed layout (types.ts, BlockLayout): the writer's unpackBlock.

import { floorMod, sampleCount } from './core/sampling.js';
import { PIXEL_TYPE_BYTES, type BlockLayout, type Box2i } from './core/types.js';
import { uncompressedBytes } from './blocks.js';

/** A channel's samples over `origin` (a level's pixels start at the data window's origin), rows top to bottom. */
export interface PackPlane {
  xSampling: number;
  ySampling: number;
  pixelType: 'uint' | 'half' | 'float';
  data: Uint16Array | Float32Array | Uint32Array;
  widthSamples: number;
}

/**
 * The block's bytes in file order: per line, per channel with samples on that line, the samples
 * of the line. `planes` are in the block's channel order; `origin` is the planes' top-left pixel.
 */
export function packBlock(planes: readonly PackPlane[], origin: Pick<Box2i, 'xMin' | 'yMin'>, block: BlockLayout): Uint8Array {
  const out = new Uint8Array(uncompressedBytes(block));
  const x1 = block.x0 + block.widthPx - 1;
  const views = planes.map((p) => new Uint8Array(p.data.buffer, p.data.byteOffset, p.data.byteLength));
  let pos = 0;
  for (let y = block.y0; y < block.y0 + block.heightPx; y++) {
    for (let c = 0; c < planes.length; c++) {
      const plane = planes[c]!;
      if (floorMod(y, plane.ySampling) !== 0) continue;
      const size = PIXEL_TYPE_BYTES[plane.pixelType];
      const rowBytes = plane.widthSamples * size;
      const row = sampleCount(plane.ySampling, origin.yMin, y - 1);
      const column = sampleCount(plane.xSampling, origin.xMin, block.x0 - 1);
      const copyBytes = sampleCount(plane.xSampling, block.x0, x1) * size;
      const src = row * rowBytes + column * size;
      out.set(views[c]!.subarray(src, src + copyBytes), pos);
      pos += copyBytes;
    }
  }
  return out;
}

// A level's layout against the codec's own accounting: the chunk store size is chunkStoreLayout's total for every
// sampling, data window origin, chunk height and tiling.

import fc from 'fast-check';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { chunkStoreLayout } from '../../codec/blocks.js';
import { ExrReader, openFileSource, type Compression } from '../../codec/index.js';
import { writeExrFile, type WriteChannel, type WritePart } from '../../codec/writer.js';
import { tempDir } from '../../testing/host/test-files.js';
import { levelLayout } from './layout.js';

const dir = tempDir('exrview-layout-');
afterAll(() => dir.remove());

it('sizes the chunk store as chunkStoreLayout does', () => {
  let n = 0;
  fc.assert(
    fc.property(
      fc.record({
        widthPx: fc.integer({ min: 1, max: 70 }),
        heightPx: fc.integer({ min: 1, max: 90 }),
        originX: fc.integer({ min: -5, max: 5 }),
        originY: fc.integer({ min: -5, max: 5 }),
        compression: fc.constantFrom<Compression>('none', 'rle', 'zip', 'piz'),
        subsampled: fc.boolean(),
        tiles: fc.option(fc.record({ xSizePx: fc.integer({ min: 1, max: 40 }), ySizePx: fc.integer({ min: 1, max: 40 }) }), {
          nil: undefined,
        }),
      }),
      (c) => {
        const channels: WriteChannel[] = [
          { name: 'R', pixelType: 'half', data: new Uint16Array(c.widthPx * c.heightPx) },
          { name: 'Z', pixelType: 'float', data: new Float32Array(c.widthPx * c.heightPx) },
        ];
        // OpenEXR allows subsampling in scanline parts only, on a data window whose origin and size it divides
        const subsampled =
          c.subsampled && !c.tiles && c.originX % 2 === 0 && c.originY % 2 === 0 && c.widthPx % 2 === 0 && c.heightPx % 2 === 0;
        if (subsampled) {
          const count = Math.ceil(c.widthPx / 2) * Math.ceil(c.heightPx / 2);
          channels.push({ name: 'BY', pixelType: 'half', xSampling: 2, ySampling: 2, data: new Uint16Array(count) });
        }
        const part: WritePart = {
          dataWindow: { xMin: c.originX, yMin: c.originY, xMax: c.originX + c.widthPx - 1, yMax: c.originY + c.heightPx - 1 },
          compression: c.compression,
          channels,
        };
        if (c.tiles) part.tiles = { ...c.tiles, levelMode: 'oneLevel' };
        const path = join(dir.path, `case${n++}.exr`);
        writeExrFile(path, [part]);
        const source = openFileSource(path);
        try {
          const info = ExrReader.open(source).parts[0]!;
          expect(levelLayout(info, 0, 0, null).chunkStoreBytes).toBe(chunkStoreLayout(info, info.levels[0]!).totalBytes);
        } finally {
          source.close();
        }
      },
    ),
    { numRuns: 60, seed: 7 },
  );
});

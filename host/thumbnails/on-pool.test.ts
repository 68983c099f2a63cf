// A thumbnail summed in bands by several workers equals the one a single task makes from the whole level.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DecodePool } from '../decode/pool.js';
import { thumbnailJob } from './job.js';
import { thumbnailOnPool } from './on-pool.js';

const root = join(__dirname, '..', '..');
const corpus = join(root, '..', 'shared', 'corpus', 'openexr-images');
const hasCorpus = existsSync(corpus) && existsSync(join(root, 'dist', 'decode-worker.mjs'));
const signal = { aborted: false };

let pool: DecodePool | null = null;
afterAll(async () => pool?.close());

describe.skipIf(!hasCorpus)('thumbnailOnPool', () => {
  // scanline and tiled, PIZ, ZIP and RLE, luminance/chroma subsampling, a MIP level, a data window off the origin
  const files = [
    'ScanLines/Desk.exr',
    'ScanLines/Tree.exr',
    'Tiles/GoldenGate.exr',
    'MultiResolution/Bonita.exr',
    'LuminanceChroma/MtTamNorth.exr',
    'DisplayWindow/t08.exr',
  ];
  for (const name of files) {
    it(`${name}: the bands add up to the whole level's thumbnail`, async () => {
      pool ??= new DecodePool({ workers: 2 });
      const path = join(corpus, name);
      for (const longSidePx of [37, 256]) {
        const { result: banded, timings } = await thumbnailOnPool(pool, path, longSidePx, 0).promise;
        const { result: whole } = thumbnailJob({ path, longSidePx }, { signal });
        expect({ ...banded, rgbaHalf: null, timings: null }).toEqual({ ...whole, rgbaHalf: null, timings: null });
        const a = new Uint16Array(banded.rgbaHalf);
        const b = new Uint16Array(whole.rgbaHalf);
        // the bands' sums are added in another order: at most one step of the last half bit apart
        let worst = 0;
        for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
        expect(worst).toBeLessThanOrEqual(1);
        if (longSidePx === 256) expect(timings.tasks).toBeGreaterThan(0);
      }
    });
  }

  it("reuses a finished job's sums buffer for the next thumbnail of its size and still gives the same pixels", async () => {
    pool ??= new DecodePool({ workers: 2 });
    const desk = join(corpus, 'ScanLines/Desk.exr');
    const tree = join(corpus, 'ScanLines/Tree.exr');
    const first = (await thumbnailOnPool(pool, desk, 64, 0).promise).result;
    // the same sizes of sums for another image, then the first again: each starts from zero, not from the last sums
    await thumbnailOnPool(pool, tree, 64, 0).promise;
    const again = (await thumbnailOnPool(pool, desk, 64, 0).promise).result;
    const together = await Promise.all([thumbnailOnPool(pool, desk, 64, 0).promise, thumbnailOnPool(pool, desk, 64, 0).promise]);
    for (const r of [again, ...together.map((t) => t.result)]) expect(new Uint16Array(r.rgbaHalf)).toEqual(new Uint16Array(first.rgbaHalf));
  });
});

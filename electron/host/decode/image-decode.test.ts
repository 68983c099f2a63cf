// A level decoded in bands by several workers into shared planes equals the same level decoded whole.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExrReader, openFileSource } from '../../exr/index.js';
import { DecodePool } from './pool.js';
import { decodeParallel, planBands, scanlineLayout } from './image-decode.js';
import { readSummary } from '../library/summary.js';

const corpus = join(__dirname, '..', '..', '..', '..', 'shared', 'corpus', 'openexr-images');
const hasCorpus = existsSync(corpus) && existsSync(join(__dirname, '..', '..', '..', 'dist', 'decode-worker.mjs'));

describe('planBands', () => {
  it('cuts whole chunks, aligned to subsampling, covering every row once', () => {
    const layout = { frame: { xMin: 0, yMin: -7, xMax: 9, yMax: 100 }, planes: [], rowsPerChunk: 16, rowAlignment: 2 };
    const bands = planBands(layout, 4);
    expect(bands[0]!.yMin).toBe(-7);
    expect(bands[bands.length - 1]!.yMax).toBe(100);
    for (let i = 1; i < bands.length; i++) {
      expect(bands[i]!.yMin).toBe(bands[i - 1]!.yMax + 1);
      expect((bands[i]!.yMin - layout.frame.yMin) % 16).toBe(0);
    }
  });
});

let pool: DecodePool | null = null;
afterAll(async () => pool?.close());

describe.skipIf(!hasCorpus)('decodeParallel', () => {
  for (const name of ['ScanLines/Desk.exr', 'LuminanceChroma/MtTamNorth.exr', 'Tiles/GoldenGate.exr', 'MultiResolution/Bonita.exr']) {
    it(`${name}: equals a whole decode`, async () => {
      pool ??= new DecodePool({ workers: 2 });
      const path = join(corpus, name);
      const { result: image, timings } = await decodeParallel(pool, { path }).promise;
      expect(timings.bands).toBeGreaterThan(1);
      const source = openFileSource(path);
      const whole = ExrReader.open(source).decode();
      source.close();
      expect(image.channels.map((c) => c.name)).toEqual(whole.channels.map((c) => c.name));
      image.channels.forEach((c, i) => expect(Buffer.from(c.data.buffer).equals(Buffer.from(whole.channels[i]!.data.buffer))).toBe(true));
    });
  }
});

describe.skipIf(!hasCorpus)('scanlineLayout', () => {
  it('plans from the header summary exactly what the layout job reads from the file', async () => {
    pool ??= new DecodePool({ workers: 2 });
    for (const name of ['ScanLines/Desk.exr', 'LuminanceChroma/MtTamNorth.exr']) {
      const path = join(corpus, name);
      const summary = await readSummary(path);
      if (summary.kind !== 'ok') throw new Error(`${name}: ${summary.reason}`);
      const fromSummary = scanlineLayout(summary.summary.parts[0]!, null);
      const { result: fromWorker } = await pool.run('layout', { path, part: 0, lx: 0, ly: 0 }).promise;
      expect(fromSummary).toEqual(fromWorker);
      // with the layout given, the bands are queued at once and the image is the same
      const { result: image } = await decodeParallel(pool, { path, layout: fromSummary! }).promise;
      expect(image.channels.map((c) => c.name)).toEqual(fromWorker.planes.map((p) => p.name));
    }
  });

  it('leaves tiled parts to the layout job (their tile size is not in the summary)', async () => {
    const summary = await readSummary(join(corpus, 'Tiles/GoldenGate.exr'));
    if (summary.kind !== 'ok') throw new Error(`GoldenGate.exr: ${summary.reason}`);
    expect(scanlineLayout(summary.summary.parts[0]!, null)).toBeNull();
  });
});

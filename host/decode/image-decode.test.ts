// A level decoded in bands by several workers into shared planes equals the same level decoded whole; chunk stores and plane memory.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExrReader, openFileSource } from '../../codec/index.js';
import { readHeaderParts } from '../headers/summary.js';
import { decodeLevel } from './image-decode.js';
import { bandCountFor, levelLayout, planBands, planeByteLength } from './layout.js';
import { PlaneMemory } from './plane-memory.js';
import { DecodePool } from './pool.js';

const corpus = join(__dirname, '..', '..', '..', 'shared', 'corpus', 'openexr-images');
const hasCorpus = existsSync(corpus) && existsSync(join(__dirname, '..', '..', 'dist', 'decode-worker.mjs'));

describe('planBands', () => {
  it('cuts whole chunks, aligned to subsampling, covering every row once', () => {
    const layout = { frame: { xMin: 0, yMin: -7, xMax: 9, yMax: 100 }, rowsPerChunk: 16, rowAlignment: 2 };
    const bands = planBands(layout, 4);
    expect(bands[0]!.yMin).toBe(-7);
    expect(bands[bands.length - 1]!.yMax).toBe(100);
    for (let i = 1; i < bands.length; i++) {
      expect(bands[i]!.yMin).toBe(bands[i - 1]!.yMax + 1);
      expect((bands[i]!.yMin - layout.frame.yMin) % 16).toBe(0);
    }
  });
});

describe('bandCountFor', () => {
  const layout = (widthPx: number, heightPx: number, rowBytes: number) =>
    ({ frame: { xMin: 0, yMin: 0, xMax: widthPx - 1, yMax: heightPx - 1 }, rowBytes }) as Parameters<typeof bandCountFor>[0];
  it('gives every worker a few bands of a level alone, and keeps bands under 4 MB', () => {
    // 4K half RGBA: 66 MB
    expect(bandCountFor(layout(3840, 2160, 3840 * 8), 2)).toBe(Math.ceil((3840 * 8 * 2160) / (4 << 20)));
    expect(bandCountFor(layout(3840, 2160, 3840 * 8), 16)).toBe(48);
    // beside other jobs: one band per worker, never bands over the size limit
    expect(bandCountFor(layout(3840, 2160, 3840 * 8), 16, 3)).toBe(Math.ceil((3840 * 8 * 2160) / (4 << 20)));
    expect(bandCountFor(layout(3840, 2160, 3840 * 2), 16, 1)).toBe(16);
  });
  it('does not cut a small image into bands not worth a task', () => {
    expect(bandCountFor(layout(64, 64, 64 * 8), 16)).toBe(1);
  });
});

describe('PlaneMemory', () => {
  it('hands back buffers of the same size, oldest sizes out first past its budget', () => {
    const memory = new PlaneMemory({ keepBytes: 10 << 20 });
    const a = memory.take(4 << 20);
    memory.give(a);
    expect(memory.take(4 << 20)).toBe(a);
    expect(memory.reused).toBe(1);
    const b = memory.take(4 << 20);
    const c = memory.take(6 << 20);
    memory.give(b);
    memory.give(a);
    memory.give(c); // over budget: the 4 MB buffers kept longest go first
    expect(memory.keptBytes).toBeLessThanOrEqual(10 << 20);
    expect(memory.take(6 << 20)).toBe(c);
  });
});

let pool: DecodePool | null = null;
afterAll(async () => pool?.close());

describe.skipIf(!hasCorpus)('decodeLevel', () => {
  const whole = (path: string, channels?: string[]) => {
    const source = openFileSource(path);
    try {
      return ExrReader.open(source).decode(channels ? { channels } : {});
    } finally {
      source.close();
    }
  };

  for (const name of ['ScanLines/Desk.exr', 'LuminanceChroma/MtTamNorth.exr', 'Tiles/GoldenGate.exr', 'MultiResolution/Bonita.exr']) {
    it(`${name}: equals a whole decode`, async () => {
      pool ??= new DecodePool({ workers: 2 });
      const path = join(corpus, name);
      const parts = await readHeaderParts(path);
      const { result, timings } = await decodeLevel(pool, { path, layout: levelLayout(parts[0]!, 0, 0, null), channels: null }).promise;
      expect(timings.tasks).toBeGreaterThan(1);
      const reference = whole(path);
      expect(result.image.channels.map((c) => c.name)).toEqual(reference.channels.map((c) => c.name));
      result.image.channels.forEach((c, i) =>
        expect(Buffer.from(c.data.buffer).equals(Buffer.from(reference.channels[i]!.data.buffer))).toBe(true),
      );
    });
  }

  it('keeps the decompressed chunks and unpacks other channels from them without reading the file', async () => {
    pool ??= new DecodePool({ workers: 2 });
    const path = join(corpus, 'ScanLines/Desk.exr');
    const part = (await readHeaderParts(path))[0]!;
    const first = await decodeLevel(pool, { path, layout: levelLayout(part, 0, 0, ['R']), channels: ['R'], chunks: 'keep' }).promise;
    expect(first.result.chunkStore!.byteLength).toBe(levelLayout(part, 0, 0, null).chunkStoreBytes);
    const second = await decodeLevel(pool, {
      path,
      layout: levelLayout(part, 0, 0, ['A', 'G']),
      channels: ['A', 'G'],
      chunks: { store: first.result.chunkStore! },
    }).promise;
    expect(second.result.image.timings.bytesRead).toBe(0);
    expect(second.result.image.timings.decompressMs).toBe(0);
    const reference = whole(path, ['A', 'G', 'R']);
    const planes = [...second.result.image.channels, ...first.result.image.channels];
    for (const name of ['A', 'G', 'R']) {
      const got = planes.find((p) => p.name === name)!;
      const want = reference.channels.find((p) => p.name === name)!;
      expect(Buffer.from(got.data.buffer).equals(Buffer.from(want.data.buffer))).toBe(true);
    }
  });

  it('decodes into reused buffers longer than its planes, chunk store included, and views only the planes', async () => {
    pool ??= new DecodePool({ workers: 2 });
    const path = join(corpus, 'ScanLines/Desk.exr');
    const part = (await readHeaderParts(path))[0]!;
    const layout = levelLayout(part, 0, 0, null);
    const memory = new PlaneMemory({ keepBytes: 1 << 30, minBytes: 0 });
    // kept buffers of another, slightly larger image, full of stale bytes
    const planeBytes = planeByteLength(layout.planes[0]!);
    const stale = [...layout.planes.map(() => planeBytes + 4096), layout.chunkStoreBytes + 8192].map((bytes) => {
      const buffer = new SharedArrayBuffer(bytes);
      new Uint8Array(buffer).fill(0xa5);
      memory.give(buffer);
      return buffer;
    });
    const first = await decodeLevel(pool, { path, layout: levelLayout(part, 0, 0, ['R']), channels: ['R'], memory, chunks: 'keep' })
      .promise;
    const second = await decodeLevel(pool, {
      path,
      layout: levelLayout(part, 0, 0, ['A', 'G']),
      channels: ['A', 'G'],
      memory,
      chunks: { store: first.result.chunkStore! },
    }).promise;
    // the store and the three planes asked for (B is not)
    expect(memory.reused).toBe(4);
    expect(stale).toContain(first.result.chunkStore);
    const reference = whole(path, ['A', 'G', 'R']);
    for (const got of [...first.result.image.channels, ...second.result.image.channels]) {
      expect(stale).toContain(got.data.buffer);
      expect(got.data.buffer.byteLength).toBeGreaterThan(got.data.byteLength);
      const want = reference.channels.find((p) => p.name === got.name)!;
      expect(got.data.length).toBe(want.data.length);
      expect(Buffer.from(got.data.buffer, 0, got.data.byteLength).equals(Buffer.from(want.data.buffer))).toBe(true);
    }
  });
});

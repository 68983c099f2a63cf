// The warm-ups (the workers' codecs, the main thread's jobs) decode what they should without throwing; their speed-up is a benchmark figure.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExrError, ExrReader, memorySource } from '../../codec/index.js';
import { DecodePool } from '../decode/pool.js';
import { warmUpCodec, warmUpDecoder, warmUpImages } from './warm-up.js';
import { WARM_UP_DWAA_BASE64 } from './warm-up-dwa.js';
import { JOB_IMAGE_HEIGHT_PX, JOB_IMAGE_WIDTH_PX, runWarmUpJobs, warmUpJobs } from './warm-up-jobs.js';

describe('warmUpDecoder', () => {
  it('decodes its images and sums them into thumbnail bins without an error, and says how long it took', () => {
    // the codec's own errors would be swallowed by warmUpDecoder: the inner run must not meet one
    expect(() => warmUpCodec()).not.toThrow();
    const ms = warmUpDecoder();
    expect(ms).toBeGreaterThan(0);
    expect(Number.isFinite(ms)).toBe(true);
  });

  it('reads its images from temporary files it removes, and from memory where none can be written', () => {
    const before = process.env.TMPDIR;
    const dir = mkdtempSync(join(tmpdir(), 'exrview-warm-up-test-'));
    try {
      process.env.TMPDIR = dir;
      expect(() => warmUpCodec()).not.toThrow();
      expect(readdirSync(dir)).toEqual([]);
      process.env.TMPDIR = join(dir, 'missing');
      expect(() => warmUpCodec()).not.toThrow();
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the DWAA warm-up image', () => {
  it("damaged, decodes or is refused with an ExrError, and leaves the codec's reused buffers sound", () => {
    // a DWAA file from OpenEXR 3.4 (AC Huffman, DC deflate, alpha RLE sections): random bytes after its header changed
    const original = new Uint8Array(Buffer.from(WARM_UP_DWAA_BASE64, 'base64'));
    const planesOf = (bytes: Uint8Array) =>
      ExrReader.open(memorySource(bytes))
        .decode()
        .channels.map((c) => Buffer.from(c.data.buffer, c.data.byteOffset, c.data.byteLength));
    const reference = planesOf(original);
    const headerEnd = ExrReader.open(memorySource(original)).headerEndByte;
    let seed = 2026;
    const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    let refused = 0;
    for (let c = 0; c < 400; c++) {
      const damaged = original.slice();
      for (let k = 1 + Math.floor(next() * 6); k > 0; k--) {
        const at = headerEnd + Math.floor(next() * (damaged.length - headerEnd));
        damaged[at] = next() < 0.5 ? damaged[at]! ^ (1 << Math.floor(next() * 8)) : Math.floor(next() * 256);
      }
      try {
        ExrReader.open(memorySource(damaged)).decode();
      } catch (error) {
        expect(error, `case ${c}`).toBeInstanceOf(ExrError);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(100);
    expect(planesOf(original)).toEqual(reference);
  });

  it('is a DWAA file the codec decodes', async () => {
    const { ExrReader, memorySource } = await import('../../codec/index.js');
    const { WARM_UP_DWAA_BASE64 } = await import('./warm-up-dwa.js');
    const reader = ExrReader.open(memorySource(Buffer.from(WARM_UP_DWAA_BASE64, 'base64')));
    expect(reader.parts[0]!.compression).toBe('dwaa');
    const image = reader.decode();
    expect(image.channels.map((c) => c.name)).toEqual(['A', 'B', 'G', 'R']);
    expect(image.widthPx * image.heightPx).toBe(128 * 64);
  });
});

describe("the main thread's warm-up jobs", () => {
  const workerBuilt = existsSync(join(__dirname, '..', '..', 'dist', 'decode-worker.mjs'));
  it.skipIf(!workerBuilt)('decode and thumbnail every warm-up image through the pool, and leave no file behind', async () => {
    const pool = new DecodePool({ workers: 2 });
    const before = new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('exrview-warm-up-')));
    try {
      const images = warmUpImages(JOB_IMAGE_WIDTH_PX, JOB_IMAGE_HEIGHT_PX);
      const done = await runWarmUpJobs(pool, undefined, 2);
      const pixelsOf = (bytes: Uint8Array) => {
        const { widthPx, heightPx } = ExrReader.open(memorySource(bytes)).parts[0]!;
        return widthPx * heightPx;
      };
      const pixelsPerRound = images.reduce((sum, { bytes }) => sum + pixelsOf(bytes), 0);
      expect(done).toEqual({ pixels: 2 * pixelsPerRound, thumbnails: 2 * images.length });
      expect(readdirSync(tmpdir()).filter((n) => n.startsWith('exrview-warm-up-') && !before.has(n))).toEqual([]);
      expect(await warmUpJobs(pool, undefined)).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  });
});

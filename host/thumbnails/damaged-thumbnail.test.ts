// A damaged file's thumbnail on the pool: made of the chunks that could be read, the pixels of the others hatched, the
// result saying how many are missing; a file with no readable chunk fails, saying so.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { floatToHalf, HALF_TO_FLOAT, writeExr } from '../../codec/index.js';
import { cutInChunk, zeroChunks } from '../../testing/codec/damage.js';
import { rgbBytes, tempDir } from '../../testing/host/test-files.js';
import { DEFAULT_DISPLAY } from '../../shaders/display-params.js';
import { DecodePool } from '../decode/pool.js';
import { thumbnailOnPool } from './on-pool.js';
import { viewMemo } from './tone-map.js';

const hasWorker = existsSync(join(__dirname, '..', '..', 'dist', 'decode-worker.mjs'));
const W = 64;
const H = 100; // ZIP: 16 lines a chunk, 7 chunks
const LONG_SIDE_PX = 50; // 32 x 50: two image rows a thumbnail row

let pool: DecodePool | null = null;
afterAll(async () => pool?.close());
const dir = tempDir('exrview-damaged-thumb-');
afterAll(() => dir.remove());

function write(name: string, bytes: Uint8Array): string {
  const path = join(dir.path, name);
  writeFileSync(path, bytes);
  return path;
}

const whole = rgbBytes(W, H, (x, y) => [x / 64, y / 100, 0.5], { compression: 'zip' });

async function thumbnail(path: string) {
  pool ??= new DecodePool({ workers: 2 });
  return (await thumbnailOnPool(pool, path, LONG_SIDE_PX, 0).promise).result;
}

/** Thumbnail rows [yMin, yMax] of `got` equal `want`'s; the others are hatched (opaque grey, not the image). */
function expectRowsHatched(got: Uint16Array, want: Uint16Array, widthPx: number, hatched: (ty: number) => boolean): void {
  const heightPx = got.length / 4 / widthPx;
  for (let ty = 0; ty < heightPx; ty++) {
    const row = got.subarray(ty * widthPx * 4, (ty + 1) * widthPx * 4);
    if (!hatched(ty)) {
      expect(row, `row ${ty}`).toEqual(want.subarray(ty * widthPx * 4, (ty + 1) * widthPx * 4));
      continue;
    }
    const greys = new Set<number>();
    for (let i = 0; i < row.length; i += 4) {
      expect(row[i]).toBe(row[i + 1]);
      expect(row[i]).toBe(row[i + 2]);
      expect(HALF_TO_FLOAT[row[i + 3]!]).toBe(1);
      greys.add(row[i]!);
    }
    // stripes: two greys along each row
    expect(greys.size, `row ${ty}`).toBe(2);
  }
}

describe.skipIf(!hasWorker)("a damaged file's thumbnail", () => {
  it('a file cut short: its readable chunks shown, the rest hatched, the result saying how many chunks are missing', async () => {
    const good = await thumbnail(write('whole.exr', whole));
    expect(good.missing).toBeUndefined();
    const cut = await thumbnail(write('cut.exr', cutInChunk(whole, 4)));
    expect(cut).toMatchObject({ widthPx: 32, heightPx: 50, missing: { chunksRead: 4, chunksTotal: 7 } });
    expect(cut.missing!.reason).toMatch(/^part 0, chunk 4: /);
    // image rows 64 on (chunks 4-6) are thumbnail rows 32 on
    expectRowsHatched(new Uint16Array(cut.rgbaHalf), new Uint16Array(good.rgbaHalf), 32, (ty) => ty >= 32);
  });

  it('one zeroed chunk: only the rows it covers hatched, through a view too (rgba8)', async () => {
    const good = await thumbnail(write('whole2.exr', whole));
    const path = write('zeroed.exr', zeroChunks(whole, [2]));
    const { result } = await thumbnailOnPool(pool!, path, LONG_SIDE_PX, 0, {
      view: { params: DEFAULT_DISPLAY, memo: viewMemo(DEFAULT_DISPLAY) },
    }).promise;
    expect(result.missing).toMatchObject({ chunksRead: 6, chunksTotal: 7 });
    // image rows 32-47: thumbnail rows 16-23
    expectRowsHatched(new Uint16Array(result.rgbaHalf), new Uint16Array(good.rgbaHalf), 32, (ty) => ty >= 16 && ty <= 23);
    const rgba8 = new Uint8Array(result.rgba8!);
    const at = (tx: number, ty: number) => rgba8[(ty * 32 + tx) * 4]!;
    // the hatch is drawn through the view as mid grey and lighter stripes, unlike the dark ramp beside it
    const hatch = new Set(Array.from({ length: 32 }, (_, tx) => at(tx, 20)));
    expect([...hatch].sort((a, b) => a - b)).toHaveLength(2);
    expect(Math.min(...hatch)).toBeGreaterThan(90);
  });

  it('a deep file cut short: its readable lines flattened, the rest hatched, the result saying so', async () => {
    // 16 x 40 deep scanline, ZIPS (a line a chunk): one opaque sample of 0.5 grey a pixel
    const counts = new Uint32Array(16 * 40).fill(1);
    const half = (v: number) => new Uint16Array(16 * 40).fill(floatToHalf(v));
    const deep = writeExr([
      {
        compression: 'zips',
        dataWindow: { xMin: 0, yMin: 0, xMax: 15, yMax: 39 },
        deepSampleCounts: counts,
        channels: ['A', 'B', 'G', 'R'].map((name) => ({ name, pixelType: 'half' as const, data: half(name === 'A' ? 1 : 0.5) })),
      },
    ]);
    const cut = await thumbnail(write('deep-cut.exr', cutInChunk(deep, 30)));
    // 20 x 50 would enlarge: the thumbnail is the image's own 16 x 40
    expect(cut).toMatchObject({ widthPx: 16, heightPx: 40, missing: { chunksRead: 30, chunksTotal: 40 } });
    const rgba = new Uint16Array(cut.rgbaHalf);
    expect(HALF_TO_FLOAT[rgba[29 * 16 * 4]!]).toBe(0.5);
    const greys = new Set(Array.from({ length: 16 }, (_, x) => rgba[(35 * 16 + x) * 4]!));
    expect(greys.size).toBe(2);
    expect(greys.has(floatToHalf(0.5))).toBe(false);
  });

  it('a file of which no chunk can be read fails, saying so', async () => {
    const path = write('none.exr', zeroChunks(whole, [0, 1, 2, 3, 4, 5, 6]));
    await expect(thumbnail(path)).rejects.toThrow(/no other chunk of the image could be read/);
  });
});

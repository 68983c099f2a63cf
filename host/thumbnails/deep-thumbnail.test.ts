// Files of deep parts only get a thumbnail: their samples flattened front to back ("over", by depth), box-filtered.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { floatToHalf, HALF_TO_FLOAT, writeExrFile } from '../../codec/index.js';
import { DecodePool } from '../decode/pool.js';
import { DEFAULT_DISPLAY } from '../../shaders/display-params.js';
import { thumbnailOnPool } from './on-pool.js';
import { viewMemo } from './tone-map.js';

const root = join(__dirname, '..', '..');
const hasWorker = existsSync(join(root, 'dist', 'decode-worker.mjs'));
const trunks = join(root, '..', 'shared', 'corpus', 'openexr-images', 'v2', 'LowResLeftView', 'Trunks.exr');
const dir = mkdtempSync(join(tmpdir(), 'exrview-deep-thumb-'));
let pool: DecodePool | null = null;
afterAll(async () => {
  await pool?.close();
  rmSync(dir, { recursive: true, force: true });
});

const W = 6;
const H = 4;

/**
 * A deep image whose flattening is known: every pixel has an opaque back sample of red x/W (Z 5) and, in the right
 * half, a half-transparent front sample of green 0.5 (premultiplied, Z 2) stored after the back one, so that only a
 * flattening that sorts by depth puts it in front: red x/W * 0.5, green 0.5 + 0, alpha 1.
 */
function writeDeep(path: string): void {
  const counts = new Uint32Array(W * H);
  const a: number[] = [];
  const r: number[] = [];
  const g: number[] = [];
  const z: number[] = [];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const front = x >= W / 2;
      counts[y * W + x] = front ? 2 : 1;
      a.push(1);
      r.push(x / W);
      g.push(0);
      z.push(5);
      if (front) {
        a.push(0.5);
        r.push(0);
        g.push(0.5);
        z.push(2);
      }
    }
  }
  const half = (values: number[]) => Uint16Array.from(values, floatToHalf);
  writeExrFile(path, [
    {
      compression: 'zips',
      dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 },
      deepSampleCounts: counts,
      channels: [
        { name: 'A', pixelType: 'half', data: half(a) },
        { name: 'B', pixelType: 'half', data: half(a.map(() => 0)) },
        { name: 'G', pixelType: 'half', data: half(g) },
        { name: 'R', pixelType: 'half', data: half(r) },
        { name: 'Z', pixelType: 'float', data: Float32Array.from(z) },
      ],
    },
  ]);
}

describe.skipIf(!hasWorker)('deep-only thumbnails', () => {
  it('flattens by depth: each pixel is its samples composited front to back', async () => {
    pool ??= new DecodePool({ workers: 1 });
    const path = join(dir, 'deep.exr');
    writeDeep(path);
    const { result } = await thumbnailOnPool(pool, path, 64, 0).promise; // not enlarged: one thumbnail pixel a pixel
    expect(result).toMatchObject({ widthPx: W, heightPx: H, source: 'full-decode', part: 0, channels: { kind: 'rgb' } });
    const rgba = Array.from(new Uint16Array(result.rgbaHalf), (h) => HALF_TO_FLOAT[h]!);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const front = x >= W / 2;
        const red = HALF_TO_FLOAT[floatToHalf(x / W)]!;
        const o = (y * W + x) * 4;
        expect(rgba.slice(o, o + 4), `pixel ${x}, ${y}`).toEqual([front ? red * 0.5 : red, front ? 0.5 : 0, 0, 1]);
      }
    }
  });

  it('tone-maps, encodes and writes like any thumbnail when asked', async () => {
    pool ??= new DecodePool({ workers: 1 });
    const path = join(dir, 'deep.exr');
    writeDeep(path);
    const { result } = await thumbnailOnPool(pool, path, 3, 0, { view: { params: DEFAULT_DISPLAY, memo: viewMemo(DEFAULT_DISPLAY) } })
      .promise;
    expect(result).toMatchObject({ widthPx: 3, heightPx: 2 });
    const rgba8 = new Uint8Array(result.rgba8!);
    expect(rgba8).toHaveLength(3 * 2 * 4);
    // the right third is the green front sample over red: green clearly up
    expect(rgba8[2 * 4 + 1]!).toBeGreaterThan(150);
    expect(rgba8[0 * 4 + 1]!).toBe(0);
  });

  it.skipIf(!existsSync(trunks))(
    "OpenEXR's v2/LowResLeftView/Trunks.exr (deep scanline only) gets a thumbnail with its trunks in it",
    async () => {
      pool ??= new DecodePool({ workers: 1 });
      const { result } = await thumbnailOnPool(pool, trunks, 128, 0).promise;
      expect(result).toMatchObject({ widthPx: 128, heightPx: 54, source: 'full-decode' });
      const rgba = new Uint16Array(result.rgbaHalf);
      let covered = 0;
      for (let i = 3; i < rgba.length; i += 4) if (HALF_TO_FLOAT[rgba[i]!]! > 0.5) covered++;
      // trunks cover part of the frame, not none of it and not all of it
      expect(covered).toBeGreaterThan(rgba.length / 4 / 20);
      expect(covered).toBeLessThan(rgba.length / 4);
    },
  );
});

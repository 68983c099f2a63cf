// `exrview thumbs` on environment maps: a cube map (envmap attribute, faces stacked) gets a 2:1 lat-long thumbnail
// with its faces where OpenEXR puts them; a lat-long map and an ordinary 1:6 image keep their own shape. Needs the build.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { writeExrFile } from '../codec/writer.js';
import { tempDir } from '../testing/host/test-files.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'exrview.mjs');
const why = existsSync(join(root, 'dist', 'cli.mjs')) ? '' : 'dist/cli.mjs is missing: run `node scripts/build.mjs`';
if (why) console.warn(`thumbs-envmap.test: skipped: ${why}`);

const F = 32;
/** Face f (0..5: +X, -X, +Y, -Y, +Z, -Z) holds one of six distinct colours. */
const FACE_COLOURS = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
  [1, 1, 0],
  [0, 1, 1],
  [1, 0, 1],
];

function plane(w: number, h: number, f: (x: number, y: number) => number): Float32Array {
  const p = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) p[y * w + x] = f(x, y);
  return p;
}

describe.skipIf(!!why)('exrview thumbs on environment maps', () => {
  it('gives a cube map a lat-long thumbnail; leaves lat-long maps and plain tall images as they are', async () => {
    const dir = tempDir('exrview-thumbs-env-');
    const images = join(dir.path, 'images');
    mkdirSync(images);
    const box = (w: number, h: number) => ({ xMin: 0, yMin: 0, xMax: w - 1, yMax: h - 1 });
    const cubeChannels = ['B', 'G', 'R'].map((name) => ({
      name,
      pixelType: 'float' as const,
      data: plane(F, 6 * F, (_x, y) => FACE_COLOURS[Math.floor(y / F)]![{ R: 0, G: 1, B: 2 }[name]!]!),
    }));
    writeExrFile(join(images, 'cube.exr'), [
      { dataWindow: box(F, 6 * F), compression: 'none', channels: cubeChannels, attributes: { envmap: { type: 'envmap', value: 1 } } },
    ]);
    writeExrFile(join(images, 'tall.exr'), [{ dataWindow: box(F, 6 * F), compression: 'none', channels: cubeChannels }]);
    writeExrFile(join(images, 'latlong.exr'), [
      {
        dataWindow: box(64, 32),
        compression: 'none',
        channels: ['B', 'G', 'R'].map((name) => ({ name, pixelType: 'float' as const, data: plane(64, 32, () => 0.5) })),
        attributes: { envmap: { type: 'envmap', value: 0 } },
      },
    ]);
    const out = join(dir.path, 'out');
    const r = spawnSync(process.execPath, [bin, 'thumbs', images, '--out', out, '--size', '64', '--gpu', 'off'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, EXRVIEW_CACHE_DIR: join(dir.path, 'cache') },
    });
    expect(r.status, r.stderr).toBe(0);
    const cube = await sharp(join(out, 'cube.png')).raw().toBuffer({ resolveWithObject: true });
    expect([cube.info.width, cube.info.height]).toEqual([64, 32]);
    const px = (x: number, y: number): number[] => {
      const i = (y * cube.info.width + x) * cube.info.channels;
      return [...cube.data.subarray(i, i + 3)].map((v) => (v > 127 ? 1 : 0));
    };
    expect(px(10, 0)).toEqual(FACE_COLOURS[2]); // zenith: +Y
    expect(px(40, 31)).toEqual(FACE_COLOURS[3]); // nadir: -Y
    expect(px(32, 16)).toEqual(FACE_COLOURS[4]); // longitude 0: +Z
    expect(px(16, 16)).toEqual(FACE_COLOURS[0]); // longitude +90: +X
    expect((await sharp(join(out, 'tall.png')).metadata()).height).toBe(64); // not an env map: its own 1:6 shape
    const ll = await sharp(join(out, 'latlong.png')).metadata();
    expect([ll.width, ll.height]).toEqual([64, 32]);
    dir.remove();
  });
});

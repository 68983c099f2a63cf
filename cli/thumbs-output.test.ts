// `exrview thumbs` writes each thumbnail through the view exactly as the CPU reference tone-maps its half RGBA: made
// now (tone-mapped by the worker that finishes it) and from the disk cache (by a worker task) alike, for the default
// view and an exposure with a filmic transform. Needs the build.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_DISPLAY, type DisplayTransform } from '../shaders/display-params.js';
import { createHost } from '../host/host.js';
import { tempDir, writeRgb } from '../testing/host/test-files.js';
import { toneMapHalfRgba } from '../host/thumbnails/tone-map.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'exrview.mjs');
const why = existsSync(join(root, 'dist', 'cli.mjs')) ? '' : 'dist/cli.mjs is missing: run `node scripts/build.mjs`';
if (why) console.warn(`thumbs-output.test: skipped: ${why}`);

const dir = tempDir('exrview-thumbs-out-');
afterAll(() => dir.remove());

describe.skipIf(!!why)('exrview thumbs output', () => {
  const images = join(dir.path, 'images');
  mkdirSync(images);
  // values over 1, negatives and a gradient: every branch of the views' curves
  writeRgb(join(images, 'a.exr'), 300, 120, (x, y) => [(x / 30) ** 2, y / 120 - 0.2, Math.sin(x * y) * 4], { compression: 'piz' });
  writeRgb(join(images, 'b.exr'), 90, 200, (x, y) => [0.18, x / 90, (y / 200) * 16], { compression: 'zip', withAlpha: true });

  for (const [transform, exposureEv] of [
    ['srgb', 0],
    ['agx', 1.5],
  ] as [DisplayTransform, number][]) {
    it(`--tonemap ${transform} --exposure ${exposureEv}: made now and from the cache, each PNG is the reference tone-map of its thumbnail`, async () => {
      const cache = join(dir.path, `cache-${transform}`);
      const run = (out: string) => {
        const r = spawnSync(
          process.execPath,
          [bin, 'thumbs', images, '--out', out, '--size', '64', '--gpu', 'off', '--tonemap', transform, '--exposure', String(exposureEv)],
          {
            encoding: 'utf8',
            timeout: 120_000,
            env: { ...process.env, EXRVIEW_CACHE_DIR: cache },
          },
        );
        expect(r.status, r.stderr).toBe(0);
        return r.stdout;
      };
      const coldOut = join(dir.path, `cold-${transform}`);
      const warmOut = join(dir.path, `warm-${transform}`);
      expect(run(coldOut)).toMatch(/from: 2 full-decode/);
      expect(run(warmOut)).toMatch(/from: 2 disk cache/);
      const host = createHost({ userDataDir: join(dir.path, `host-${transform}`), workers: 1, prefetch: false });
      try {
        const folder = (await host.openFolder(images))!;
        for (const entry of await host.listFiles(folder.id)) {
          const t = await host.getThumbnail({ requestId: entry.id, fileId: entry.id, longSidePx: 64, priority: 'thumbnail-visible' });
          const expected = toneMapHalfRgba(new Uint16Array(t.rgbaHalf), t.widthPx, t.heightPx, {
            ...DEFAULT_DISPLAY,
            transform,
            exposureEv,
            nanInf: false,
          });
          const rgb = Buffer.alloc(t.widthPx * t.heightPx * 3);
          for (let i = 0; i < t.widthPx * t.heightPx; i++) expected.subarray(i * 4, i * 4 + 3).forEach((v, c) => (rgb[i * 3 + c] = v));
          for (const out of [coldOut, warmOut]) {
            const png = await sharp(join(out, entry.name.replace(/\.exr$/, '.png')))
              .raw()
              .toBuffer({ resolveWithObject: true });
            expect([png.info.width, png.info.height, png.info.channels]).toEqual([t.widthPx, t.heightPx, 3]);
            expect(Buffer.compare(png.data, rgb), `${entry.name} in ${out}`).toBe(0);
          }
        }
      } finally {
        await host.close();
      }
    });
  }

  it('a PNG that cannot be written is reported for its file, with the reason; the others are written, no temporary file is left', () => {
    const out = join(dir.path, 'blocked');
    // a folder where a.png should go: the worker's rename over it fails
    mkdirSync(join(out, 'a.png'), { recursive: true });
    const r = spawnSync(process.execPath, [bin, 'thumbs', images, '--out', out, '--size', '32', '--gpu', 'off'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, EXRVIEW_CACHE_DIR: join(dir.path, 'cache-blocked') },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`exrview: ${join(images, 'a.exr')}: cannot write ${join(out, 'a.png')}: `);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe('exrview: wrote 1 thumbnail; 1 thumbnail could not be written (listed above)');
    expect(r.stdout).toMatch(/^wrote 1 thumbnail in /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(out).sort()).toEqual(['a.png', 'b.png']);
  });
});

// `exrview thumbs --ocio`: each thumbnail goes through the OpenColorIO processor after exposure, pixel for pixel what
// `exrview ocio apply` gives for the thumbnail's values, within 1 code of 8 bits. Needs the build.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { HALF_TO_FLOAT } from '../codec/index.js';
import { createHost } from '../host/host.js';
import { tempDir, writeRgb } from '../testing/host/test-files.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'exrview.mjs');
const why = existsSync(join(root, 'dist', 'cli.mjs')) ? '' : 'dist/cli.mjs is missing: run `node scripts/build.mjs`';
if (why) console.warn(`thumbs-ocio.test: skipped: ${why}`);

const CONFIG = 'ocio://cg-config-latest';
const DISPLAY = 'sRGB - Display';
const VIEW = 'ACES 2.0 - SDR 100 nits (Rec.709)';
const dir = tempDir('exrview-thumbs-ocio-');
afterAll(() => dir.remove());

/** `exrview ocio apply CONFIG dv SPACE DISPLAY VIEW` on float32 RGBA. */
function ocioApply(space: string, rgba: Float32Array): Float32Array {
  const r = spawnSync(process.execPath, [bin, 'ocio', 'apply', CONFIG, 'dv', space, DISPLAY, VIEW], {
    input: Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength),
    maxBuffer: 1 << 28,
  });
  expect(r.status, r.stderr.toString()).toBe(0);
  return new Float32Array(new Uint8Array(r.stdout).buffer);
}

describe.skipIf(!!why)('exrview thumbs --ocio', () => {
  const images = join(dir.path, 'images');
  mkdirSync(images);
  writeRgb(join(images, 'a.exr'), 120, 80, (x, y) => [(x / 30) ** 2, y / 80, 0.05 + Math.abs(Math.sin(x * y)) * 4], { compression: 'zip' });

  it('--ocio ocio://cg-config-latest --colorspace ACEScg --exposure 1: the PNG is ocio apply of the exposed thumbnail, within 1 code', async () => {
    const out = join(dir.path, 'out');
    const args = [bin, 'thumbs', images, '--out', out, '--size', '64', '--exposure', '1'];
    const r = spawnSync(process.execPath, [...args, '--ocio', CONFIG, '--display', DISPLAY, '--view', VIEW, '--colorspace', 'ACEScg'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, EXRVIEW_CACHE_DIR: join(dir.path, 'cache') },
    });
    expect(r.status, r.stderr).toBe(0);
    const host = createHost({ userDataDir: join(dir.path, 'host'), workers: 1, prefetch: false });
    try {
      const folder = (await host.openFolder(images))!;
      const [entry] = await host.listFiles(folder.id);
      const t = await host.getThumbnail({ requestId: entry!.id, fileId: entry!.id, longSidePx: 64, priority: 'thumbnail-visible' });
      const half = new Uint16Array(t.rgbaHalf);
      const exposed = Float32Array.from(half, (bits, i) => (i % 4 === 3 ? 1 : HALF_TO_FLOAT[bits]! * 2));
      const expected = ocioApply('ACEScg', exposed);
      const png = await sharp(join(out, 'a.png')).raw().toBuffer({ resolveWithObject: true });
      expect([png.info.width, png.info.height]).toEqual([t.widthPx, t.heightPx]);
      let worst = 0;
      for (let i = 0; i < t.widthPx * t.heightPx; i++)
        for (let c = 0; c < 3; c++) {
          const want = Math.round(Math.min(Math.max(expected[i * 4 + c]!, 0), 1) * 255);
          worst = Math.max(worst, Math.abs(png.data[i * png.info.channels + c]! - want));
        }
      expect(worst).toBeLessThanOrEqual(1);
    } finally {
      await host.close();
    }
  });

  it('--display without --ocio, or --ocio without a view, says what is missing', () => {
    const run = (...extra: string[]) =>
      spawnSync(process.execPath, [bin, 'thumbs', images, '--out', join(dir.path, 'x'), ...extra], { encoding: 'utf8', timeout: 60_000 });
    expect(run('--display', DISPLAY).stderr).toContain('--display needs --ocio CONFIG');
    expect(run('--ocio', CONFIG, '--display', DISPLAY).stderr).toContain('--ocio CONFIG needs --display D and --view V');
  });
});

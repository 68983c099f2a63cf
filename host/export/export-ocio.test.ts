// Export through an OpenColorIO view: the PNG's pixels are `exrview ocio apply` of the exposed image, within 1 code of
// 8 bits (the half rounding of the input moves a value by at most that). Needs the build, for the command.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { writeExrFile } from '../../codec/writer.js';
import type { ViewTransform } from '../../contract/host-api.js';
import { createHost } from '../host.js';
import { box, halfChannels } from '../samples/samples.js';
import { tempDir } from '../../testing/host/test-files.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'exrview.mjs');
const why = existsSync(join(root, 'dist', 'cli.mjs')) ? '' : 'dist/cli.mjs is missing: run `node scripts/build.mjs`';
if (why) console.warn(`export-ocio.test: skipped: ${why}`);

const BANDS: [number, number, number][] = [
  [0.18, 0.18, 0.18],
  [1, 0.5, 0.25],
  [4, 2, 0.05],
  [0.01, 0.02, 0.04],
];
const W = 64,
  H = 8;
const OCIO = {
  config: 'ocio://cg-config-latest',
  inputSpace: 'ACEScg',
  display: 'sRGB - Display',
  view: 'ACES 2.0 - SDR 100 nits (Rec.709)',
};
const dir = tempDir('exrview-export-ocio-');
afterAll(() => dir.remove());

describe.skipIf(!!why)('export through an OCIO view', () => {
  it('a PNG at +1 EV through ACES 2.0 CG is exrview ocio apply of the exposed bands, within 1 code', async () => {
    writeExrFile(join(dir.path, 'bands.exr'), [
      { dataWindow: box(W, H), channels: halfChannels(W, H, (x) => BANDS[Math.floor((x * 4) / W)]!) },
    ]);
    const host = createHost({ userDataDir: join(dir.path, 'user'), workers: 1, prefetch: false });
    try {
      const [file] = await host.listFiles((await host.openFolder(dir.path))!.id);
      const view: ViewTransform = {
        exposureEv: 1,
        offset: 0,
        gamma: 1,
        displayTransform: 'srgb',
        layer: '',
        channelMode: 'rgb',
        ocio: OCIO,
      };
      const out = join(dir.path, 'out');
      mkdirSync(out);
      const result = await host.exportImages({ fileIds: [file!.id], kind: 'image', format: 'png', outDir: out, overwrite: false, view });
      expect(result.failed).toEqual([]);
      const { data, info } = await sharp(result.written[0]!.path).raw().toBuffer({ resolveWithObject: true });
      const input = Float32Array.from(BANDS.flatMap((b) => [...b.map((v) => v * 2), 1]));
      const r = spawnSync(process.execPath, [bin, 'ocio', 'apply', OCIO.config, 'dv', OCIO.inputSpace, OCIO.display, OCIO.view], {
        input: Buffer.from(input.buffer),
      });
      expect(r.status, r.stderr.toString()).toBe(0);
      const reference = new Float32Array(new Uint8Array(r.stdout).buffer);
      for (let b = 0; b < 4; b++) {
        const x = b * (W / 4) + 3;
        const got = [...data.subarray((4 * W + x) * info.channels, (4 * W + x) * info.channels + 3)];
        const want = [0, 1, 2].map((c) => Math.round(Math.min(Math.max(reference[b * 4 + c]!, 0), 1) * 255));
        got.forEach((g, c) => expect(Math.abs(g - want[c]!), `band ${b} channel ${c}: ${got} vs ${want}`).toBeLessThanOrEqual(1));
      }
    } finally {
      await host.close();
    }
  });
});

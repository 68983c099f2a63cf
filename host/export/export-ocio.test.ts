// Export through an OpenColorIO view: the PNG's pixels are `exrview ocio apply` of the exposed image, within 1 code of
// 8 bits (the half rounding of the input moves a value by at most that). Needs the build, for the command. A config
// from disk (the host read it for the page) or sent by the page goes through the CPU reference processor the same way.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { writeExrFile } from '../../codec/writer.js';
import type { ViewTransform } from '../../contract/host-api.js';
import { createHost } from '../host.js';
import { box, halfChannels } from '../samples/samples.js';
import { tempDir } from '../../testing/host/test-files.js';
import { ProcessorBuilder, applyOps, openConfig } from '../../shaders/colour/index.js';
import { diskReader } from './ocio-view.js';

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
      await expectBands(result.written[0]!.path, OCIO.inputSpace);
    } finally {
      await host.close();
    }
  });

  it('an export of several files takes each one through its own colour space', async () => {
    const folder = join(dir.path, 'two');
    mkdirSync(folder);
    for (const name of ['acescg.exr', 'aces.exr', 'other.exr'])
      writeExrFile(join(folder, name), [{ dataWindow: box(W, H), channels: halfChannels(W, H, (x) => BANDS[Math.floor((x * 4) / W)]!) }]);
    const host = createHost({ userDataDir: join(dir.path, 'user2'), workers: 1, prefetch: false });
    try {
      const files = await host.listFiles((await host.openFolder(folder))!.id);
      const id = (name: string) => files.find((f) => f.name === name)!.id;
      const view: ViewTransform = {
        exposureEv: 1,
        offset: 0,
        gamma: 1,
        displayTransform: 'srgb',
        layer: '',
        channelMode: 'rgb',
        // other.exr is not named: the request's own input space
        ocio: {
          ...OCIO,
          inputSpace: 'Linear Rec.709 (sRGB)',
          inputSpaces: { [id('acescg.exr')]: 'ACEScg', [id('aces.exr')]: 'ACES2065-1' },
        },
      };
      const out = join(dir.path, 'out-two');
      mkdirSync(out);
      const fileIds = files.map((f) => f.id);
      const result = await host.exportImages({ fileIds, kind: 'image', format: 'png', outDir: out, overwrite: false, view });
      expect(result.failed).toEqual([]);
      const written = (name: string) => result.written.find((w) => w.fileId === id(name))!.path;
      await expectBands(written('acescg.exr'), 'ACEScg');
      await expectBands(written('aces.exr'), 'ACES2065-1');
      await expectBands(written('other.exr'), 'Linear Rec.709 (sRGB)');
    } finally {
      await host.close();
    }
  });
});

/** The PNG's bands are `exrview ocio apply` of the bands at +1 EV from `space`, within 1 code. */
async function expectBands(png: string, space: string): Promise<void> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const input = Float32Array.from(BANDS.flatMap((b) => [...b.map((v) => v * 2), 1]));
  const r = spawnSync(process.execPath, [bin, 'ocio', 'apply', OCIO.config, 'dv', space, OCIO.display, OCIO.view], {
    input: Buffer.from(input.buffer),
  });
  expect(r.status, r.stderr.toString()).toBe(0);
  const reference = new Float32Array(new Uint8Array(r.stdout).buffer);
  for (let b = 0; b < 4; b++) {
    const x = b * (W / 4) + 3;
    const got = [...data.subarray((4 * W + x) * info.channels, (4 * W + x) * info.channels + 3)];
    const want = [0, 1, 2].map((c) => Math.round(Math.min(Math.max(reference[b * 4 + c]!, 0), 1) * 255));
    got.forEach((g, c) => expect(Math.abs(g - want[c]!), `${space} band ${b} channel ${c}: ${got} vs ${want}`).toBeLessThanOrEqual(1));
  }
}

const STUDIO = resolve('testing/colour/configs/studio-test.ocio');
/** The studio test config's Film view: a colour-space conversion, tone.spi1d and ${SHOW}_film.spi3d from its luts/. */
const FILM = { inputSpace: 'Linear Rec.709', display: 'sRGB - Display', view: 'Film' };

describe('export through a config from disk or from the page', () => {
  const folder = join(dir.path, 'disk');
  const view = (ocio: ViewTransform['ocio']): ViewTransform => ({
    exposureEv: 1,
    offset: 0,
    gamma: 1,
    displayTransform: 'srgb',
    layer: '',
    channelMode: 'rgb',
    ocio,
  });
  const exportThrough = async (ocio: ViewTransform['ocio'], readFirst: boolean, out: string) => {
    mkdirSync(folder, { recursive: true });
    writeExrFile(join(folder, 'bands.exr'), [
      { dataWindow: box(W, H), channels: halfChannels(W, H, (x) => BANDS[Math.floor((x * 4) / W)]!) },
    ]);
    const host = createHost({ userDataDir: join(dir.path, `user-${out}`), workers: 1, prefetch: false });
    try {
      const [file] = await host.listFiles((await host.openFolder(folder))!.id);
      if (readFirst) expect((await host.readColourConfig(STUDIO))?.source).toBe(STUDIO);
      mkdirSync(join(dir.path, out));
      const outDir = join(dir.path, out);
      return await host.exportImages({ fileIds: [file!.id], kind: 'image', format: 'png', outDir, overwrite: false, view: view(ocio) });
    } finally {
      await host.close();
    }
  };

  it('a config the host read, LUT files and all, exports as the CPU reference processor computes it', async () => {
    const result = await exportThrough({ config: STUDIO, ...FILM }, true, 'out-disk');
    expect(result.failed).toEqual([]);
    await expectReference(result.written[0]!.path);
  });

  it("a page's picked config sent with its LUT files exports the same", async () => {
    const luts = resolve('testing/colour/configs/luts');
    const files = [
      { path: 'studio-test.ocio', text: readFileSync(STUDIO, 'utf8') },
      ...readdirSync(luts).map((f) => ({ path: `luts/${f}`, text: readFileSync(join(luts, f), 'utf8') })),
    ];
    const result = await exportThrough(
      { config: 'studio-test.ocio', files: { configPath: 'studio-test.ocio', files }, ...FILM },
      false,
      'out-sent',
    );
    expect(result.failed).toEqual([]);
    await expectReference(result.written[0]!.path);
  });

  it('a config path the host did not read for the page is refused: no other file is read', async () => {
    const result = await exportThrough({ config: STUDIO, ...FILM }, false, 'out-refused');
    expect(result.written).toEqual([]);
    expect(result.failed[0]?.reason).toMatch(/studio-test\.ocio was not loaded in this viewer: load it .* and export again/);
  });
});

/** The PNG's bands are the disk config's Film processor (the CPU reference) of the bands at +1 EV, within 1 code. */
async function expectReference(png: string): Promise<void> {
  const opened = await openConfig(STUDIO, diskReader);
  const ops = new ProcessorBuilder(opened.config, opened.files).displayView(FILM.inputSpace, FILM.display, FILM.view);
  const reference = Float32Array.from(BANDS.flatMap((b) => [...b.map((v) => v * 2), 1]));
  applyOps(ops, reference);
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  for (let b = 0; b < 4; b++) {
    const x = b * (W / 4) + 3;
    const got = [...data.subarray((4 * W + x) * info.channels, (4 * W + x) * info.channels + 3)];
    const want = [0, 1, 2].map((c) => Math.round(Math.min(Math.max(reference[b * 4 + c]!, 0), 1) * 255));
    got.forEach((g, c) => expect(Math.abs(g - want[c]!), `band ${b} channel ${c}: ${got} vs ${want}`).toBeLessThanOrEqual(1));
  }
}

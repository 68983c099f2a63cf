// Export round trips: PNG/JPEG decoded with sharp against the CPU reference tone-map, EXR layers read back, no overwrite unless asked, downloads in browser mode.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ExrReader, memorySource } from '../../codec/index.js';
import { writeExrFile } from '../../codec/writer.js';
import { DEFAULT_DISPLAY } from '../../shaders/display-params.js';
import { toneMapPixel } from '../../shaders/tonemap-cpu.js';
import type { ExportRequest, FileEntry, ViewTransform } from '../../contract/host-api.js';
import { createHost, type Host } from '../host.js';
import { box, halfChannels } from '../samples/samples.js';
import { tempDir } from '../../testing/host/test-files.js';

let dir: ReturnType<typeof tempDir>;
let out: ReturnType<typeof tempDir>;
let userData: ReturnType<typeof tempDir>;
let host: Host;
let files: FileEntry[];

/** Four vertical bands of known linear colour, and a diffuse layer of another colour. */
const BANDS: [number, number, number][] = [
  [0.18, 0.18, 0.18],
  [1, 0.5, 0.25],
  [4, 2, 0.05],
  [0.01, 0.02, 0.04],
];
const DIFFUSE: [number, number, number] = [0.5, 0.25, 0.125];
const W = 64;
const H = 16;
const band = (x: number) => BANDS[Math.floor((x * 4) / W)]!;

const view = (over: Partial<ViewTransform> = {}): ViewTransform => ({
  exposureEv: 0,
  offset: 0,
  gamma: 1,
  displayTransform: 'srgb',
  layer: '',
  channelMode: 'rgb',
  ...over,
});

beforeEach(async () => {
  dir = tempDir();
  out = tempDir('exrview-out-');
  userData = tempDir('exrview-userdata-');
  writeExrFile(join(dir.path, 'bands.exr'), [
    {
      dataWindow: box(W, H),
      channels: [...halfChannels(W, H, (x) => band(x)), ...halfChannels(W, H, () => DIFFUSE, { prefix: 'diffuse.' })],
    },
  ]);
  host = createHost({ userDataDir: userData.path, workers: 1, prefetch: false });
  files = await host.listFiles((await host.openFolder(dir.path))!.id);
});

afterEach(async () => {
  await host.close();
  dir.remove();
  out.remove();
  userData.remove();
});

async function pixels(path: string): Promise<{ data: Buffer; width: number; height: number; channels: number }> {
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

const expected8 = (rgb: [number, number, number], v: ViewTransform) =>
  toneMapPixel(rgb[0], rgb[1], rgb[2], 1, 0, 0, {
    ...DEFAULT_DISPLAY,
    exposureEv: v.exposureEv,
    transform: v.displayTransform,
    nanInf: false,
  }).map((c) => Math.round(c * 255));

it.each([
  ['srgb at exposure 0', view()],
  ['ACES at +1 EV', view({ exposureEv: 1, displayTransform: 'aces' })],
  ['AgX at -2 EV', view({ exposureEv: -2, displayTransform: 'agx' })],
])('writes a PNG of the image through the view (%s) that decodes to the reference tone-map', async (_name, v) => {
  const request: ExportRequest = { fileIds: [files[0]!.id], kind: 'image', format: 'png', outDir: out.path, overwrite: false, view: v };
  const result = await host.exportImages(request);
  expect(result.failed).toEqual([]);
  expect(result.written).toHaveLength(1);
  expect(result.written[0]!.path).toBe(join(out.path, 'bands.png'));
  const png = await pixels(result.written[0]!.path);
  expect([png.width, png.height, png.channels]).toEqual([W, H, 3]);
  for (let b = 0; b < 4; b++) {
    const x = b * (W / 4) + 3;
    const got = [...png.data.subarray((5 * W + x) * 3, (5 * W + x) * 3 + 3)];
    const want = expected8(BANDS[b]!, v);
    // half rounding of the input moves an 8-bit value by at most 1
    got.forEach((g, c) => expect(Math.abs(g - want[c]!), `band ${b} channel ${c}: ${got} vs ${want}`).toBeLessThanOrEqual(1));
  }
});

it('exports a layer through the view, and a thumbnail at the asked size as JPEG', async () => {
  const layer = await host.exportImages({
    fileIds: [files[0]!.id],
    kind: 'image',
    format: 'png',
    outDir: out.path,
    overwrite: false,
    view: view({ layer: 'diffuse' }),
  });
  const png = await pixels(layer.written[0]!.path);
  expect(layer.written[0]!.path).toBe(join(out.path, 'bands_diffuse.png'));
  expect(Math.max(...[...png.data.subarray(0, 3)].map((g, c) => Math.abs(g - expected8(DIFFUSE, view())[c]!)))).toBeLessThanOrEqual(1);

  const thumb = await host.exportImages({
    fileIds: [files[0]!.id],
    kind: 'thumbnail',
    format: 'jpg',
    outDir: out.path,
    overwrite: false,
    view: view(),
    longSidePx: 32,
  });
  const jpg = await pixels(thumb.written[0]!.path);
  expect([jpg.width, jpg.height]).toEqual([32, 8]);
  // middle of the first band, away from the JPEG's edges
  const want = expected8(BANDS[0]!, view());
  const at = (4 * 32 + 3) * 3;
  for (let c = 0; c < 3; c++) expect(Math.abs(jpg.data[at + c]! - want[c]!)).toBeLessThanOrEqual(4);
});

it('never overwrites unless asked, and replaces the file when asked', async () => {
  const target = join(out.path, 'bands.png');
  writeFileSync(target, 'keep me');
  const request: ExportRequest = {
    fileIds: [files[0]!.id],
    kind: 'image',
    format: 'png',
    outDir: out.path,
    overwrite: false,
    view: view(),
  };
  const kept = await host.exportImages(request);
  expect(kept.written).toEqual([]);
  expect(kept.skipped[0]!.reason).toMatch(/already exists.*overwrite/);
  expect(readFileSync(target, 'utf8')).toBe('keep me');
  const replaced = await host.exportImages({ ...request, overwrite: true });
  expect(replaced.written).toHaveLength(1);
  expect((await pixels(target)).width).toBe(W);
});

it('writes a layer as an EXR of its own that reads back with the same pixels', async () => {
  const result = await host.exportImages({
    fileIds: [files[0]!.id],
    kind: 'exr-layer',
    format: 'exr',
    outDir: out.path,
    overwrite: false,
    view: view({ layer: 'diffuse' }),
  });
  expect(result.failed).toEqual([]);
  const path = result.written[0]!.path;
  expect(path).toBe(join(out.path, 'bands_diffuse.exr'));
  const reader = ExrReader.open(memorySource(new Uint8Array(readFileSync(path))));
  expect(reader.parts[0]!.channels.map((c) => c.name)).toEqual(['B', 'G', 'R']);
  const image = reader.decode();
  const source = await host.decodeImage({ requestId: 'd', fileId: files[0]!.id, part: 0, channels: ['diffuse.R'], priority: 'preview' });
  expect(image.channels.find((c) => c.name === 'R')!.data).toEqual(new Uint16Array(source.planes[0]!.data));
});

it('returns downloads instead of writing when there is no export folder, and refuses an export folder in browser mode', async () => {
  const result = await host.exportImages({
    fileIds: [files[0]!.id],
    kind: 'thumbnail',
    format: 'png',
    overwrite: false,
    view: view(),
    longSidePx: 16,
  });
  expect(result.written).toEqual([]);
  const download = result.downloads![0]!;
  expect(download).toMatchObject({ fileId: files[0]!.id, name: 'bands.png', mimeType: 'image/png' });
  expect((await sharp(Buffer.from(download.data)).metadata()).width).toBe(16);

  const browser = createHost({ userDataDir: userData.path, workers: 1, prefetch: false, mode: 'browser' });
  try {
    const f = await browser.listFiles((await browser.openFolder(dir.path))!.id);
    await expect(
      browser.exportImages({ fileIds: [f[0]!.id], kind: 'image', format: 'png', outDir: out.path, overwrite: true, view: view() }),
    ).rejects.toThrow(/browser mode cannot write/);
  } finally {
    await browser.close();
  }
});

it('reports each file that cannot be exported and says why', async () => {
  const result = await host.exportImages({
    fileIds: ['nope'],
    kind: 'image',
    format: 'png',
    outDir: out.path,
    overwrite: false,
    view: view(),
  });
  expect(result.failed[0]!.reason).toMatch(/unknown file/);
  await expect(
    host.exportImages({ fileIds: [files[0]!.id], kind: 'image', format: 'exr', outDir: out.path, overwrite: false, view: view() }),
  ).rejects.toThrow(/layers go to EXR/);
  await expect(
    host.exportImages({
      fileIds: [files[0]!.id],
      kind: 'image',
      format: 'png',
      outDir: join(out.path, 'missing'),
      overwrite: false,
      view: view(),
    }),
  ).rejects.toThrow(/does not exist/);
});

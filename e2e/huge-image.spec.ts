// Images past the GPU's texture limit in browser mode on SwiftShader (8192 px a side), made once by the project's
// writer: a 16384×8192 half RGB ZIP scanline lat-long, and a 16384×2048 float RGB file tiled 256 px with MIP levels.
// The preview shows a reduced level at fit (matching a CPU box filter of the same planes), says which level and why,
// exposure works on it; the grid's thumbnail stays; the GPU cache stays within its budget. Zoomed to 1:1 (in a corner,
// and across chunk and tile seams) the crop of level 0 the view needs is fetched and drawn: every pixel on the canvas
// matches the one written, within two codes.
import { buildProject, serveFolder, type Served } from './serve-fixture.js';
import { test, expect } from '@playwright/test';
import { atOneToOne, fitErrors, imageBox, meanBrightness, oneToOneErrors, pixels, settle, type AppHandle } from './huge-view.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HALF_TO_FLOAT, floatToHalf } from '../codec/index.js';
import { boxFilterPlane } from '../host/images/reduced-level.js';

const W = 16384,
  H = 8192;
/** Checker squares of the blue channel: 16 across, 8 down (1024 px a side), 0.1 and 0.9. */
const blueAt = (u: number, v: number): number => ((Math.floor(u * 16) + Math.floor(v * 8)) & 1) * 0.8 + 0.1;
/**
 * Red and green ramps with one-pixel marker lines (a column of red every 1024 px at x ≡ 300, a row of green at
 * y ≡ 700): at 1:1 a crop placed a pixel off shows; at fit the samples below stay clear of them.
 */
const redAt = (x: number, u: number): number => (x % 1024 === 300 ? 1 : u * 0.8);
const greenAt = (y: number, v: number): number => (y % 1024 === 700 ? 1 : v * 0.8);
/** The tiled float file: 16384×2048, tiles of 256 px, MIP levels. */
const TW = 16384,
  TH = 2048;

let server: Served | null = null;
let dir = '';
/** The reduced level the host should send (1/2 a side), box-filtered here on the CPU from the same planes. */
let reference: { widthPx: number; heightPx: number; planes: Uint16Array[] } | null = null;
/** Level 0 as written: the half file's planes, and the float file's. */
let halfPlanes: Uint16Array[] = [];
let floatPlanes: Float32Array[] = [];

test.beforeAll(async () => {
  test.setTimeout(540_000);
  buildProject();
  // a dynamic import: the lint rule's 'electron/*' pattern (meant for the electron package) also matches this path
  const { writeExrFile } = await import('../codec/writer.js');
  dir = mkdtempSync(join(tmpdir(), 'exrview-e2e-huge-'));
  const planes = [0, 1, 2].map(() => new Uint16Array(W * H));
  for (let y = 0; y < H; y++) {
    const v = y / H;
    for (let x = 0; x < W; x++) {
      const u = x / W,
        i = y * W + x;
      planes[0]![i] = floatToHalf(redAt(x, u));
      planes[1]![i] = floatToHalf(greenAt(y, v));
      planes[2]![i] = floatToHalf(blueAt(u, v));
    }
  }
  writeExrFile(join(dir, 'pano_16k.exr'), [
    {
      dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 },
      compression: 'zip',
      channels: ['R', 'G', 'B'].map((name, c) => ({ name, pixelType: 'half' as const, data: planes[c]! })),
    },
  ]);
  const reduced = planes.map((data) =>
    boxFilterPlane({ name: '', pixelType: 'half', xSampling: 1, ySampling: 1, widthSamples: W, heightSamples: H, data: data.buffer }, 2),
  );
  reference = { widthPx: W / 2, heightPx: H / 2, planes: reduced.map((p) => new Uint16Array(p.data)) };
  halfPlanes = planes;
  floatPlanes = [0, 1, 2].map(() => new Float32Array(TW * TH));
  for (let y = 0; y < TH; y++)
    for (let x = 0; x < TW; x++) {
      const i = y * TW + x;
      floatPlanes[0]![i] = redAt(x, x / TW);
      floatPlanes[1]![i] = greenAt(y, y / TH);
      floatPlanes[2]![i] = blueAt(x / TW, y / TH);
    }
  writeExrFile(join(dir, 'tiled_float.exr'), [
    {
      dataWindow: { xMin: 0, yMin: 0, xMax: TW - 1, yMax: TH - 1 },
      compression: 'zip',
      tiles: { xSizePx: 256, ySizePx: 256, levelMode: 'mipmapLevels' },
      channels: ['R', 'G', 'B'].map((name, c) => ({ name, pixelType: 'float' as const, data: floatPlanes[c]! })),
    },
  ]);
  server = await serveFolder(dir);
});
test.afterAll(() => {
  server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a 16384×8192 image over the 8192 px limit: a reduced level at fit, said so, thumbnail kept, cache within budget', async ({
  page,
}) => {
  test.setTimeout(480_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server!.url);
  const grid = page.getByRole('listbox', { name: 'Images' });
  const cell = grid.getByRole('option', { name: 'pano_16k.exr' });
  await expect(cell).toBeVisible({ timeout: 120_000 });
  await page.waitForFunction(
    () => (window as unknown as { exrviewApp: { controller: { thumbsShown: number } } }).exrviewApp.controller.thumbsShown >= 1,
    null,
    { timeout: 120_000 },
  );
  const thumbBefore = await meanBrightness(cell);
  expect(thumbBefore, 'the thumbnail before the preview').toBeGreaterThan(100);

  await cell.click();
  await settle(page);
  // no card over the preview: the image is shown, a note says which level and why
  await expect(page.getByRole('alert', { name: 'Cannot show this file' })).toHaveCount(0);
  const note = page.getByRole('note', { name: 'Reduced level' });
  await expect(note).toContainText('showing a 1/2 level (8192×4096 of 16384×8192 px, box-filtered as it was decoded)');
  await expect(note).toContainText("over the GPU's 8192 px texture limit");
  await expect(note).toContainText('pixel values, statistics and the histogram are read from this level');

  // at fit: the picture, matching the CPU's box filter of the same planes, sampled at the centres of the blue checks
  const canvas = page.getByRole('img', { name: 'Preview' });
  const shot = await pixels(canvas);
  await canvas.screenshot({ path: test.info().outputPath('huge-fit.png'), timeout: 120_000 });
  const box = imageBox(shot);
  const boxW = box.x1 - box.x0 + 1,
    boxH = box.y1 - box.y0 + 1;
  expect(boxW / boxH, `image box ${JSON.stringify(box)}`).toBeCloseTo(2, 1);
  expect(boxW).toBeGreaterThan(300);
  // the reduced level over each sampled screen pixel's footprint (the centres of the blue checks), as the 'srgb' view encodes it
  const ref = reference!;
  const refValue = (c: number, x: number, y: number): number => HALF_TO_FLOAT[ref.planes[c]![y * ref.widthPx + x]!]!;
  const errors = fitErrors(shot, { widthPx: ref.widthPx, heightPx: ref.heightPx, cells: [16, 8], step: [3, 2] }, refValue);
  expect(errors, errors.join('\n')).toEqual([]);

  // at 1:1: the crop of level 0 the view needs, in the top-left corner and across the crop grid's and chunks' seams
  const halfValue = (c: number, x: number, y: number): number => HALF_TO_FLOAT[halfPlanes[c]![y * W + x]!]!;
  for (const [name, x0, y0] of [
    ['huge-1to1-corner.png', -64, -48],
    ['huge-1to1-seam.png', 8192 - 640, 4096 - 333],
  ] as const) {
    const cap = await atOneToOne(page, x0, y0, W, H, name);
    const wrong = oneToOneErrors(cap, x0, y0, W, H, halfValue);
    expect(wrong, `${name}:\n${wrong.join('\n')}`).toEqual([]);
  }
  await page.evaluate(() => (window as unknown as { exrviewApp: AppHandle }).exrviewApp.controller.fit());
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

  // exposure works on the reduced level: +2 EV brightens it
  const before = await meanBrightness(canvas);
  const exposure = page.getByRole('slider', { name: 'Exposure' });
  await exposure.focus();
  for (let i = 0; i < 6; i++) await exposure.press('ArrowRight');
  await expect(exposure).toHaveValue('2');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  expect(await meanBrightness(canvas)).toBeGreaterThan(before + 20);

  // the grid's thumbnail was not touched by the preview
  expect(await meanBrightness(cell), 'the thumbnail after the preview').toBeGreaterThan(thumbBefore * 0.8);

  // the GPU cache within its budget, the device's limit shown
  await page.getByRole('button', { name: 'Diagnostics' }).click();
  const diag = page.getByRole('region', { name: 'Diagnostics' });
  const cache = (await diag.locator('[data-key=cache]').textContent())!;
  const m = /(\d+(?:\.\d+)?) MB of (\d+(?:\.\d+)?) MB/.exec(cache);
  expect(m, cache).not.toBeNull();
  expect(Number(m![1]), cache).toBeLessThanOrEqual(Number(m![2]));
  expect(Number(m![1]), cache).toBeGreaterThan(0);
  await expect(diag.locator('[data-key=gpu-limits]')).toContainText('largest texture 8192 px a side');
  await expect(diag.locator('[data-key=gpu-limits]')).toContainText('0 images refused');
});

test('a 16384×2048 float file tiled with MIP levels: its own level at fit, level 0 at 1:1 across tile seams', async ({ page }) => {
  test.setTimeout(480_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server!.url);
  const cell = page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'tiled_float.exr' });
  await expect(cell).toBeVisible({ timeout: 120_000 });
  await cell.click();
  await settle(page);
  await expect(page.getByRole('alert', { name: 'Cannot show this file' })).toHaveCount(0);
  await expect(page.getByRole('note', { name: 'Reduced level' })).toContainText(
    "showing a 1/2 level (8192×1024 of 16384×2048 px, the file's own MIP level)",
  );
  await page.getByRole('img', { name: 'Preview' }).screenshot({ path: test.info().outputPath('tiled-fit.png'), timeout: 120_000 });
  const floatValue = (c: number, x: number, y: number): number => floatPlanes[c]![y * TW + x]!;
  const size = await page.evaluate(() => (window as unknown as { exrviewApp: AppHandle }).exrviewApp.controller.view.sizePx);
  for (const [name, x0, y0] of [
    // the bottom-right corner, and a view across tile seams (every 256 px) and the crop grid's (4096, 1024)
    ['tiled-1to1-corner.png', TW - size.widthPx + 64, TH - size.heightPx + 48],
    ['tiled-1to1-seam.png', 4096 - 517, 1024 - 301],
  ] as const) {
    const cap = await atOneToOne(page, x0, y0, TW, TH, name);
    const wrong = oneToOneErrors(cap, x0, y0, TW, TH, floatValue);
    expect(wrong, `${name}:\n${wrong.join('\n')}`).toEqual([]);
  }
});

// .cube LUTs end to end in browser mode: load one from the picker (and by a drop), the preview, the grid and an export change by it,
// the shaper choice applies, a malformed file is refused with its line number. Screenshots land in test-results/.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Download, type Locator, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { formatCube, lutFromFunction } from '../shaders/lut-cube.js';
import { toolbarControl } from './toolbar-menu.js';

const W = 96,
  H = 64;
let server: Served | null = null;
let url = '';
let downloadsDir = '';
const shots = join('test-results', 'lookdev');

test.beforeAll(async () => {
  buildProject();
  const { writeExrFile } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-lut-'));
  downloadsDir = mkdtempSync(join(tmpdir(), 'exrview-lut-dl-'));
  mkdirSync(shots, { recursive: true });
  const box = { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 };
  writeExrFile(join(dir, 'ramp.exr'), [
    {
      dataWindow: box,
      compression: 'zip',
      channels: ['R', 'G', 'B'].map((name, c) => ({
        name,
        pixelType: 'float' as const,
        data: floatPlane(W, H, (x) => ((x + 1) / W) * (c === 0 ? 1 : 0.5)),
      })),
    },
  ]);
  writeExrFile(join(dir, 'grey.exr'), [
    {
      dataWindow: box,
      compression: 'none',
      channels: ['R', 'G', 'B'].map((name) => ({ name, pixelType: 'float' as const, data: floatPlane(W, H, () => 0.05) })),
    },
  ]);
  server = await serveFolder(dir);
  url = server.url;
});
test.afterAll(() => {
  server?.stop();
});

/** Mean R, G, B (0..255) of an element on screen; `inner`: only the middle of it (a grid cell's picture, not its frame; the preview's picture, not the surround). */
async function meanRgb(el: Locator, inner = false): Promise<[number, number, number]> {
  let img = sharp(await el.screenshot());
  if (inner) {
    const m = await img.metadata();
    img = img.extract({
      left: Math.round(m.width! * 0.25),
      top: Math.round(m.height! * 0.3),
      width: Math.round(m.width! * 0.5),
      height: Math.round(m.height! * 0.2),
    });
  }
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  const sum = [0, 0, 0];
  for (let i = 0; i < data.length; i += info.channels) for (let c = 0; c < 3; c++) sum[c]! += data[i + c]!;
  const n = data.length / info.channels;
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}

/** Waits for the image to be on screen and its figures in (the store, not the DOM, which React updates a beat later), then for two frames. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const s = (
      window as unknown as {
        exrviewApp: { store: { getState(): { image: { currentFileId: string | null; loading: boolean }; inspect: { stats: unknown } } } };
      }
    ).exrviewApp.store.getState();
    return s.image.currentFileId !== null && !s.image.loading && s.inspect.stats !== null;
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** A LUT that swaps red and blue and darkens green: a change no exposure or transform could make. */
const SWAP = formatCube(lutFromFunction(17, (r, g, b) => [b, g * 0.5, r], 'swap red and blue'));

test('a .cube LUT from the picker changes the preview, the grid and the export; the shaper applies; bad files say which line', async ({
  page,
}) => {
  await page.goto(url);
  const grid = page.getByRole('listbox', { name: 'Images' });
  await expect(grid.getByRole('option')).toHaveCount(2);
  await page.waitForFunction(
    () => (window as unknown as { exrviewApp: { controller: { thumbsShown: number } } }).exrviewApp.controller.thumbsShown >= 2,
  );
  await grid.getByRole('option', { name: 'ramp.exr' }).click();
  const preview = page.getByRole('img', { name: 'Preview' });
  await settle(page);
  // the histogram over the preview does not follow the LUT: hidden, so that the means are the picture's
  await page.keyboard.press('Shift+H');
  await expect(page.getByRole('img', { name: /^Histogram/ })).toBeHidden();
  const before = await meanRgb(preview, true);
  const cellBefore = await meanRgb(grid.getByRole('option', { name: 'ramp.exr' }), true);
  expect(before[0]).toBeGreaterThan(before[2] * 1.2); // the ramp is red-heavy
  await page.screenshot({ path: join(shots, 'lut-before.png') });

  await page.getByLabel('LUT file').setInputFiles({ name: 'swap.cube', mimeType: 'text/plain', buffer: Buffer.from(SWAP) });
  await expect(page.getByLabel('LUT name')).toHaveText('swap.cube');
  await expect(page.locator('.status')).toContainText('LUT swap.cube loaded: 17³ (swap red and blue)');
  await settle(page);
  const after = await meanRgb(preview, true);
  const cellAfter = await meanRgb(grid.getByRole('option', { name: 'ramp.exr' }), true);
  await page.screenshot({ path: join(shots, 'lut-after.png') });
  // red and blue swap places in the preview and in the grid's thumbnail
  expect(after[2]).toBeGreaterThan(after[0] * 1.2);
  expect(Math.abs(after[2] - before[0])).toBeLessThan(6);
  expect(cellBefore[0]).toBeGreaterThan(cellBefore[2] * 1.1); // the selected cell is tinted by its highlight
  expect(cellAfter[2]).toBeGreaterThan(cellAfter[0] * 1.1);

  // on the log shaper the LUT sees log-encoded scene values instead of sRGB: the picture changes again
  await (await toolbarControl(page, page.getByRole('combobox', { name: 'LUT applies' }))).selectOption('log');
  await settle(page);
  const onLog = await meanRgb(preview, true);
  expect(Math.abs(onLog[2] - after[2])).toBeGreaterThan(5);

  // the export goes through the same LUT (the host parses the same .cube and applies the CPU reference)
  await (await toolbarControl(page, page.getByRole('combobox', { name: 'LUT applies' }))).selectOption('display');
  await (await toolbarControl(page, page.getByRole('button', { name: 'Export…', exact: true }))).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await expect(dialog).toContainText('LUT swap.cube (after the view)');
  const download = new Promise<Download>((resolve) => page.once('download', resolve));
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  const path = join(downloadsDir, (await download).suggestedFilename());
  await (await download).saveAs(path);
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  const exported = [0, 0, 0];
  for (let i = 0; i < data.length; i += info.channels) for (let c = 0; c < 3; c++) exported[c]! += data[i + c]!;
  const n = data.length / info.channels;
  expect(exported[2]! / n).toBeGreaterThan((exported[0]! / n) * 1.2);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // removing it restores the picture
  await (await toolbarControl(page, page.getByRole('button', { name: 'Remove LUT' }))).click();
  await settle(page);
  const removed = await meanRgb(preview, true);
  await page.screenshot({ path: join(shots, 'lut-removed.png') });
  for (let c = 0; c < 3; c++) expect(Math.abs(removed[c]! - before[c]!)).toBeLessThan(2);

  // a drop of a .cube anywhere on the window loads it as the picker does
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'dropped.cube', { type: 'text/plain' }));
    document.querySelector('.preview')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, SWAP);
  await expect(page.getByLabel('LUT name')).toHaveText('dropped.cube');
  await settle(page);
  const dropped = await meanRgb(preview, true);
  expect(dropped[2]).toBeGreaterThan(dropped[0] * 1.2);
  await (await toolbarControl(page, page.getByRole('button', { name: 'Remove LUT' }))).click();

  // a malformed file: refused, the line named, the view left as it was
  await page
    .getByLabel('LUT file')
    .setInputFiles({ name: 'bad.cube', mimeType: 'text/plain', buffer: Buffer.from('LUT_3D_SIZE 2\n0 0 0\n1 0 zero\n') });
  await expect(page.locator('.status')).toContainText('could not load the LUT bad.cube: line 3: "zero" is not a number');
  await expect(page.getByLabel('LUT name')).toHaveCount(0);
});

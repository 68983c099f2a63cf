// The viewer end to end in browser mode: `exrview serve` on a folder of EXRs written by the project's writer,
// driven in headless Chromium with WebGPU (SwiftShader) through the accessibility names of the contract.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Page, type Locator } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

const W = 96,
  H = 64;
/** The value the fixture holds at (x, y) in channel c of the base layer: a ramp, so each pixel is distinct. */
const baseValue = (x: number, y: number, c: number): number =>
  Math.fround(((x + 1) / W) * 0.5 * (c === 0 ? 1 : c === 1 ? 0.7 : 0.4) + (y / H) * 0.05);
const diffuseValue = (x: number, y: number, c: number): number => Math.fround(c === 1 ? (2 * (y + 1)) / H : 0.01);

const plane = (f: (x: number, y: number) => number): Float32Array => floatPlane(W, H, f);

let server: Served | null = null;
let url = '';

test.beforeAll(async () => {
  buildProject();
  // a dynamic import: the lint rule's 'electron/*' pattern (meant for the electron package) also matches this path
  const { writeExrFile } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-e2e-'));
  const box = { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 };
  writeExrFile(join(dir, 'ramp.exr'), [
    {
      dataWindow: box,
      compression: 'zip',
      channels: [
        ...['R', 'G', 'B'].map((name, c) => ({ name, pixelType: 'float' as const, data: plane((x, y) => baseValue(x, y, c)) })),
        ...['diffuse.R', 'diffuse.G', 'diffuse.B'].map((name, c) => ({
          name,
          pixelType: 'float' as const,
          data: plane((x, y) => diffuseValue(x, y, c)),
        })),
      ],
    },
  ]);
  writeExrFile(join(dir, 'grey.exr'), [
    { dataWindow: box, compression: 'none', channels: [{ name: 'Y', pixelType: 'float', data: plane(() => 0.18) }] },
  ]);
  writeExrFile(join(dir, 'bright.exr'), [
    {
      dataWindow: box,
      compression: 'rle',
      channels: ['R', 'G', 'B'].map((name) => ({ name, pixelType: 'float' as const, data: plane((x) => (4 * x) / W) })),
    },
  ]);
  server = await serveFolder(dir);
  url = server.url;
});
test.afterAll(() => {
  server?.stop();
});

/** Mean of R+G+B (0..765) of what is on screen in an element, from a screenshot. */
async function meanBrightness(el: Locator): Promise<number> {
  const png = await el.screenshot();
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  let sum = 0;
  for (let i = 0; i < data.length; i += info.channels) sum += data[i]! + data[i + 1]! + data[i + 2]!;
  return sum / (data.length / info.channels);
}

async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[role=status]')?.textContent?.includes('loading'));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

test('open a folder, see thumbnails, scrub exposure, switch layer and channel, read a pixel, see diagnostics', async ({ page }) => {
  await page.goto(url);
  const grid = page.getByRole('listbox', { name: 'Images' });
  await expect(grid.getByRole('option')).toHaveCount(3);
  for (const name of ['bright.exr', 'grey.exr', 'ramp.exr']) await expect(grid.getByRole('option', { name })).toBeVisible();
  await page.waitForFunction(
    () => (window as unknown as { exrviewApp: { controller: { thumbsShown: number } } }).exrviewApp.controller.thumbsShown >= 3,
  );
  await expect(page.locator('.status .path')).toHaveText('GPU');
  // each option lies over its own thumbnail (the GPU draws them on a canvas under the cells)
  await settle(page);
  const brightCell = await meanBrightness(grid.getByRole('option', { name: 'bright.exr' }));
  const greyCell = await meanBrightness(grid.getByRole('option', { name: 'grey.exr' }));
  expect(brightCell).toBeGreaterThan(greyCell * 1.2);

  await grid.getByRole('option', { name: 'ramp.exr' }).click();
  const preview = page.getByRole('img', { name: 'Preview' });
  await settle(page);
  const before = await meanBrightness(preview);

  const exposure = page.getByRole('slider', { name: 'Exposure' });
  await exposure.focus();
  // a third of a stop a press: six make +2 EV
  for (let i = 0; i < 6; i++) await exposure.press('ArrowRight');
  await expect(exposure).toHaveValue('2');
  await settle(page);
  const after = await meanBrightness(preview);
  expect(after, `preview brightness before ${before}, after +2 EV ${after}`).toBeGreaterThan(before * 1.3);

  // layer and channel: diffuse.G is a vertical ramp the base layer is not
  await page.getByRole('combobox', { name: 'Layer' }).selectOption('diffuse');
  await settle(page);
  const diffuse = await meanBrightness(preview);
  expect(Math.abs(diffuse - after)).toBeGreaterThan(5);
  await page.getByRole('combobox', { name: 'Channel' }).selectOption('r');
  await settle(page);
  const red = await meanBrightness(preview);
  expect(red).toBeLessThan(diffuse);

  // pixel inspector: the raw value under the cursor, as decoded
  await page.getByRole('combobox', { name: 'Layer' }).selectOption('');
  await settle(page);
  const box = (await preview.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.locator('output[aria-label="Pixel value"]')).toContainText('R=');
  const text = (await page.locator('output[aria-label="Pixel value"]').textContent())!;
  const m = /^(\d+), (\d+)\s+R=(\S+) G=(\S+) B=(\S+)/.exec(text);
  expect(m, `readout "${text}"`).not.toBeNull();
  const [x, y] = [Number(m![1]), Number(m![2])];
  expect(Number(m![3])).toBeCloseTo(baseValue(x, y, 0), 5);
  expect(Number(m![4])).toBeCloseTo(baseValue(x, y, 1), 5);

  // diagnostics figures
  await page.getByRole('button', { name: 'Diagnostics' }).click();
  const diag = page.getByRole('region', { name: 'Diagnostics' });
  await expect(diag).toBeVisible();
  await expect(diag.locator('[data-key=adapter]')).not.toBeEmpty();
  await expect(diag.locator('[data-key=upload]')).toContainText('MB');
  await expect(diag.locator('[data-key=transfer]')).toContainText('MB');
  await expect(diag.locator('[data-key=host]')).toContainText('ms');
  await expect(diag.locator('[data-key=tonemap-gpu]')).toContainText('ms');
  await expect(diag.locator('[data-key=tonemap-path]')).toContainText(/^(compute|render pass): /);
  await expect(diag.locator('[data-key=last-upload]')).toContainText(/\d (MB|GB)\/s/);
  const uploads = await diag.locator('[data-key=uploads]').textContent();
  // exposure changed, layer and channel switched: the planes went up once (6 planes of ramp.exr)
  expect(uploads).toMatch(/^6 planes/);
});

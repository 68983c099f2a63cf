// An image past the GPU's texture limit in browser mode on SwiftShader (8192 px a side): a 16384×8192 half RGB ZIP
// lat-long, made once by the project's writer. The preview shows a reduced level at fit (matching a CPU box filter of
// the same planes), says which level and why, exposure works on it; the grid's thumbnail stays; the GPU cache stays
// within its budget.
import { buildProject, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HALF_TO_FLOAT, floatToHalf } from '../codec/index.js';
import { srgbOetf } from '../shaders/tonemap-cpu.js';
import { boxFilterPlane } from '../host/images/reduced-level.js';

const W = 16384,
  H = 8192;
/** Checker squares of the blue channel: 16 across, 8 down (1024 px a side), 0.1 and 0.9. */
const blueAt = (u: number, v: number): number => ((Math.floor(u * 16) + Math.floor(v * 8)) & 1) * 0.8 + 0.1;

let server: Served | null = null;
let dir = '';
/** The reduced level the host should send (1/2 a side), box-filtered here on the CPU from the same planes. */
let reference: { widthPx: number; heightPx: number; planes: Uint16Array[] } | null = null;

test.beforeAll(async () => {
  test.setTimeout(300_000);
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
      planes[0]![i] = floatToHalf(u);
      planes[1]![i] = floatToHalf(v);
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
  server = await serveFolder(dir);
});
test.afterAll(() => {
  server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function pixels(el: Locator): Promise<{ data: Buffer; widthPx: number; heightPx: number; channels: number }> {
  const { data, info } = await sharp(await el.screenshot({ timeout: 120_000 }))
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, widthPx: info.width, heightPx: info.height, channels: info.channels };
}

async function meanBrightness(el: Locator): Promise<number> {
  const { data, channels } = await pixels(el);
  let sum = 0;
  for (let i = 0; i < data.length; i += channels) sum += data[i]! + data[i + 1]! + data[i + 2]!;
  return sum / (data.length / channels);
}

async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('.preview-bar [role=status]')?.textContent?.includes('loading'), null, {
    timeout: 240_000,
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * The box of the image drawn at fit in a preview screenshot: the run of pixels unlike the background through the
 * canvas's centre, across and down (the notes and panels over the preview's corners are left out).
 */
function imageBox(shot: Awaited<ReturnType<typeof pixels>>): { x0: number; y0: number; x1: number; y1: number } {
  const { data, widthPx, heightPx, channels } = shot;
  const bg = [data[0]!, data[1]!, data[2]!];
  const isImage = (x: number, y: number): boolean => {
    const i = (y * widthPx + x) * channels;
    return Math.abs(data[i]! - bg[0]!) + Math.abs(data[i + 1]! - bg[1]!) + Math.abs(data[i + 2]! - bg[2]!) > 12;
  };
  const cx = widthPx >> 1,
    cy = heightPx >> 1;
  let x0 = cx,
    x1 = cx,
    y0 = cy,
    y1 = cy;
  while (x0 > 0 && isImage(x0 - 1, cy)) x0--;
  while (x1 < widthPx - 1 && isImage(x1 + 1, cy)) x1++;
  while (y0 > 0 && isImage(cx, y0 - 1)) y0--;
  while (y1 < heightPx - 1 && isImage(cx, y1 + 1)) y1++;
  return { x0, y0, x1, y1 };
}

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
  const ref = reference!;
  const errors: string[] = [];
  for (let cy = 0; cy < 8; cy += 2)
    for (let cx = 1; cx < 16; cx += 3) {
      const u = (cx + 0.5) / 16,
        v = (cy + 0.5) / 8;
      const sx = Math.round(box.x0 + u * boxW),
        sy = Math.round(box.y0 + v * boxH);
      const i = (sy * shot.widthPx + sx) * shot.channels;
      // the reduced level over the screen pixel's footprint, encoded as the 'srgb' view does
      const fx = ref.widthPx / boxW,
        fy = ref.heightPx / boxH;
      const x0 = Math.floor((sx - box.x0) * fx),
        y0 = Math.floor((sy - box.y0) * fy);
      for (let c = 0; c < 3; c++) {
        let sum = 0,
          n = 0;
        for (let y = y0; y < y0 + Math.ceil(fy); y++)
          for (let x = x0; x < x0 + Math.ceil(fx); x++, n++) sum += HALF_TO_FLOAT[ref.planes[c]![y * ref.widthPx + x]!]!;
        const want = Math.round(srgbOetf(Math.min(1, sum / n)) * 255);
        const got = shot.data[i + c]!;
        if (Math.abs(got - want) > 8) errors.push(`(${u.toFixed(3)}, ${v.toFixed(3)}) channel ${c}: ${got}, CPU ${want}`);
      }
    }
  expect(errors, errors.join('\n')).toEqual([]);

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

// 32768×16384 images in browser mode on SwiftShader (8192 px a side), written block by block by the project's streaming
// writer from a pattern known in closed form (testing/huge/cell-pattern.ts): a float RGB file tiled 256 px with MIP
// levels, and a half RGB ZIP scanline file. At fit the preview shows a 1/4 level (the file's own, or box-filtered as the
// host decodes) matching the pattern's level on the CPU; at 1:1 in a corner and across tile, chunk and crop seams every
// pixel on the canvas matches the one written, within two codes; the GPU cache stays within its budget.
import { buildProject, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Page } from '@playwright/test';
import { atOneToOne, fitErrors, oneToOneErrors, pixels, settle, type AppHandle } from './huge-view.js';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeExrFileStreaming } from '../codec/index.js';
import { cellPattern } from '../testing/huge/cell-pattern.js';

const W = 32768,
  H = 16384;
const pattern = cellPattern(W, H);
/** Level 2 (1/4 a side, 8192×4096): the largest that fits the 8192 px limit. */
const FIT_LEVEL = 2;

/** Each file in a folder of its own, served alone: the other's prefetch (a whole-file pass) does not slow it. */
const servers = new Map<string, Served>();
let dir = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  buildProject();
  dir = mkdtempSync(join(tmpdir(), 'exrview-e2e-huge-32k-'));
  for (const sub of ['tiled', 'scanline']) mkdirSync(join(dir, sub));
  const dataWindow = { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 };
  writeExrFileStreaming(
    join(dir, 'tiled', 'tiled_32k_float.exr'),
    {
      dataWindow,
      compression: 'zip',
      tiles: { xSizePx: 256, ySizePx: 256, levelMode: 'mipmapLevels' },
      channels: ['R', 'G', 'B'].map((name) => ({ name, pixelType: 'float' as const })),
    },
    pattern.blocks('float'),
  );
  writeExrFileStreaming(
    join(dir, 'scanline', 'scanline_32k_half.exr'),
    { dataWindow, compression: 'zip', channels: ['R', 'G', 'B'].map((name) => ({ name, pixelType: 'half' as const })) },
    pattern.blocks('half'),
  );
  for (const sub of ['tiled', 'scanline']) servers.set(sub, await serveFolder(join(dir, sub)));
});
test.afterAll(() => {
  for (const server of servers.values()) server.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function open(page: Page, folder: string, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(servers.get(folder)!.url);
  const cell = page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name });
  await expect(cell).toBeVisible({ timeout: 120_000 });
  await cell.click();
}

/** The preview at fit matches the pattern's level 2 (polled: a smaller level may come first, then this one). */
async function expectFitMatches(page: Page, shotName: string): Promise<void> {
  const canvas = page.getByRole('img', { name: 'Preview' });
  const level = { widthPx: W >> FIT_LEVEL, heightPx: H >> FIT_LEVEL, cells: [W / 1024, H / 1024] as [number, number], step: 3 };
  const value = (c: number, x: number, y: number): number => pattern.value(FIT_LEVEL, c, x, y);
  await expect
    .poll(async () => fitErrors(await pixels(canvas), level, value), { timeout: 180_000, intervals: [1000, 2000, 4000] })
    .toEqual([]);
  await canvas.screenshot({ path: test.info().outputPath(shotName), timeout: 120_000 });
}

/**
 * Level 0 at 1:1 matches what was written. First the statistics of the level on screen are waited for: on SwiftShader
 * their GPU passes over 8192×4096 take minutes here, and the crop's upload queues behind them.
 */
async function expectOneToOneMatches(page: Page, pixelType: 'half' | 'float', views: (readonly [string, number, number])[]): Promise<void> {
  await expect(page.getByRole('region', { name: 'Statistics' })).toContainText(`whole image, ${W}×${H}`, { timeout: 360_000 });
  const stored = (c: number, x: number, y: number): number => pattern.stored(pixelType, 0, c, x, y);
  for (const [name, x0, y0] of views) {
    const cap = await atOneToOne(page, x0, y0, W, H, name);
    const wrong = oneToOneErrors(cap, x0, y0, W, H, stored);
    expect(wrong, `${name}:\n${wrong.join('\n')}`).toEqual([]);
  }
}

async function expectCacheWithinBudget(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Diagnostics' }).click();
  const cache = (await page.getByRole('region', { name: 'Diagnostics' }).locator('[data-key=cache]').textContent())!;
  const m = /(\d+(?:\.\d+)?) MB of (\d+(?:\.\d+)?) MB/.exec(cache);
  expect(m, cache).not.toBeNull();
  expect(Number(m![1]), cache).toBeLessThanOrEqual(Number(m![2]));
}

const viewSize = (page: Page): Promise<{ widthPx: number; heightPx: number }> =>
  page.evaluate(() => (window as unknown as { exrviewApp: AppHandle }).exrviewApp.controller.view.sizePx);

test('a 32768×16384 float file tiled with MIP levels: its own 1/4 level at fit, level 0 at 1:1 in a corner and across seams', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const started = Date.now();
  await open(page, 'tiled', 'tiled_32k_float.exr');
  await settle(page);
  await expect(page.getByRole('alert', { name: 'Cannot show this file' })).toHaveCount(0);
  await expect(page.getByRole('note', { name: 'Reduced level' })).toContainText(
    "showing a 1/4 level (8192×4096 of 32768×16384 px, the file's own MIP level)",
  );
  await expectFitMatches(page, 'tiled-32k-fit.png');
  const fitMs = Date.now() - started;
  const size = await viewSize(page);
  await expectOneToOneMatches(page, 'float', [
    // the bottom-right corner; the centre, across tile seams (every 256 px), cell edges and the GPU's 8192 px grid
    ['tiled-32k-1to1-corner.png', W - size.widthPx + 64, H - size.heightPx + 48],
    ['tiled-32k-1to1-seam.png', W / 2 - 517, H / 2 - 301],
  ]);
  await expectCacheWithinBudget(page);
  test.info().annotations.push({ type: 'timing', description: `fit ${fitMs} ms, all ${Date.now() - started} ms` });
});

test('a 32768×16384 half ZIP scanline file: a box-filtered 1/4 level at fit, level 0 at 1:1 in a corner and across seams', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const started = Date.now();
  await open(page, 'scanline', 'scanline_32k_half.exr');
  await expect(page.getByRole('note', { name: 'Reduced level' })).toContainText(
    'showing a 1/4 level (8192×4096 of 32768×16384 px, box-filtered as it was decoded)',
    { timeout: 180_000 },
  );
  await settle(page);
  await expect(page.getByRole('alert', { name: 'Cannot show this file' })).toHaveCount(0);
  await expectFitMatches(page, 'scanline-32k-fit.png');
  const fitMs = Date.now() - started;
  await expectOneToOneMatches(page, 'half', [
    // the top-left corner; the centre, across 16-line chunk seams, cell edges and the GPU's 8192 px grid
    ['scanline-32k-1to1-corner.png', -64, -48],
    ['scanline-32k-1to1-seam.png', W / 2 - 640, H / 2 - 333],
  ]);
  await expectCacheWithinBudget(page);
  test.info().annotations.push({ type: 'timing', description: `fit ${fitMs} ms, all ${Date.now() - started} ms` });
});

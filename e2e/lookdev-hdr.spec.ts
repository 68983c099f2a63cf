// The "HDR output" toggle in browser mode: off with its reason on a standard display; with the display taken as HDR
// (this machine has no HDR display, and this Chromium's DevTools media emulation does not cover dynamic-range, so the
// media query alone is answered 'high' by an init script; the canvas check stays real) it turns on and the preview
// canvas goes extended-range.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { toolbarControl } from './toolbar-menu.js';
import { test, expect, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const W = 64,
  H = 32;
let server: Served | null = null;
let url = '';
const shots = join('test-results', 'lookdev');

test.beforeAll(async () => {
  buildProject();
  const { writeExrFile } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-hdr-'));
  mkdirSync(shots, { recursive: true });
  const box = { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 };
  writeExrFile(join(dir, 'hot.exr'), [
    {
      dataWindow: box,
      compression: 'none',
      channels: ['R', 'G', 'B'].map((name) => ({ name, pixelType: 'float' as const, data: floatPlane(W, H, (x) => (8 * (x + 1)) / W) })),
    },
  ]);
  server = await serveFolder(dir);
  url = server.url;
});
test.afterAll(() => {
  server?.stop();
});

async function open(page: Page): Promise<void> {
  await page.goto(url);
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'hot.exr' }).click();
  await page.waitForFunction(() => !document.querySelector('[role=status]')?.textContent?.includes('loading'));
}

test('on a standard display the HDR toggle is disabled and says why', async ({ page }) => {
  await open(page);
  const toggle = page.getByRole('checkbox', { name: 'HDR output' });
  await expect(toggle).toBeDisabled();
  await expect(toggle).not.toBeChecked();
  await expect(page.getByLabel('HDR output status')).toContainText('off: the display is not in HDR mode');
  await page.screenshot({ path: join(shots, 'hdr-off.png') });
});

test('with the display emulated as HDR the toggle turns on and the preview canvas goes extended-range', async ({ page }) => {
  // a wide window, so that the HDR controls stay in the toolbar's row (the ⋯ menu has its own specs)
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.addInitScript(() => {
    const real = window.matchMedia.bind(window);
    window.matchMedia = (q: string) =>
      /dynamic-range:\s*high/.test(q) ? ({ ...real(q), matches: true, media: q } as MediaQueryList) : real(q);
  });
  await open(page);
  expect(await page.evaluate(() => matchMedia('(dynamic-range: high)').matches)).toBe(true);
  // with HDR on, the Look group widens and may move into the toolbar's ⋯ menu: each use reaches it as a person would
  const toggle = page.getByRole('checkbox', { name: 'HDR output' });
  const paperWhite = page.getByRole('spinbutton', { name: 'Paper white (nits)' });
  await expect(await toolbarControl(page, toggle)).toBeEnabled();
  await expect(page.getByLabel('HDR output status')).toHaveText('HDR available');
  await (await toolbarControl(page, toggle)).check();
  await expect(page.getByLabel('HDR output status')).toHaveText('HDR on');
  await expect(await toolbarControl(page, paperWhite)).toHaveValue('203');
  const format = await page.evaluate(
    () =>
      (window as unknown as { exrviewApp: { controller: { engine: { previewFormat: string } } } }).exrviewApp.controller.engine
        .previewFormat,
  );
  expect(format).toBe('rgba16float');
  await (await toolbarControl(page, paperWhite)).fill('300');
  await expect(await toolbarControl(page, paperWhite)).toHaveValue('300');
  await page.screenshot({ path: join(shots, 'hdr-on.png') });
  await (await toolbarControl(page, toggle)).uncheck();
  await expect(page.getByLabel('HDR output status')).toHaveText('HDR available');
  const back = await page.evaluate(
    () =>
      (window as unknown as { exrviewApp: { controller: { engine: { previewFormat: string; canvasFormat: string } } } }).exrviewApp
        .controller.engine,
  );
  expect(back.previewFormat).toBe(back.canvasFormat);
});

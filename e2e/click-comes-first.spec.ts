// The click comes first (browser mode): while a picked image loads, until its first sharp frame, the grid draws no
// frame and asks the host for no thumbnail, even as the grid is scrolled to cells it has not shown; both resume then.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { test, expect } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const FILES = 60;
/** Names without frame numbers (numbered names would make one sequence, one grid cell): take-ba.exr … */
const nameOf = (n: number) => `take-${String.fromCharCode(98 + Math.floor(n / 26))}${String.fromCharCode(97 + (n % 26))}.exr`;
/** How long the picked image's decode request is held on its way to the host: the load the test works within. */
const HOLD_MS = 3000;

let server: Served | null = null;

test.beforeAll(async () => {
  buildProject();
  const { writeExrFile } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-click-first-'));
  const image = (name: string, sizePx: number, k: number) =>
    writeExrFile(join(dir, name), [
      {
        dataWindow: { xMin: 0, yMin: 0, xMax: sizePx - 1, yMax: sizePx - 1 },
        compression: 'zip',
        channels: ['R', 'G', 'B'].map((c, i) => ({
          name: c,
          pixelType: 'float' as const,
          data: floatPlane(sizePx, sizePx, (x, y) => ((x * (i + 1) + y * k) % 97) / 97),
        })),
      },
    ]);
  image('aaa-picked.exr', 512, 3);
  for (let n = 0; n < FILES; n++) image(nameOf(n), 48, n);
  server = await serveFolder(dir);
});
test.afterAll(() => {
  server?.stop();
});

interface Spy {
  /** Thumbnail requests the page sent, and whether a picked image was loading then. */
  thumbRequests: { fileId: string; loading: boolean }[];
  /** The grid frames counted when each load started holding and when it let go. */
  holds: { from: number; to: number | null }[];
}

test('the grid draws nothing and asks for no thumbnail while a picked image loads, then catches up', async ({ page }) => {
  test.setTimeout(120_000);
  await page.route('**/api/decodeImage', async (route) => {
    await new Promise((r) => setTimeout(r, HOLD_MS));
    await route.continue().catch(() => {});
  });
  await page.goto(server!.url);
  const grid = page.getByRole('listbox', { name: 'Images' });
  await grid.getByRole('option', { name: 'aaa-picked.exr' }).waitFor();
  // the visible cells' thumbnails are in; the cells further down have never been shown, so none was asked for
  await page.waitForFunction(() => window.exrviewApp!.controller.thumbsShown >= 6, null, { timeout: 60_000 });
  await page.evaluate(() => {
    const c = window.exrviewApp!.controller;
    const engine = c.engine as unknown as { stats(): { gridFrames: number } };
    const spy: Spy = { thumbRequests: [], holds: [] };
    (window as unknown as { spy: Spy }).spy = spy;
    const api = c.host.api;
    const getThumbnail = api.getThumbnail.bind(api);
    api.getThumbnail = (request) => {
      spy.thumbRequests.push({ fileId: request.fileId, loading: c.foreground.busy });
      return getThumbnail(request);
    };
    c.foreground.subscribe((loading) => {
      if (loading) spy.holds.push({ from: engine.stats().gridFrames, to: null });
      else spy.holds.at(-1)!.to = engine.stats().gridFrames;
    });
  });
  const records = await page.evaluate(() => window.exrviewApp!.controller.records.length);
  await grid.getByRole('option', { name: 'aaa-picked.exr' }).click();
  await page.waitForFunction(() => window.exrviewApp!.controller.foreground.busy);
  // the artist scrolls while the image loads: cells never shown come into view
  await grid.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(grid.getByRole('option', { name: nameOf(FILES - 1) })).toBeVisible();
  const stillLoading = await page.evaluate(() => window.exrviewApp!.controller.foreground.busy);
  expect(stillLoading, `the scroll must land within the ${HOLD_MS} ms load for this test to say anything`).toBe(true);

  await page.waitForFunction((n) => window.exrviewApp!.controller.records.length > n, records, { timeout: 60_000 });
  const spy = await page.evaluate(() => (window as unknown as { spy: Spy }).spy);
  expect(spy.holds.length).toBeGreaterThanOrEqual(1);
  const hold = spy.holds[0]!;
  expect(hold.to, 'the load let go once its first frame was on screen').not.toBeNull();
  expect(hold.to! - hold.from, 'grid frames drawn while the picked image loaded').toBe(0);
  expect(
    spy.thumbRequests.filter((r) => r.loading),
    'thumbnail requests sent while the picked image loaded',
  ).toEqual([]);

  // then the grid catches up: the scrolled-to cells' thumbnails are asked for, arrive and are drawn
  await page.waitForFunction(
    (name) => {
      const c = window.exrviewApp!.controller;
      const last = c.store.getState().library.files.find((f) => f.name === name);
      return !!last && c.engine!.hasThumbnail(last.id);
    },
    nameOf(FILES - 1),
    { timeout: 60_000 },
  );
  const after = await page.evaluate(() => ({
    spy: (window as unknown as { spy: Spy }).spy,
    gridFrames: (window.exrviewApp!.controller.engine as unknown as { stats(): { gridFrames: number } }).stats().gridFrames,
  }));
  expect(after.spy.thumbRequests.length, 'the cells scrolled to during the load are asked for after it').toBeGreaterThan(0);
  expect(after.gridFrames).toBeGreaterThan(hold.to!);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: test.info().outputPath('after-load.png') });
});

// Images past the GPU's texture limit in browser mode on SwiftShader (8192 px a side), every combination issue #42 asks
// for: 16384×8192 and 32768×16384, half and float, ZIP scanline and ZIP tiled 256 px with MIP levels, RGB. Each file is
// written block by block by the project's streaming writer from a pattern known in closed form
// (testing/huge/cell-pattern.ts), in a folder of its own served alone, and deleted after its test. At fit the preview
// shows the largest level under the limit (1/2 or 1/4 a side: the file's own MIP level, or box-filtered as the host
// decodes), says which and why, and matches the pattern's level on the CPU; at 1:1 in a corner and across tile, chunk
// and crop seams every pixel on the canvas matches the one written, within two codes; the GPU cache stays within its
// budget; the Statistics are level 0's, measured on the host chunk by chunk. The 16384×8192 half scanline file (the issue's lat-long) also keeps its grid thumbnail, and exposure works
// on its reduced level.
import { buildProject, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Page } from '@playwright/test';
import { atOneToOne, fitErrors, imageBox, meanBrightness, oneToOneErrors, pixels, settle, type AppHandle } from './huge-view.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeExrFileStreaming } from '../codec/index.js';
import { cellPattern } from '../testing/huge/cell-pattern.js';

interface HugeCase {
  widthPx: number;
  heightPx: number;
  pixelType: 'half' | 'float';
  layout: 'scanline' | 'tiled';
}

const CASES: HugeCase[] = [
  [16384, 8192],
  [32768, 16384],
].flatMap(([widthPx, heightPx]) =>
  (['half', 'float'] as const).flatMap((pixelType) =>
    (['scanline', 'tiled'] as const).map((layout) => ({ widthPx: widthPx!, heightPx: heightPx!, pixelType, layout })),
  ),
);
const LIMIT_PX = 8192;

const fileName = (hc: HugeCase): string => `${hc.layout}_${hc.widthPx / 1024}k_${hc.pixelType}.exr`;
/** The MIP level shown at fit: the largest whose width fits the texture limit. */
const fitLevel = (hc: HugeCase): number => Math.log2(hc.widthPx / LIMIT_PX);
/** The case the issue tells of (a 16384×8192 half ZIP lat-long): its thumbnail and exposure are checked as well. */
const isPano = (hc: HugeCase): boolean => hc.widthPx === 16384 && hc.pixelType === 'half' && hc.layout === 'scanline';

test.beforeAll(() => {
  test.setTimeout(180_000);
  buildProject();
});

/** Writes the case's file into a folder of its own and serves it: another file's prefetch (a whole-file pass) does not slow it. */
async function writeAndServe(hc: HugeCase): Promise<{ server: Served; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'exrview-e2e-huge-'));
  writeExrFileStreaming(
    join(dir, fileName(hc)),
    {
      dataWindow: { xMin: 0, yMin: 0, xMax: hc.widthPx - 1, yMax: hc.heightPx - 1 },
      compression: 'zip',
      ...(hc.layout === 'tiled' ? { tiles: { xSizePx: 256, ySizePx: 256, levelMode: 'mipmapLevels' as const } } : {}),
      channels: ['R', 'G', 'B'].map((name) => ({ name, pixelType: hc.pixelType })),
    },
    cellPattern(hc.widthPx, hc.heightPx).blocks(hc.pixelType),
  );
  return { server: await serveFolder(dir), dir };
}

/**
 * The preview at fit matches the pattern's level `k`, at once after the preview settles. A 32768 px file is polled: a
 * smaller level (1/16) may be drawn first, then this one replaces it.
 */
async function expectFitMatches(page: Page, hc: HugeCase, shotName: string): Promise<void> {
  const k = fitLevel(hc),
    pattern = cellPattern(hc.widthPx, hc.heightPx);
  const canvas = page.getByRole('img', { name: 'Preview' });
  const level = {
    widthPx: hc.widthPx >> k,
    heightPx: hc.heightPx >> k,
    cells: [hc.widthPx / 1024, hc.heightPx / 1024] as [number, number],
    step: [3, 1] as const,
  };
  const value = (c: number, x: number, y: number): number => pattern.value(k, c, x, y);
  const errorsNow = async (): Promise<string[]> => {
    // saved as it is read: each attempt overwrites the last, so the one saved is the one that passed
    const shot = await pixels(canvas, test.info().outputPath(shotName));
    const box = imageBox(shot);
    if (box.x1 - box.x0 + 1 <= 300) return [`image box ${JSON.stringify(box)}: too small`];
    return fitErrors(shot, level, value);
  };
  if (hc.widthPx > 16384) await expect.poll(errorsNow, { timeout: 180_000, intervals: [1000, 2000, 4000] }).toEqual([]);
  else {
    const errors = await errorsNow();
    expect(errors, errors.join('\n')).toEqual([]);
  }
}

/** The Statistics are level 0's, measured by the host chunk by chunk (not the reduced level on screen), and say so. */
async function expectLevelZeroStatistics(page: Page, hc: HugeCase): Promise<void> {
  const stats = page.getByRole('region', { name: 'Statistics' });
  await expect(stats.locator('[data-key=stats-measured-on]')).toContainText(
    `of level 0 (${hc.widthPx}×${hc.heightPx} px), read chunk by chunk on the host`,
    { timeout: 360_000 },
  );
  await expect(stats).toContainText(`whole image, ${hc.widthPx}×${hc.heightPx}`);
}

/** Level 0 at 1:1 with its pixel (x0, y0) at the canvas's top-left matches what was written. */
async function expectOneToOneMatches(page: Page, hc: HugeCase, shotName: string, x0: number, y0: number): Promise<void> {
  const { widthPx: W, heightPx: H } = hc;
  const pattern = cellPattern(W, H);
  const stored = (c: number, x: number, y: number): number => pattern.stored(hc.pixelType, 0, c, x, y);
  const cap = await atOneToOne(page, x0, y0, W, H, shotName);
  const wrong = oneToOneErrors(cap, x0, y0, W, H, stored);
  expect(wrong, `${shotName}:\n${wrong.join('\n')}`).toEqual([]);
}

/** The GPU cache within its budget (and holding the image), the device's limit shown and no image refused. */
async function expectCacheWithinBudget(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Diagnostics' }).click();
  const diag = page.getByRole('region', { name: 'Diagnostics' });
  const cache = (await diag.locator('[data-key=cache]').textContent())!;
  const m = /(\d+(?:\.\d+)?) MB of (\d+(?:\.\d+)?) MB/.exec(cache);
  expect(m, cache).not.toBeNull();
  expect(Number(m![1]), cache).toBeLessThanOrEqual(Number(m![2]));
  expect(Number(m![1]), cache).toBeGreaterThan(0);
  await expect(diag.locator('[data-key=gpu-limits]')).toContainText(`largest texture ${LIMIT_PX} px a side`);
  await expect(diag.locator('[data-key=gpu-limits]')).toContainText('0 images refused');
}

/** Milliseconds each phase of a case took, for the report's annotation. */
function phaseTimer(): { mark(phase: string): void; text(): string } {
  const marks: string[] = [];
  let last = Date.now();
  return {
    mark(phase) {
      const now = Date.now();
      marks.push(`${phase} ${now - last} ms`);
      last = now;
    },
    text: () => marks.join(', '),
  };
}

const nextFrames = (page: Page): Promise<unknown> =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

for (const hc of CASES) {
  const { widthPx: W, heightPx: H } = hc;
  const k = fitLevel(hc);
  const from = hc.layout === 'tiled' ? "the file's own MIP level" : 'box-filtered as it was decoded';
  const layoutName = hc.layout === 'tiled' ? 'tiled with MIP levels' : 'ZIP scanline';
  test(`a ${W}×${H} ${hc.pixelType} ${layoutName} file: a 1/${2 ** k} level at fit, level 0 at 1:1 in a corner and across seams`, async ({
    page,
  }) => {
    test.setTimeout(600_000);
    const timing = phaseTimer();
    const { server, dir } = await writeAndServe(hc);
    timing.mark('written');
    try {
      const tag = `${hc.layout}-${W / 1024}k-${hc.pixelType}`;
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(server.url);
      const cell = page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: fileName(hc) });
      await expect(cell).toBeVisible({ timeout: 120_000 });
      let thumbBefore = 0;
      if (isPano(hc)) {
        await page.waitForFunction(
          () => (window as unknown as { exrviewApp: { controller: { thumbsShown: number } } }).exrviewApp.controller.thumbsShown >= 1,
          null,
          { timeout: 120_000 },
        );
        thumbBefore = await meanBrightness(cell);
        expect(thumbBefore, 'the thumbnail before the preview').toBeGreaterThan(100);
      }

      timing.mark('grid');
      await cell.click();
      // no card over the preview: the image is shown, a note says which level and why
      const note = page.getByRole('note', { name: 'Reduced level' });
      await expect(note).toContainText(`showing a 1/${2 ** k} level (${W >> k}×${H >> k} of ${W}×${H} px, ${from})`, {
        timeout: 180_000,
      });
      timing.mark('note');
      await settle(page);
      timing.mark('settled');
      await expect(page.getByRole('alert', { name: 'Cannot show this file' })).toHaveCount(0);
      await expect(note).toContainText(`over the GPU's ${LIMIT_PX} px texture limit`);
      await expect(note).toContainText("statistics and the histogram are level 0's, measured on the host chunk by chunk");
      await expectFitMatches(page, hc, `${tag}-fit.png`);
      timing.mark('fit');

      const size = await page.evaluate(() => (window as unknown as { exrviewApp: AppHandle }).exrviewApp.controller.view.sizePx);
      // a corner (the bottom-right of a tiled file, where its last tiles are partial; the top-left of a scanline one)
      const [cornerX, cornerY] = hc.layout === 'tiled' ? [W - size.widthPx + 64, H - size.heightPx + 48] : [-64, -48];
      await expectOneToOneMatches(page, hc, `${tag}-1to1-corner.png`, cornerX, cornerY);
      timing.mark('1:1 corner');
      // the centre: across tile seams (every 256 px) or 16-line chunk seams, cell edges and the GPU's 8192 px grid
      const [seamX, seamY] = hc.layout === 'tiled' ? [W / 2 - 517, H / 2 - 301] : [W / 2 - 640, H / 2 - 333];
      await expectOneToOneMatches(page, hc, `${tag}-1to1-seam.png`, seamX, seamY);
      timing.mark('1:1 seam');

      if (isPano(hc)) {
        await page.evaluate(() => (window as unknown as { exrviewApp: AppHandle }).exrviewApp.controller.fit());
        await nextFrames(page);
        // exposure works on the reduced level: +2 EV brightens it
        const canvas = page.getByRole('img', { name: 'Preview' });
        const before = await meanBrightness(canvas);
        const exposure = page.getByRole('slider', { name: 'Exposure' });
        await exposure.focus();
        for (let i = 0; i < 6; i++) await exposure.press('ArrowRight');
        await expect(exposure).toHaveValue('2');
        await nextFrames(page);
        expect(await meanBrightness(canvas)).toBeGreaterThan(before + 20);
        // the grid's thumbnail was not touched by the preview
        expect(await meanBrightness(cell), 'the thumbnail after the preview').toBeGreaterThan(thumbBefore * 0.8);
      }
      await expectCacheWithinBudget(page);
      timing.mark('budget');
      // measured on the host while the views above were drawn
      await expectLevelZeroStatistics(page, hc);
      timing.mark('statistics');
      test.info().annotations.push({ type: 'timing', description: timing.text() });
    } finally {
      server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

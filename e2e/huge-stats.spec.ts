// Statistics of an image over the GPU's texture limit are level 0's, measured by the host chunk by chunk, not the means
// of the reduced level on screen: a 16384×8192 half RGB ZIP file whose R is a one-pixel checker (its 1/2 level is 0.5
// everywhere, level 0 is 0 and 1), with a NaN, an Inf and a lone negative in B. The panel names the level it measured;
// the histogram counts level 0 too; a Shift-drag rectangle is measured on the host the same way.
import { buildProject, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HALF_TO_FLOAT, floatToHalf, writeExrFileStreaming } from '../codec/index.js';

const W = 16384,
  H = 8192;
const NAN_AT = [100, 200],
  INF_AT = [5000, 3000],
  NEGATIVE_AT = [W - 1, H - 1];
const B_VALUE = 0.25;
/** G is a ramp across, as half: its figures are computed from these. */
const greenBits = Uint16Array.from({ length: W }, (_, x) => floatToHalf(x / W));

let served: Served | null = null;
let dir = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  buildProject();
  dir = mkdtempSync(join(tmpdir(), 'exrview-e2e-huge-stats-'));
  const special = [NAN_AT, INF_AT, NEGATIVE_AT];
  writeExrFileStreaming(
    join(dir, 'checker_16k.exr'),
    {
      dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 },
      compression: 'zip',
      channels: ['R', 'G', 'B'].map((name) => ({ name, pixelType: 'half' as const })),
    },
    {
      // blocks of 16 whole rows: all alike but those holding a special pixel
      sameAs: (_level, block) => {
        const hit = special.findIndex(([, y]) => y! >= block.y0 && y! < block.y0 + block.heightPx);
        return hit < 0 ? 'plain' : `special-${hit}`;
      },
      pixels: (_level, block) => {
        const w = block.widthPx,
          h = block.heightPx;
        const r = new Uint16Array(w * h),
          g = new Uint16Array(w * h),
          b = new Uint16Array(w * h).fill(floatToHalf(B_VALUE));
        for (let j = 0; j < h; j++)
          for (let i = 0; i < w; i++) {
            const x = block.x0 + i,
              y = block.y0 + j;
            r[j * w + i] = floatToHalf((x + y) & 1);
            g[j * w + i] = greenBits[x]!;
          }
        const put = ([x, y]: number[], v: number) => {
          if (y! >= block.y0 && y! < block.y0 + h) b[(y! - block.y0) * w + (x! - block.x0)] = floatToHalf(v);
        };
        put(NAN_AT, NaN);
        put(INF_AT, Infinity);
        put(NEGATIVE_AT, -2);
        return [r, g, b]; // the part's channels in the order it lists them
      },
    },
  );
  served = await serveFolder(dir);
});
test.afterAll(() => {
  served?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A row of the Statistics panel as numbers. */
async function row(page: Page, channel: string): Promise<Record<string, number>> {
  const stats = page.getByRole('region', { name: 'Statistics' });
  const out: Record<string, number> = {};
  for (const key of ['min', 'max', 'mean', 'sd', 'nan', 'inf']) {
    const text = (await stats.locator(`tr[data-channel=${channel}] [data-key=${key}]`).textContent())!;
    out[key] = Number(text.replace(/,/g, '').replace('−', '-'));
  }
  return out;
}

test("a 16384×8192 image's Statistics and histogram are of level 0, measured on the host, whole and in a rectangle", async ({ page }) => {
  test.setTimeout(480_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(served!.url);
  const cell = page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'checker_16k.exr' });
  await expect(cell).toBeVisible({ timeout: 120_000 });
  await cell.click();
  await expect(page.getByRole('note', { name: 'Reduced level' })).toContainText('showing a 1/2 level', { timeout: 240_000 });
  const stats = page.getByRole('region', { name: 'Statistics' });
  const measuredOn = stats.locator('[data-key=stats-measured-on]');
  await expect(measuredOn).toContainText(`of level 0 (${W}×${H} px), read chunk by chunk on the host`, { timeout: 360_000 });
  await expect(stats).toContainText(`whole image, ${W}×${H}`);
  await expect(stats).toContainText('measured on the host');
  await stats.screenshot({ path: test.info().outputPath('huge-stats-panel.png') });

  // the checker's level 0: 0 and 1 (its 1/2 level would say 0.5 and 0.5)
  const r = await row(page, 'R');
  expect([r.min, r.max, r.mean, r.sd, r.nan, r.inf]).toEqual([0, 1, 0.5, 0.5, 0, 0]);
  // G: the ramp's halves, every row alike
  const green = Array.from(greenBits, (h) => HALF_TO_FLOAT[h]!);
  const gMean = green.reduce((a, v) => a + v, 0) / W;
  const g = await row(page, 'G');
  expect(g.min).toBe(0);
  expect(g.max).toBeCloseTo(green[W - 1]!, 4);
  expect(g.mean).toBeCloseTo(gMean, 4);
  // B: one NaN and one Inf left out and counted; the lone −2 is the minimum
  const n = W * H - 2;
  const b = await row(page, 'B');
  expect([b.min, b.max, b.nan, b.inf]).toEqual([-2, B_VALUE, 1, 1]);
  expect(b.mean).toBeCloseTo((B_VALUE * (n - 1) - 2) / n, 5);

  // the histogram counts level 0's pixels: R's bins hold the checker's zeros and ones, nothing at 0.5
  const hist = await page.evaluate(() => {
    const c = (window as unknown as { exrviewApp: { controller: { histogram: Uint32Array | null; histogramSource: string } } }).exrviewApp
      .controller;
    return c.histogram ? { source: c.histogramSource, bins: Array.from(c.histogram) } : null;
  });
  expect(hist?.source).toBe('a');
  const bins = hist!.bins.length / 4;
  const red = hist!.bins.slice(bins, 2 * bins);
  expect(red.reduce((a, v) => a + v, 0)).toBe(W * H);
  expect(red.filter((v) => v > 0).length, 'R counts two values: 0 and 1').toBe(2);

  // a rectangle, measured on the host the same way: 3 × 2 pixels at an odd corner hold three 0s and three 1s
  await page.evaluate(() => {
    const app = (window as unknown as { exrviewApp: { controller: { actions: { setInspect(p: object): void } } } }).exrviewApp;
    app.controller.actions.setInspect({ region: { x0: 4097, y0: 2049, widthPx: 3, heightPx: 2 } });
  });
  await expect(stats).toContainText('rectangle 4097,2049 – 4099,2050 (3×2)', { timeout: 120_000 });
  await expect(measuredOn).toContainText('of level 0', { timeout: 120_000 });
  await expect.poll(async () => (await row(page, 'R')).mean, { timeout: 120_000 }).toBe(0.5);
  const rr = await row(page, 'R');
  expect([rr.min, rr.max]).toEqual([0, 1]);
});

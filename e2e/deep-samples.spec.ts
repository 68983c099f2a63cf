// Deep samples in the viewer (browser mode, WebGPU on SwiftShader): click a pixel of a generated deep file (volumes
// that overlap, samples out of depth order, pixels without samples) and its list is what was written, in file order
// with depth order marked; F3 opens the depth range, and with the handles moved the preview's pixel is the CPU
// reference's composite of that range through the display path; the samples are uploaded once however the handles move.
import { buildProject, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deepVolumeSource } from '../testing/codec/oracle/deep-volumes.js';
import { halfToFloat, toneMapPixel } from '../shaders/tonemap-cpu.js';
import type { DisplayParams } from '../shaders/display-params.js';
import { formatValue } from '../renderer/ui/pixel-readout.js';

const W = 24,
  H = 16;
const SEED = 9;
/** The pixel clicked: it has samples (every fifth pixel has none). */
const PX = 10,
  PY = 7;
const ZOOM = 16;
let server: Served | null = null;
let file = '';

test.beforeAll(async () => {
  buildProject();
  const { writeExr } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-deep-'));
  const deep = deepVolumeSource(W, H, 6, SEED);
  file = join(dir, 'volumes.exr');
  const dataWindow = { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 };
  writeFileSync(file, writeExr([{ compression: 'zips', dataWindow, channels: deep.channels, deepSampleCounts: deep.sampleCounts }]));
  server = await serveFolder(dir);
});
test.afterAll(() => {
  server?.stop();
});

/** The written samples of (x, y) per channel, as the list formats them. */
function writtenSamples(x: number, y: number): { names: string[]; rows: string[][] } {
  const deep = deepVolumeSource(W, H, 6, SEED);
  const p = y * W + x;
  let start = 0;
  for (let i = 0; i < p; i++) start += deep.sampleCounts[i]!;
  const rows: string[][] = [];
  for (let k = 0; k < deep.sampleCounts[p]!; k++) {
    rows.push(
      deep.channels.map((c) => {
        const v = c.data[start + k]!;
        // uint channels (IDs) are listed as integers
        return c.pixelType === 'uint' ? String(v) : formatValue(c.pixelType === 'half' ? halfToFloat(v) : v);
      }),
    );
  }
  return { names: deep.channels.map((c) => c.name), rows };
}

type AppWindow = {
  exrviewApp: {
    controller: {
      engine: {
        deepRange: { uploads: number; composites: number };
        capture(which: 'preview'): Promise<{ format: string; bytesPerRow: number; data: Uint8Array; widthPx: number }>;
      };
      actions: { setPanZoom(v: { zoom: number; centerX: number; centerY: number }): void };
    };
    store: { getState(): { image: { currentFileId: string | null; loading: boolean }; view: { display: DisplayParams } } };
  };
};

/** The canvas pixel (device px) and page point (CSS px) at the centre of image pixel (PX, PY), zoomed so that it is large. */
async function zoomOnPixel(page: Page): Promise<{ canvas: [number, number]; client: [number, number] }> {
  return page.evaluate(
    ([px, py, zoom]: [number, number, number]) => {
      const cv = document.querySelector<HTMLCanvasElement>('.preview-canvas')!;
      const r = cv.getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      // a quarter in from the left: the deep panel sits at the top right
      const cx = Math.round(cv.width * 0.25),
        cy = Math.round(cv.height * 0.6);
      const app = (window as unknown as AppWindow).exrviewApp;
      app.controller.actions.setPanZoom({
        zoom,
        centerX: px + 0.5 - (cx - cv.width / 2) / zoom,
        centerY: py + 0.5 - (cy - cv.height / 2) / zoom,
      });
      return { canvas: [cx, cy] as [number, number], client: [r.left + cx / dpr, r.top + cy / dpr] as [number, number] };
    },
    [PX, PY, ZOOM] as [number, number, number],
  );
}

test('a deep pixel’s samples, and the depth range composited on the GPU as the CPU reference', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(server!.url);
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'volumes.exr' }).click();
  await page.waitForFunction(() => {
    const s = (window as unknown as AppWindow).exrviewApp.store.getState();
    return s.image.currentFileId !== null && !s.image.loading;
  });
  await expect(page.locator('.status')).toContainText('GPU');
  await page.getByRole('combobox', { name: 'Display transform' }).selectOption('linear');
  const panel = page.getByRole('complementary', { name: 'Deep samples' });
  await expect(panel).toContainText('click a pixel to list its samples');
  // the samples are named by the file they are of, and the layer shown: the part has a base layer and 'diffuse' to choose
  // from (one part: no part named)
  await expect(panel.locator('.deep-source')).toHaveText('volumes.exr · layer (base)');

  // the list: what was written at that pixel, in file order, Z and ZBack first, depth order marked
  const at = await zoomOnPixel(page);
  await page.mouse.click(at.client[0], at.client[1]);
  const written = writtenSamples(PX, PY);
  await expect(panel.locator('.deep-pixel')).toHaveText(`pixel ${PX}, ${PY}: ${written.rows.length} samples`);
  const table = panel.getByRole('table', { name: 'Samples of the pixel' });
  const order = ['Z', 'ZBack', ...written.names.filter((n) => n !== 'Z' && n !== 'ZBack')];
  await expect(table.locator('thead th')).toHaveText(['#', 'depth', ...order]);
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(written.rows.length);
  const depthRanks: number[] = [];
  for (let k = 0; k < written.rows.length; k++) {
    const cells = await rows.nth(k).locator('td').allTextContents();
    expect(cells[0]).toBe(String(k));
    depthRanks.push(Number(cells[1]));
    expect(cells.slice(2)).toEqual(order.map((n) => written.rows[k]![written.names.indexOf(n)]!));
  }
  expect([...depthRanks].sort((a, b) => a - b)).toEqual(written.rows.map((_, k) => k + 1));

  // the depth range: F3, then the handles moved; the preview's pixel is the CPU reference's composite
  await page.keyboard.press('F3');
  const near = panel.getByRole('slider', { name: 'Near depth' });
  const far = panel.getByRole('slider', { name: 'Far depth' });
  await expect(near).toBeVisible({ timeout: 60_000 });
  const group = panel.getByRole('group', { name: 'Depth range' });
  const [lo, hi] = [Number(await near.getAttribute('min')), Number(await near.getAttribute('max'))];
  expect(lo).toBe(1);
  const { deepSamplesTask } = await import('../host/decode/deep-samples-task.js');
  const { columnsOf } = await import('../shaders/deep/columns.js');
  const { compositeRange } = await import('../shaders/deep/range-composite.js');
  const columns = columnsOf(deepSamplesTask({ path: file, part: 0, sortByDepth: true }, { signal: { aborted: false } }).result);
  const channel = (name: string) => written.names.indexOf(name);
  for (const [n, f] of [
    [lo + (hi - lo) * 0.2, lo + (hi - lo) * 0.55],
    [lo + (hi - lo) * 0.3, hi],
  ] as const) {
    await far.fill(String(f));
    await near.fill(String(n));
    const range = { near: Number(await group.getAttribute('data-near')), far: Number(await group.getAttribute('data-far')) };
    expect(range.near).toBeGreaterThan(lo);
    const planes = compositeRange(columns, range);
    const p = PY * W + PX;
    const rgba = ['R', 'G', 'B', 'A'].map((c) => planes[channel(c)]![p]!);
    await expect(panel.getByLabel('Composite in the range')).toContainText(`R=${formatValue(rgba[0]!)}`);
    const shown = await page.evaluate(async ([x, y]) => {
      const app = (window as unknown as AppWindow).exrviewApp;
      const cap = await app.controller.engine.capture('preview');
      const i = y! * cap.bytesPerRow + x! * 4;
      return { format: cap.format, px: Array.from(cap.data.slice(i, i + 4)), display: app.store.getState().view.display };
    }, at.canvas);
    const want = toneMapPixel(rgba[0]!, rgba[1]!, rgba[2]!, rgba[3]!, at.canvas[0], at.canvas[1], shown.display).map((v) =>
      Math.round(Math.min(1, Math.max(0, v)) * 255),
    );
    const got = shown.format.startsWith('bgra') ? [shown.px[2]!, shown.px[1]!, shown.px[0]!] : shown.px.slice(0, 3);
    console.log(`deep range ${range.near}..${range.far}: composite ${rgba.map((v) => v.toFixed(4)).join(' ')}, shown ${got} want ${want}`);
    for (let c = 0; c < 3; c++) expect(Math.abs(got[c]! - want[c]!), `channel ${c}: shown ${got} want ${want}`).toBeLessThanOrEqual(2);
  }
  // every handle move composited again from the samples uploaded once
  const counts = await page.evaluate(() => ({ ...(window as unknown as AppWindow).exrviewApp.controller.engine.deepRange }));
  console.log(`deep range: ${counts.uploads} upload(s), ${counts.composites} composite pass(es)`);
  expect(counts.uploads).toBe(1);
  // frames coalesce moves: at least one pass per range checked above
  expect(counts.composites).toBeGreaterThanOrEqual(2);
  await page.screenshot({ path: test.info().outputPath('deep-samples.png') });
});

// Compare, inspect, measure in the viewer (browser mode, WebGPU on SwiftShader): set a reference, switch to a difference
// mode and read the Comparison metrics of two files whose difference the test knows; Shift-drag a rectangle and read its
// Statistics (checked against `exrview stats` for the whole image); pick a colormap; open the Layers view; the
// diagnostics' counters show that mode and exposure changes load and upload nothing. Screenshots go with the run.
import { buildProject, floatPlane, root, serveFolder, type Served } from './serve-fixture.js';
import { toolbarControl } from './toolbar-menu.js';
import { test, expect, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

const W = 96,
  H = 64;
const base = (x: number, y: number, c: number): number =>
  Math.fround(((x + 1) / W) * 0.5 * (c === 0 ? 1 : c === 1 ? 0.7 : 0.4) + (y / H) * 0.05);
/** B differs from A in G only, by +0.5 over the 10×10 block at (10, 20). */
const inBlock = (x: number, y: number): boolean => x >= 10 && x < 20 && y >= 20 && y < 30;
const plane = (f: (x: number, y: number) => number): Float32Array => floatPlane(W, H, f);

let server: Served | null = null;
let dir = '';

test.beforeAll(async () => {
  buildProject();
  const { writeExrFile } = await import('../codec/writer.js');
  dir = mkdtempSync(join(tmpdir(), 'exrview-compare-'));
  const box = { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 };
  const rgb = (f: (x: number, y: number, c: number) => number) =>
    ['R', 'G', 'B'].map((name, c) => ({ name, pixelType: 'float' as const, data: plane((x, y) => f(x, y, c)) }));
  writeExrFile(join(dir, 'a_render.exr'), [{ dataWindow: box, compression: 'zip', channels: rgb(base) }]);
  writeExrFile(join(dir, 'b_render.exr'), [
    { dataWindow: box, compression: 'piz', channels: rgb((x, y, c) => base(x, y, c) + (c === 1 && inBlock(x, y) ? 0.5 : 0)) },
  ]);
  writeExrFile(join(dir, 'c_layers.exr'), [
    {
      dataWindow: box,
      compression: 'zip',
      channels: [
        ...rgb(base),
        ...['diffuse.R', 'diffuse.G', 'diffuse.B'].map((name, c) => ({
          name,
          pixelType: 'half' as const,
          data: halfPlane((x, y) => (c === 0 ? 0.8 : 0.2) * (y / H)),
        })),
        ...['specular.R', 'specular.G', 'specular.B'].map((name) => ({
          name,
          pixelType: 'half' as const,
          data: halfPlane((x) => (x % 16 < 8 ? 1.5 : 0.05)),
        })),
        { name: 'depth.Z', pixelType: 'float' as const, data: plane((x, y) => 1 + x / W + y / H) },
      ],
    },
  ]);
  server = await serveFolder(dir);
});
test.afterAll(() => {
  server?.stop();
});

function halfPlane(f: (x: number, y: number) => number): Uint16Array {
  const out = new Uint16Array(W * H);
  const f32 = new Float32Array(1),
    u32 = new Uint32Array(f32.buffer);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      f32[0] = f(x, y);
      const b = u32[0]!,
        e = ((b >>> 23) & 0xff) - 127 + 15;
      out[y * W + x] = e <= 0 ? 0 : e >= 31 ? 0x7c00 : (e << 10) | ((b >>> 13) & 0x3ff);
    }
  return out;
}

async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[role=status]')?.textContent?.includes('loading'));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
  await test.info().attach(name, { path: test.info().outputPath(`${name}.png`), contentType: 'image/png' });
}

const num = (s: string | null): number => (s === '—' ? NaN : Number(s));

test('reference, difference modes and the Comparison metrics of two files whose difference is known; diagnostics show no load or upload on mode and exposure changes', async ({
  page,
}) => {
  await page.goto(server!.url);
  const grid = page.getByRole('listbox', { name: 'Images' });
  await grid.getByRole('option', { name: 'a_render.exr' }).click();
  await settle(page);
  await (await toolbarControl(page, page.getByRole('button', { name: /Set as reference/ }))).click();
  await expect(page.getByRole('button', { name: /Set as reference/ })).toHaveAttribute('aria-pressed', 'true');
  // every G mean error published once b is the image on screen: the run for the last pair (a against itself, all
  // zeros), still computing when b is clicked at once, must not land then. Read from the store the panel renders,
  // not the DOM: a DOM mutation before React's next render would read a's zeros, rightly on screen until then
  await page.evaluate(() => {
    type Row = { name: string; summary: { meanError: number } };
    type S = {
      image: { currentFileId: string | null };
      library: { files: { id: string; name: string }[] };
      compare: { metrics: { rows: Row[] } | null };
    };
    const store = (window as unknown as { exrviewApp: { store: { getState(): S; subscribe(l: (s: S, prev: S) => void): () => void } } })
      .exrviewApp.store;
    const seen: number[] = [];
    (window as unknown as { seenMeanErrors: number[] }).seenMeanErrors = seen;
    const b = store.getState().library.files.find((f) => f.name === 'b_render.exr')!.id;
    store.subscribe((st, prev) => {
      const m = st.compare.metrics;
      if (m && m !== prev.compare.metrics && st.image.currentFileId === b) seen.push(m.rows.find((r) => r.name === 'G')!.summary.meanError);
    });
  });
  await grid.getByRole('option', { name: 'b_render.exr' }).click();
  await settle(page);
  await (await toolbarControl(page, page.getByRole('combobox', { name: 'Compare mode' }))).selectOption({ label: 'Absolute error' });
  const cmp = page.getByRole('region', { name: 'Comparison' });
  await expect(cmp.locator('[data-key=metrics-path]')).toContainText('GPU reduction');
  // A = b_render (on screen), B = a_render (the reference): A − B = +0.5 in G over 100 pixels
  const g = cmp.locator('tr[data-channel=G]');
  const n = W * H;
  await expect
    .poll(async () => num(await g.locator('[data-key=mean-error]').textContent()), { timeout: 30_000 })
    .toBeCloseTo((0.5 * 100) / n, 5);
  const seen = await page.evaluate(() => (window as unknown as { seenMeanErrors: number[] }).seenMeanErrors);
  expect(seen.length).toBeGreaterThan(0);
  expect(
    seen.filter((v) => Math.abs(v - (0.5 * 100) / n) > 1e-5),
    `mean errors published for b other than the pair's own: ${seen.join(', ')}`,
  ).toEqual([]);
  // the histogram counts the difference image on screen, not A
  await expect(page.getByRole('img', { name: /^Histogram of Absolute error:/ })).toBeVisible();
  expect(num(await g.locator('[data-key=mean-abs-error]').textContent())).toBeCloseTo((0.5 * 100) / n, 5);
  expect(num(await g.locator('[data-key=rmse]').textContent())).toBeCloseTo(Math.sqrt((0.25 * 100) / n), 4);
  expect(num(await g.locator('[data-key=max-error]').textContent())).toBeCloseTo(0.5, 5);
  await expect(g.locator('[data-key=max-at]')).toHaveText('10, 20');
  await expect(g.locator('[data-key=differing]')).toHaveText('100');
  await expect(cmp.locator('tr[data-channel=R] [data-key=differing]')).toHaveText('0');
  await expect(cmp.locator('tr[data-channel=R] [data-key=psnr]')).toContainText('∞');
  expect(num(await cmp.locator('tr[data-channel=all] [data-key=mean-abs-error]').textContent())).toBeCloseTo((0.5 * 100) / (3 * n), 5);
  await expect(cmp.locator('[data-key=pixels-differ]')).toContainText(`100 of ${n.toLocaleString('en-US')} pixels differ`);
  // the Statistics follow: the absolute error image, max 0.5 in G
  const stats = page.getByRole('region', { name: 'Statistics' });
  await expect(stats).toContainText('Absolute error (A − B)');
  await expect(stats.locator('tr[data-channel=G] [data-key=max]')).toHaveText('0.5');
  await page.waitForTimeout(300);
  await shot(page, 'compare-absolute-error');

  // every mode, then exposure: the diagnostics prove nothing was loaded or uploaded for them
  await page.getByRole('button', { name: 'Diagnostics' }).click();
  const diag = page.getByRole('region', { name: 'Diagnostics' });
  const loads = diag.locator('[data-key=compare-loads]');
  await expect(diag.locator('[data-key=compare]')).toContainText('pinned in the GPU cache');
  const loadsBefore = await loads.textContent();
  const uploadsBefore = await diag.locator('[data-key=uploads]').textContent();
  for (const label of [
    'A/B flip',
    'Wipe',
    'Side by side',
    'Error',
    'Squared error',
    'Relative absolute error',
    'Relative squared error',
    'Absolute error',
  ]) {
    await (await toolbarControl(page, page.getByRole('combobox', { name: 'Compare mode' }))).selectOption({ label });
    await settle(page);
    if (label === 'Wipe' || label === 'Side by side') await shot(page, `compare-${label.toLowerCase().replace(/ /g, '-')}`);
  }
  const exposure = page.getByRole('slider', { name: 'Exposure' });
  await exposure.focus();
  for (let i = 0; i < 3; i++) await exposure.press('ArrowRight');
  await settle(page);
  // the compare-view and display changes are counted since the last load or upload; the loads and uploads stand still
  await expect
    .poll(
      async () => {
        const m = /(\d+) compare-view changes, (\d+) display changes, (\d+) compare frames/.exec(
          (await diag.locator('[data-key=compare-since]').textContent())!,
        )!;
        return Number(m[1]) >= 8 && Number(m[2]) >= 3 && Number(m[3]) >= 8;
      },
      { message: 'eight mode changes and three exposure steps counted since the last load' },
    )
    .toBe(true);
  await expect(diag.locator('[data-key=compare]')).toContainText('pinned in the GPU cache');
  expect(await loads.textContent()).toBe(loadsBefore);
  expect(await diag.locator('[data-key=uploads]').textContent()).toBe(uploadsBefore);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Diagnostics' }).click();

  // A/B flip by key
  await (await toolbarControl(page, page.getByRole('combobox', { name: 'Compare mode' }))).selectOption({ label: 'A/B flip' });
  await page.getByRole('img', { name: 'Preview' }).focus();
  await page.keyboard.press('b');
  await expect(await toolbarControl(page, page.getByRole('button', { name: 'showing B' }))).toBeVisible();
  await expect(page.getByRole('img', { name: /^Histogram of image B \(reference\):/ })).toBeVisible();
});

test('Shift-drag a rectangle and read its Statistics; the whole image agrees with exrview stats; a colormap with its colour bar; pixel values when zoomed in', async ({
  page,
}) => {
  await page.goto(server!.url);
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'a_render.exr' }).click();
  await settle(page);
  const stats = page.getByRole('region', { name: 'Statistics' });
  await expect(stats.locator('[data-key=stats-region]')).toContainText(`whole image, ${W}×${H}`);
  // the whole image against the command line's statistics of the same file
  const cli = spawnSync(process.execPath, ['bin/exrview.mjs', 'stats', join(dir, 'a_render.exr'), '--json'], {
    cwd: root,
    encoding: 'utf8',
  });
  const ref = JSON.parse(cli.stdout) as {
    parts: { channels: { name: string; min: number; max: number; mean: number; nanCount: number }[] }[];
  };
  for (const ch of ref.parts[0]!.channels) {
    const row = stats.locator(`tr[data-channel=${ch.name}]`);
    expect(num(await row.locator('[data-key=min]').textContent())).toBeCloseTo(ch.min, 5);
    expect(num(await row.locator('[data-key=max]').textContent())).toBeCloseTo(ch.max, 5);
    expect(num(await row.locator('[data-key=mean]').textContent())).toBeCloseTo(ch.mean, 4);
    await expect(row.locator('[data-key=nan]')).toHaveText(String(ch.nanCount));
  }

  // Shift-drag over the middle of the preview
  const preview = page.getByRole('img', { name: 'Preview' });
  const box = (await preview.boundingBox())!;
  await page.keyboard.down('Shift');
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.4);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.6, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await expect(stats.locator('[data-key=stats-region]')).toContainText('rectangle');
  const text = (await stats.locator('[data-key=stats-region]').textContent())!;
  const m = /rectangle (-?\d+),(-?\d+) – (-?\d+),(-?\d+)/.exec(text)!;
  const [x0, y0, x1, y1] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
  let min = Infinity,
    max = -Infinity,
    sum = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const v = base(x, y, 0);
      min = Math.min(min, v);
      max = Math.max(max, v);
      sum += v;
    }
  const r = stats.locator('tr[data-channel=R]');
  expect(num(await r.locator('[data-key=min]').textContent())).toBeCloseTo(min, 5);
  expect(num(await r.locator('[data-key=max]').textContent())).toBeCloseTo(max, 5);
  expect(num(await r.locator('[data-key=mean]').textContent())).toBeCloseTo(sum / ((x1 - x0 + 1) * (y1 - y0 + 1)), 5);
  await shot(page, 'statistics-rectangle');

  // a colormap on one channel: the colour bar says which, with its range in values
  await page.getByRole('combobox', { name: 'Channel' }).selectOption('r');
  await (await toolbarControl(page, page.getByRole('combobox', { name: 'Colormap' }))).selectOption('viridis');
  const bar = page.getByRole('img', { name: /^Colour bar: Viridis of R/ });
  await expect(bar).toBeVisible();
  // auto range: the whole image's R range (from exrview stats), not the dragged rectangle's
  const rRef = ref.parts[0]!.channels.find((c) => c.name === 'R')!;
  await expect
    .poll(async () => {
      const m = /of R, (\S+) to (\S+)$/.exec((await bar.getAttribute('aria-label')) ?? '');
      return m ? [Number(m[1]).toFixed(3), Number(m[2]).toFixed(3)] : null;
    })
    .toEqual([rRef.min.toFixed(3), rRef.max.toFixed(3)]);
  await settle(page);
  // viridis runs from purple to yellow: the canvas is colourful where the tone-map of R was grey
  const png = await preview.screenshot();
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  let chroma = 0;
  for (let i = 0; i < data.length; i += info.channels)
    chroma += Math.max(data[i]!, data[i + 1]!, data[i + 2]!) - Math.min(data[i]!, data[i + 1]!, data[i + 2]!);
  expect(chroma / (data.length / info.channels)).toBeGreaterThan(40);
  await shot(page, 'colormap-viridis');

  // zoomed in far enough, values are drawn inside the pixels
  await preview.focus();
  for (let i = 0; i < 6; i++) await page.keyboard.press('+');
  await settle(page);
  await page.waitForTimeout(200);
  await shot(page, 'pixel-values');
});

test('the Layers view shows every layer of a multi-layer file with its name; clicking one opens it', async ({ page }) => {
  await page.goto(server!.url);
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'c_layers.exr' }).click();
  await settle(page);
  await (await toolbarControl(page, page.getByRole('button', { name: /Layers/ }))).click();
  const sheet = page.getByRole('region', { name: 'Layers' });
  for (const name of ['(base)', 'depth', 'diffuse', 'specular']) await expect(sheet.getByRole('button', { name })).toBeVisible();
  // the engine draws the tiles once every layer's texture is made
  await expect(sheet).toHaveAttribute('aria-busy', 'false');
  await expect(sheet).toHaveAttribute('data-drawn', '4');
  await settle(page);
  await shot(page, 'layers-view');
  await sheet.getByRole('button', { name: 'specular' }).click();
  await expect(page.getByRole('combobox', { name: 'Layer' })).toHaveValue('specular');
  await expect(sheet).toHaveCount(0);
});

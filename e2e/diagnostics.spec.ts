// The Diagnostics panel as an artist meets it in browser mode: the last load as a labelled stage timeline in ms, named
// for its image and layer, rates in the unit that reads, the adapter folded away, and Statistics left uncovered.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Locator, type Page } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const W = 640,
  H = 400;
let server: Served | null = null;

test.beforeAll(async () => {
  buildProject();
  // a dynamic import: the lint rule's 'electron/*' pattern (meant for the electron package) also matches this path
  const { writeExrFile } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-e2e-diag-'));
  const box = { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 };
  const ramp = (c: number) => floatPlane(W, H, (x, y) => (x / W) * (c + 1) * 0.3 + (y / H) * 0.1);
  writeExrFile(join(dir, 'beauty.exr'), [
    {
      dataWindow: box,
      compression: 'zip',
      channels: [
        ...['R', 'G', 'B'].map((name, c) => ({ name, pixelType: 'float' as const, data: ramp(c) })),
        ...['diffuse.R', 'diffuse.G', 'diffuse.B'].map((name, c) => ({ name, pixelType: 'float' as const, data: ramp(2 - c) })),
      ],
    },
  ]);
  writeExrFile(join(dir, 'grey.exr'), [
    { dataWindow: box, compression: 'piz', channels: [{ name: 'Y', pixelType: 'float', data: floatPlane(W, H, () => 0.18) }] },
  ]);
  server = await serveFolder(dir);
});
test.afterAll(() => {
  server?.stop();
});

async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[role=status]')?.textContent?.includes('loading'));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** A rate as shown ("412 MB/s", "1.3 GB/s") in MB/s, after checking its unit is the one that reads: MB/s below 1 GB/s. */
function rateInMBps(text: string): number {
  const m = /(\d+(?:\.\d+)?) (MB|GB)\/s/.exec(text);
  expect(m, `a rate in "${text}"`).not.toBeNull();
  const value = Number(m![1]);
  if (m![2] === 'GB/s') expect(value, `"${text}": GB/s only from 1 GB/s`).toBeGreaterThanOrEqual(1);
  else expect(value, `"${text}": MB/s only below 1 GB/s`).toBeLessThan(1000);
  expect(text).not.toMatch(/(^|\D)0 GB\/s/);
  return m![2] === 'GB/s' ? value * 1000 : value;
}

async function boxOf(el: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await el.boundingBox();
  expect(b).not.toBeNull();
  return b!;
}

test('the last load as a labelled stage timeline, rates in MB/s or GB/s, adapter folded, Statistics not covered', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 900 });
  await page.goto(server!.url);
  const grid = page.getByRole('listbox', { name: 'Images' });
  await expect(grid.getByRole('option')).toHaveCount(2);
  await expect(page.locator('.status .path')).toHaveText('GPU');

  // before any image: the panel says so instead of showing an empty chart
  await page.getByRole('button', { name: 'Diagnostics' }).click();
  const diag = page.getByRole('region', { name: 'Diagnostics' });
  await expect(diag).toBeVisible();
  await expect(diag.locator('[data-key=timeline-status]')).toHaveText('no load yet: select an image');
  await diag.screenshot({ path: test.info().outputPath('diagnostics-empty.png') });

  await grid.getByRole('option', { name: 'beauty.exr' }).click();
  await settle(page);
  const timeline = diag.getByRole('figure', { name: /^Last load of beauty\.exr/ });
  await expect(timeline.locator('[data-key=timeline-subject]')).toHaveText('beauty.exr · layer (base)');

  // each stage a labelled, coloured row with its time in ms; the upload's completion arrives after the frame
  const expected = [
    'decoder queue',
    'disk read',
    'decompress',
    'unpack',
    'transfer to renderer',
    'GPU upload',
    'GPU MIP build',
    'GPU tone-map',
  ];
  const rows = timeline.locator('.stage-row');
  await expect(rows.locator('.stage-label')).toHaveText(expected);
  for (const key of ['read', 'decompress', 'transfer', 'upload']) {
    await expect(timeline.locator(`[data-key=stage-${key}]`)).toHaveText(/^(<)?\d+(\.\d+)? ms$/);
  }
  const colours = await rows.locator('.stage-label .swatch').evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));
  expect(new Set(colours).size, `stage colours ${colours.join(' ')}`).toBe(expected.length);
  // bars to scale: the longest measured stage fills most of its track
  const widths = await rows
    .locator('.stage-bar')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width / e.parentElement!.getBoundingClientRect().width));
  expect(Math.max(...widths)).toBeGreaterThan(0.35);
  await expect(timeline.locator('.stage-axis')).toContainText('ms');
  await expect(timeline.locator('[data-key=timeline-total]')).toHaveText(
    /^Total \d+(\.\d+)? ms: moving data \d+(\.\d+)? ms, computing \d+(\.\d+)? ms, waiting /,
  );
  const legend = timeline.getByRole('list', { name: 'Legend' });
  await expect(legend).toContainText('moving data: disk read, transfer to renderer, GPU upload');
  await expect(legend).toContainText('computing: decompress, unpack, GPU MIP build, GPU tone-map');

  // rates in the unit that reads: the bytes each moving stage carried and how fast
  const transferRate = (await timeline.locator('[data-key=rate-transfer]').textContent())!;
  expect(transferRate).toMatch(/^\d+\.\d+ MB at /);
  expect(rateInMBps(transferRate)).toBeGreaterThan(0);
  rateInMBps((await diag.locator('[data-key=transfer]').textContent())!);
  await expect(diag.locator('[data-key=last-upload]')).toContainText('/s');
  rateInMBps((await diag.locator('[data-key=last-upload]').textContent())!);
  await expect(diag.locator('[data-key=upload]')).toContainText('/s');
  rateInMBps((await diag.locator('[data-key=upload]').textContent())!);
  // bytes moved at a rate that reads as nothing is the rounding this panel must not do
  expect(await diag.evaluate((el) => (el as HTMLElement).innerText)).not.toMatch(/(^|[^\d.])0 (MB|GB)\/s/);

  // the over-time chart has a legend and its axis units
  const frames = diag.locator('.frame-chart');
  await expect(frames.getByRole('list', { name: 'Legend' })).toHaveText(/CPU encode.*tone-map on the GPU/);
  await expect(frames.locator('.axis-note')).toContainText('in ms');

  // the adapter's features are there for a bug report, folded away; the visible text narrates no benchmark
  const adapter = diag.locator('details.adapter-details');
  await expect(adapter).not.toHaveAttribute('open');
  await expect(adapter.locator('summary')).toContainText('Adapter: ');
  await expect(adapter.locator('[data-key=features]')).toBeHidden();
  const visibleText = await diag.evaluate((el) => (el as HTMLElement).innerText);
  expect(visibleText).not.toMatch(/H100|\d ms vs \d/);
  expect(visibleText.indexOf('Last load')).toBeLessThan(visibleText.indexOf('Adapter'));

  // Statistics stays in view beside the panel, not under it
  const stats = page.getByRole('region', { name: 'Statistics' });
  await expect(stats).toBeVisible();
  const [d, s] = [await boxOf(diag), await boxOf(stats)];
  const overlapX = Math.min(d.x + d.width, s.x + s.width) - Math.max(d.x, s.x);
  const overlapY = Math.min(d.y + d.height, s.y + s.height) - Math.max(d.y, s.y);
  expect(overlapX <= 0 || overlapY <= 0, `Diagnostics ${JSON.stringify(d)} over Statistics ${JSON.stringify(s)}`).toBe(true);
  const hit = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x!, y!)?.closest('[role=region]')?.getAttribute('aria-label') ?? null,
    [s.x + s.width / 2, s.y + 10],
  );
  expect(hit).toBe('Statistics');

  await page.waitForTimeout(300);
  await diag.screenshot({ path: test.info().outputPath('diagnostics-panel.png') });
  await page.screenshot({ path: test.info().outputPath('diagnostics-window.png') });

  // another layer is another load: the timeline is replaced and names it
  await page.getByRole('combobox', { name: 'Layer' }).selectOption('diffuse');
  await settle(page);
  await expect(diag.locator('[data-key=timeline-subject]')).toHaveText('beauty.exr · layer diffuse');

  // another image: the figures are its own
  await grid.getByRole('option', { name: 'grey.exr' }).click();
  await settle(page);
  await expect(diag.locator('[data-key=timeline-subject]')).toHaveText(/^grey\.exr · layer /);
  await expect(diag.getByRole('figure', { name: /^Last load of grey\.exr/ }).locator('[data-key=stage-decompress]')).toHaveText(/ ms$/);

  // opened, the adapter details list the device's features
  await adapter.locator('summary').click();
  await expect(adapter.locator('[data-key=features]')).toBeVisible();
  await expect(adapter.locator('[data-key=tonemap-path]')).toContainText(/^(compute|render pass): /);
});

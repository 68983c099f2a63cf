// Export and deep parts end to end in browser mode: multi-select two images, export PNGs as downloads through the view
// (brighter after raising exposure, checked with sharp), and a deep file's sample-count view and inspector.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Download, type Page } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

const W = 64,
  H = 48;
/** Samples per pixel of the deep fixture. */
const deepCount = (x: number, y: number): number => (x + y) % 5;

const plane = (f: (x: number, y: number) => number): Float32Array => floatPlane(W, H, f);

let server: Served | null = null;
let url = '';
let downloadsDir = '';

test.beforeAll(async () => {
  buildProject();
  // dynamic imports: the lint rule's 'electron/*' pattern (meant for the electron package) also matches these paths
  const { writeExrFile } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-export-e2e-'));
  downloadsDir = mkdtempSync(join(tmpdir(), 'exrview-export-dl-'));
  const box = { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 };
  writeExrFile(join(dir, 'ramp.exr'), [
    {
      dataWindow: box,
      compression: 'zip',
      channels: ['R', 'G', 'B'].map((name, c) => ({
        name,
        pixelType: 'float' as const,
        data: plane((x, y) => (0.02 + (0.1 * x) / W + (0.02 * y) / H) * (1 - 0.2 * c)),
      })),
    },
  ]);
  writeExrFile(join(dir, 'flat.exr'), [
    {
      dataWindow: box,
      compression: 'none',
      channels: ['R', 'G', 'B'].map((name) => ({ name, pixelType: 'float' as const, data: plane(() => 0.05) })),
    },
  ]);
  // deep scanline: deepCount(x, y) samples per pixel, each half-transparent grey at increasing depth
  const counts = new Uint32Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) counts[y * W + x] = deepCount(x, y);
  const total = counts.reduce((s, n) => s + n, 0);
  const { floatToHalf } = await import('../codec/core/half.js');
  const fill = (v: number) => new Uint16Array(total).fill(floatToHalf(v));
  const z = new Float32Array(total).map((_, i) => 1 + i);
  writeExrFile(join(dir, 'deep.exr'), [
    {
      dataWindow: box,
      compression: 'zips',
      deepSampleCounts: counts,
      channels: [
        { name: 'R', pixelType: 'half', data: fill(0.25) },
        { name: 'G', pixelType: 'half', data: fill(0.25) },
        { name: 'B', pixelType: 'half', data: fill(0.25) },
        { name: 'A', pixelType: 'half', data: fill(0.5) },
        { name: 'Z', pixelType: 'float', data: z },
      ],
    },
  ]);
  server = await serveFolder(dir);
  url = server.url;
});
test.afterAll(() => {
  server?.stop();
});

async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[role=status]')?.textContent?.includes('loading'));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Presses the export panel's Export button and collects `count` downloads: name → decoded PNG facts. */
async function exportDownloads(
  page: Page,
  count: number,
  tag: string,
): Promise<Map<string, { width: number; height: number; mean: number }>> {
  const downloads: Download[] = [];
  const got = new Promise<void>((resolve) => {
    const on = (d: Download): void => {
      downloads.push(d);
      if (downloads.length === count) {
        page.off('download', on);
        resolve();
      }
    };
    page.on('download', on);
  });
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  await got;
  await expect(dialog.getByRole('status', { name: 'Export summary' })).toHaveText(`Exported ${count} of ${count}: ${count} downloaded.`);
  const out = new Map<string, { width: number; height: number; mean: number }>();
  for (const d of downloads) {
    const path = join(downloadsDir, `${tag}-${d.suggestedFilename()}`);
    await d.saveAs(path);
    const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
    let sum = 0;
    for (let i = 0; i < data.length; i += info.channels) sum += data[i]! + data[i + 1]! + data[i + 2]!;
    out.set(d.suggestedFilename(), { width: info.width, height: info.height, mean: sum / (data.length / info.channels) });
  }
  return out;
}

test('select two images, export PNG downloads through the view; raising exposure brightens them', async ({ page }) => {
  await page.goto(url);
  const grid = page.getByRole('listbox', { name: 'Images' });
  await expect(grid).toHaveAttribute('aria-multiselectable', 'true');
  await expect(grid.getByRole('option')).toHaveCount(3);

  await grid.getByRole('option', { name: 'flat.exr' }).click();
  await grid.getByRole('option', { name: 'ramp.exr' }).click({ modifiers: ['ControlOrMeta'] });
  await expect(grid.getByRole('option', { selected: true })).toHaveCount(2);
  await expect(grid.getByRole('option', { name: 'deep.exr' })).toHaveAttribute('aria-selected', 'false');
  await settle(page);

  await page.getByRole('button', { name: 'Export…', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await expect(dialog.getByRole('heading')).toHaveText('Export 2 images');
  await expect(dialog).toContainText('+0.0 EV, srgb');
  const before = await exportDownloads(page, 2, 'before');
  expect([...before.keys()].sort()).toEqual(['flat.png', 'ramp.png']);
  for (const png of before.values()) expect([png.width, png.height]).toEqual([W, H]);
  await expect(dialog.getByRole('list', { name: 'Export results' }).getByRole('listitem')).toHaveCount(2);

  const exposure = page.getByRole('slider', { name: 'Exposure' });
  await exposure.focus();
  // the arrows step a third of a stop: six of them are +2 EV
  for (let i = 0; i < 6; i++) await exposure.press('ArrowRight');
  await expect(exposure).toHaveValue('2');
  await expect(dialog).toContainText('+2.0 EV, srgb');
  const after = await exportDownloads(page, 2, 'after');
  for (const name of ['flat.png', 'ramp.png']) {
    const b = before.get(name)!.mean,
      a = after.get(name)!.mean;
    expect(a, `${name}: mean R+G+B before ${b}, after +2 EV ${a}`).toBeGreaterThan(b * 1.3);
  }

  // Shift-click extends from the anchor to a range; the heading follows the selection
  await grid.getByRole('option', { name: 'deep.exr' }).click();
  await grid.getByRole('option', { name: 'ramp.exr' }).click({ modifiers: ['Shift'] });
  await expect(grid.getByRole('option', { selected: true })).toHaveCount(3);
  await expect(dialog.getByRole('heading')).toHaveText('Export 3 images');

  // keyboard on the focused listbox (its keys, not the global next/previous): Home selects the first alone, Shift+→ extends
  await grid.focus();
  await grid.press('Home');
  await expect(grid.getByRole('option', { selected: true })).toHaveCount(1);
  await expect(grid.getByRole('option', { name: 'deep.exr' })).toHaveAttribute('aria-selected', 'true');
  await grid.press('Shift+ArrowRight');
  await expect(grid.getByRole('option', { selected: true })).toHaveCount(2);
  await expect(dialog.getByRole('heading')).toHaveText('Export 2 images');
});

test('a deep part: flattened preview, the samples view scaled to the max count, and the count in the inspector', async ({ page }) => {
  await page.goto(url);
  const grid = page.getByRole('listbox', { name: 'Images' });
  await grid.getByRole('option', { name: 'deep.exr' }).click();
  await settle(page);
  const channel = page.getByRole('combobox', { name: 'Channel' });
  await channel.selectOption('samples');
  await settle(page);
  await expect(page.getByLabel('Sample count scale')).toHaveText('samples: black 0 … white 4');

  const preview = page.getByRole('img', { name: 'Preview' });
  const box = (await preview.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const readout = page.locator('output[aria-label="Pixel value"]');
  await expect(readout).toContainText('samples=');
  const text = (await readout.textContent())!;
  const m = /^(\d+), (\d+)\s.*\bA=(\S+).*samples=(\d+)$/.exec(text);
  expect(m, `readout "${text}"`).not.toBeNull();
  const [x, y, alpha, n] = [Number(m![1]), Number(m![2]), Number(m![3]), Number(m![4])];
  expect(n).toBe(deepCount(x, y));
  // flattened: n samples of alpha 0.5 composited over each other
  expect(alpha).toBeCloseTo(1 - 0.5 ** n, 3);

  // the samples view draws the counts: brighter where there are more (a 4-sample pixel is white, a 0-sample one black)
  const shot = await preview.screenshot();
  const { data, info } = await sharp(shot).raw().toBuffer({ resolveWithObject: true });
  let max = 0;
  for (let i = 0; i < data.length; i += info.channels) max = Math.max(max, data[i]!);
  expect(max).toBeGreaterThan(240);
});

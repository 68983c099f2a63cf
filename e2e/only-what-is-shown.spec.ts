// From click to pixels in browser mode: a render with many layers is decoded once on the host, and only the shown
// layer's planes are transferred and uploaded; switching layers fetches from the host's RAM cache, not a decode.
import { buildProject, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const W = 320,
  H = 180;
const LAYERS = ['diffuse', 'specular', 'normal'];

let server: Served | null = null;

test.beforeAll(async () => {
  buildProject();
  // a dynamic import: the lint rule's 'electron/*' pattern (meant for the electron package) also matches this path
  const { writeExrFile } = await import('../codec/writer.js');
  const { floatToHalf } = await import('../codec/core/half.js');
  const plane = (f: (x: number, y: number) => number) => {
    const data = new Uint16Array(W * H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) data[y * W + x] = floatToHalf(f(x, y));
    return data;
  };
  const dir = mkdtempSync(join(tmpdir(), 'exrview-e2e-layers-'));
  const rgb = (prefix: string, k: number) =>
    ['R', 'G', 'B'].map((c, i) => ({
      name: `${prefix}${c}`,
      pixelType: 'half' as const,
      data: plane((x, y) => (((x + y * i) % 97) / 97) * k),
    }));
  writeExrFile(join(dir, 'render.exr'), [
    {
      dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 },
      compression: 'zip',
      channels: [
        ...rgb('', 1),
        { name: 'A', pixelType: 'half', data: plane(() => 1) },
        ...LAYERS.flatMap((l, i) => rgb(`${l}.`, i + 2)),
        { name: 'Z', pixelType: 'half', data: plane((x) => x) },
      ],
    },
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

test('one decode, and per-layer transfers and uploads of the shown planes only', async ({ page }) => {
  await page.goto(server!.url);
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'render.exr' }).click();
  await settle(page);
  await page.getByRole('button', { name: 'Diagnostics' }).click();
  const diag = page.getByRole('region', { name: 'Diagnostics' });
  const planes = diag.locator('[data-key=planes-uploaded]');
  const decodes = diag.locator('[data-key=host-decodes]');
  const transfer = diag.locator('[data-key=transfer]');
  // RGBA of 14 channels: 4 planes of 320x180 half went over the wire and to the GPU
  await expect(planes).toHaveText('A, B, G, R');
  await expect(decodes).toHaveText('1 of this image, 0 layer fetches from the RAM cache');
  await expect(transfer).toContainText(`${((4 * W * H * 2) / 1e6).toFixed(2)} MB`);

  for (const [n, layer] of LAYERS.entries()) {
    await page.getByRole('combobox', { name: 'Layer' }).selectOption(layer);
    await settle(page);
    await expect(planes).toHaveText(`${layer}.B, ${layer}.G, ${layer}.R`);
    // the host answered from its RAM cache: no second decode
    await expect(decodes).toHaveText(`1 of this image, ${n + 1} layer fetches from the RAM cache`);
  }
  // back to RGBA: its layer is still on the GPU, nothing moves
  await page.getByRole('combobox', { name: 'Layer' }).selectOption('');
  await settle(page);
  await expect(planes).toHaveText('none (GPU cache)');
  const uploads = await diag.locator('[data-key=uploads]').textContent();
  expect(uploads).toMatch(/^13 planes /);
});

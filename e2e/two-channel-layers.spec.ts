// Two-channel layers (u,v; motion x,y) in browser mode: shown as red and green (B 0), measured as u and v (no phantom
// blue), read as u and v under the pointer, offered by name in the Channel menu; a single channel stays a grey ramp.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { toolbarControl } from './toolbar-menu.js';

const W = 256,
  H = 128;
const U = 0.25,
  V = 0.75,
  Z = 0.5;
let server: Served | null = null;

test.beforeAll(async () => {
  buildProject();
  const { writeExrFile } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-uv-'));
  const plane = (name: string, value: number) => ({ name, pixelType: 'float' as const, data: floatPlane(W, H, () => value) });
  writeExrFile(join(dir, 'motion_uv.exr'), [
    {
      dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 },
      compression: 'zip',
      channels: [plane('R', 0.1), plane('G', 0.1), plane('B', 0.1), plane('uv.u', U), plane('uv.v', V), plane('depth.Z', Z)],
    },
  ]);
  server = await serveFolder(dir);
});
test.afterAll(() => {
  server?.stop();
});

type Store = { getState(): { image: { currentFileId: string | null; loading: boolean; layer: string } } };

/** The mean 8-bit RGB of the middle of the preview canvas (a screenshot: what the person sees). */
async function middleRgb(page: Page): Promise<number[]> {
  const png = await page.locator('.preview-canvas').screenshot();
  const img = sharp(png);
  const m = await img.metadata();
  const { data, info } = await img
    .extract({ left: Math.round(m.width! / 2) - 8, top: Math.round(m.height! / 2) - 8, width: 16, height: 16 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sum = [0, 0, 0];
  for (let i = 0; i < data.length; i += info.channels) for (let c = 0; c < 3; c++) sum[c]! += data[i + c]!;
  return sum.map((v) => v / (data.length / info.channels));
}

const mean = (page: Page, channel: string) => page.locator(`.statistics tr[data-channel="${channel}"] td[data-key="mean"]`).textContent();

for (const path of ['gpu', 'cpu'] as const)
  test(`${path}: a u,v layer shows as red and green, measures and reads as u and v; a single channel is grey`, async ({ page }) => {
    // the CPU path is what a machine without WebGPU gets: the same mapping, drawn and measured on the CPU
    if (path === 'cpu') await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined }));
    test.setTimeout(240_000);
    await uvLayer(page, path);
  });

async function uvLayer(page: Page, path: 'gpu' | 'cpu'): Promise<void> {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(server!.url);
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'motion_uv.exr' }).click();
  await page.waitForFunction(() => {
    const s = (window as unknown as { exrviewApp: { store: Store } }).exrviewApp.store.getState();
    return s.image.currentFileId !== null && !s.image.loading;
  });
  await expect(page.locator('.status')).toContainText(path === 'gpu' ? 'GPU' : 'CPU');
  // linear: the 8-bit value on screen is the channel's value, so 0.25 and 0.75 are read back as such
  await (await toolbarControl(page, page.getByRole('combobox', { name: 'Display transform' }))).selectOption('linear');
  await page.getByRole('combobox', { name: 'Layer' }).selectOption('uv');

  // the Channel menu names the layer's own two channels, as display modes and as channels
  const channel = page.getByRole('combobox', { name: 'Channel' });
  await expect(channel.locator('option[value="rgb"]')).toHaveText('u red, v green');
  await expect(channel.locator('option[value="b"]')).toHaveCount(0);
  await expect(channel.locator('option[value="channel:uv.u"]')).toHaveText('uv.u');
  await expect(channel.locator('option[value="channel:uv.v"]')).toHaveText('uv.v');

  // Statistics: u and v, each with its mean, and no blue that the file does not hold
  await expect.poll(() => mean(page, 'uv.u'), { timeout: 60_000 }).toBe(String(U));
  expect(await mean(page, 'uv.v')).toBe(String(V));
  await expect(page.locator('.statistics tbody tr')).toHaveCount(2);

  // on screen: R = u, G = v, B = 0
  await expect
    .poll(async () => {
      const [r, g, b] = await middleRgb(page);
      return Math.abs(r! - U * 255) < 6 && Math.abs(g! - V * 255) < 6 && b! < 6;
    })
    .toBe(true);
  const [r, g, b] = await middleRgb(page);
  console.log(
    `${path}: u,v layer on screen: R ${r!.toFixed(1)}, G ${g!.toFixed(1)}, B ${b!.toFixed(1)} (expected ${U * 255}, ${V * 255}, 0)`,
  );

  // the histogram draws u and v, the readout reads u and v under the pointer
  if (!(await page.locator('.histogram').isVisible())) await page.keyboard.press('Shift+H');
  await expect(page.locator('.histogram')).toHaveAttribute('aria-label', /: u and v over log2 value/);
  const box = (await page.locator('.preview-canvas').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.locator('.readout')).toContainText(`uv.u=${U.toFixed(5)} uv.v=${V.toFixed(5)}`);
  await page.screenshot({ path: test.info().outputPath('uv-layer.png') });

  // one channel of it alone, and a single-channel layer: a grey ramp, one row of figures
  await channel.selectOption('channel:uv.v');
  await expect.poll(async () => (await middleRgb(page)).every((c) => Math.abs(c - V * 255) < 6)).toBe(true);
  await page.getByRole('combobox', { name: 'Layer' }).selectOption('depth');
  await expect.poll(async () => (await middleRgb(page)).every((c) => Math.abs(c - Z * 255) < 6)).toBe(true);
  await expect.poll(() => mean(page, 'depth.Z'), { timeout: 60_000 }).toBe(String(Z));
  await expect(page.locator('.statistics tbody tr')).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath('single-channel-layer.png') });
}

// HTJ2K in the viewer: files rewritten by OpenEXR 3.4's exr_recompress show their thumbnails and
// preview like the same image in ZIP (half through OpenJPH's WebAssembly, float through TypeScript).
import { buildProject, floatPlane, root, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Locator, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

const recompress = join(root, '..', 'shared', 'tools', 'openexr-3.4', 'exr_recompress');
const noTool = existsSync(recompress) ? null : `${recompress} is absent (../shared is not beside the repository)`;
const W = 160,
  H = 96;

let server: Served | null = null;
let url = '';

test.beforeAll(async () => {
  if (noTool) return;
  buildProject();
  const { writeExrFile } = await import('../codec/writer.js');
  const { floatToHalf } = await import('../codec/core/half.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-e2e-htj2k-'));
  const box = { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 };
  // a warm diagonal ramp with a dark disc: structure a broken decode would not reproduce
  const value = (x: number, y: number, c: number) => {
    const disc = (x - 100) ** 2 + (y - 48) ** 2 < 30 ** 2 ? 0.1 : 1;
    return disc * ((x + y) / (W + H)) * [1.6, 0.9, 0.4][c]!;
  };
  const channels = (type: 'half' | 'float') =>
    ['R', 'G', 'B'].map((name, c) => {
      const plane = floatPlane(W, H, (x, y) => value(x, y, c));
      return type === 'half'
        ? { name, pixelType: 'half' as const, data: Uint16Array.from(plane, (v) => floatToHalf(v)) }
        : { name, pixelType: 'float' as const, data: plane };
    });
  writeExrFile(join(dir, 'a-zip.exr'), [{ dataWindow: box, compression: 'zip', channels: channels('half') }]);
  writeExrFile(join(dir, 'float-source.tmp'), [{ dataWindow: box, compression: 'zip', channels: channels('float') }]);
  execFileSync(recompress, [join(dir, 'a-zip.exr'), join(dir, 'b-half-htj2k256.exr'), 'htj2k256']);
  execFileSync(recompress, [join(dir, 'float-source.tmp'), join(dir, 'c-float-htj2k32.exr'), 'htj2k32']);
  server = await serveFolder(dir);
  url = server.url;
});
test.afterAll(() => {
  server?.stop();
});

/** Mean R, G, B (0..255) of what is on screen in an element. */
async function meanColour(el: Locator, savePath?: string): Promise<number[]> {
  const png = await el.screenshot(savePath ? { path: savePath } : {});
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const sum = [0, 0, 0];
  for (let i = 0; i < data.length; i += info.channels) for (let c = 0; c < 3; c++) sum[c]! += data[i + c]!;
  return sum.map((s) => s / (data.length / info.channels));
}

async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[role=status]')?.textContent?.includes('loading'));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

const close = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 2 + 0.03 * b[i]!);

test(`HTJ2K files show their thumbnails and preview${noTool ? ` (skipped: ${noTool})` : ''}`, async ({ page }, testInfo) => {
  test.skip(noTool !== null, noTool ?? '');
  await page.goto(url);
  const grid = page.getByRole('listbox', { name: 'Images' });
  await expect(grid.getByRole('option')).toHaveCount(3);
  await page.waitForFunction(
    () => (window as unknown as { exrviewApp: { controller: { thumbsShown: number } } }).exrviewApp.controller.thumbsShown >= 3,
  );
  await settle(page);
  const zipCell = await meanColour(grid.getByRole('option', { name: 'a-zip.exr' }));
  const halfCell = await meanColour(
    grid.getByRole('option', { name: 'b-half-htj2k256.exr' }),
    testInfo.outputPath('thumb-half-htj2k256.png'),
  );
  const floatCell = await meanColour(grid.getByRole('option', { name: 'c-float-htj2k32.exr' }));
  // the warm ramp is there (red above blue), and the HTJ2K thumbnails are the ZIP one
  expect(zipCell[0]!).toBeGreaterThan(zipCell[2]! + 20);
  expect(close(halfCell, zipCell), `thumbnails: zip ${zipCell}, half htj2k ${halfCell}`).toBe(true);
  expect(close(floatCell, zipCell), `thumbnails: zip ${zipCell}, float htj2k ${floatCell}`).toBe(true);

  const preview = page.getByRole('img', { name: 'Preview' });
  const previews: Record<string, number[]> = {};
  for (const name of ['a-zip.exr', 'b-half-htj2k256.exr', 'c-float-htj2k32.exr']) {
    await grid.getByRole('option', { name }).click();
    await settle(page);
    await page.waitForTimeout(300);
    await settle(page);
    previews[name] = await meanColour(preview, testInfo.outputPath(`preview-${name}.png`));
  }
  expect(previews['a-zip.exr']![0]!).toBeGreaterThan(previews['a-zip.exr']![2]! + 10);
  expect(close(previews['b-half-htj2k256.exr']!, previews['a-zip.exr']!), JSON.stringify(previews)).toBe(true);
  expect(close(previews['c-float-htj2k32.exr']!, previews['a-zip.exr']!), JSON.stringify(previews)).toBe(true);
});

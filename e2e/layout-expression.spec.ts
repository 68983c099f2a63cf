// The expression bar in narrow and wide windows (browser mode): it sits over the preview's column only, never over the
// Statistics panel, the grid or the toolbar, with its error shown; the Statistics of the layer it makes name the
// expression. Screenshots of each width go with the run.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Locator, type Page } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const W = 64,
  H = 48;
let server: Served | null = null;

test.beforeAll(async () => {
  buildProject();
  const { writeExrFile } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-layout-expr-'));
  const names = ['R', 'G', 'B', 'diffuse.R', 'diffuse.G', 'diffuse.B', 'specular.R', 'specular.G', 'specular.B'];
  const channels = names.map((name, c) => ({
    name,
    pixelType: 'float' as const,
    data: floatPlane(W, H, (x, y) => ((x + y * (c + 1)) / W) * (0.2 + (c % 3) * 0.3)),
  }));
  writeExrFile(join(dir, 'aovs.exr'), [{ dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 }, compression: 'zip', channels }]);
  server = await serveFolder(dir);
});
test.afterAll(() => {
  server?.stop();
});

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
const boxOf = async (l: Locator): Promise<Box> => (await l.boundingBox())!;

async function expectClear(page: Page, what: string): Promise<void> {
  const bar = await boxOf(page.getByRole('group', { name: 'Channel expression' }));
  const stats = await boxOf(page.getByRole('region', { name: 'Statistics' }));
  const inspector = await boxOf(page.getByRole('complementary', { name: 'Inspector' }));
  const preview = await boxOf(page.getByRole('region', { name: 'Preview area' }));
  const toolbar = await boxOf(page.locator('.toolbar-row'));
  const pickers = await boxOf(page.locator('.preview-bar'));
  expect(overlap(bar, stats), `${what}: the expression bar covers the Statistics panel`).toBe(false);
  expect(overlap(bar, inspector), `${what}: the expression bar covers the inspector`).toBe(false);
  expect(overlap(bar, toolbar), `${what}: the expression bar covers the toolbar`).toBe(false);
  expect(overlap(bar, pickers), `${what}: the expression bar covers the layer and channel pickers`).toBe(false);
  const grid = page.locator('.grid-panel');
  if (await grid.isVisible()) expect(overlap(bar, await boxOf(grid)), `${what}: the expression bar covers the grid`).toBe(false);
  // inside the preview's column, wholly
  expect(bar.x).toBeGreaterThanOrEqual(preview.x);
  expect(bar.x + bar.width).toBeLessThanOrEqual(preview.x + preview.width + 0.5);
  // the field stays wide enough to type in
  expect((await boxOf(page.getByRole('textbox', { name: 'Expression' }))).width).toBeGreaterThan(150);
}

for (const size of [
  { width: 1000, height: 700 },
  { width: 1600, height: 1000 },
]) {
  test(`${size.width}×${size.height}: the expression bar covers neither Statistics nor the grid; Statistics name it`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(size);
    await page.goto(server!.url);
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'aovs.exr' }).click();
    await expect(page.getByRole('region', { name: 'Statistics' })).toContainText('whole image');
    await page.locator('.preview-canvas').click();
    await page.keyboard.press('F2');
    const field = page.getByRole('textbox', { name: 'Expression' });
    await expect(field).toBeFocused();
    // an error: the bar is at its tallest, with the message under the field
    await field.fill('diffuse + specullar * 2 - luminance(R)');
    await expect(page.locator('.expression-error')).toContainText('did you mean specular?');
    await expectClear(page, 'with an error');
    await page.screenshot({ path: test.info().outputPath(`expression-bar-error-${size.width}.png`) });

    await field.fill('(diffuse + specular) / 2');
    await field.press('Enter');
    const statistics = page.getByRole('region', { name: 'Statistics' });
    await expect(statistics).toContainText('expr: (diffuse + specular) / 2', { timeout: 60_000 });
    await expect(statistics.locator('tr[data-channel="R"] td[data-key="min"]')).not.toBeEmpty();
    await expectClear(page, 'showing the expression');
    // closed and opened again: placed again over the preview
    await page.keyboard.press('Escape');
    await page.keyboard.press('F2');
    await expectClear(page, 'opened again');
    await page.screenshot({ path: test.info().outputPath(`expression-bar-${size.width}.png`) });
  });
}

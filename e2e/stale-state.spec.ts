// What is on screen is what is named (browser mode): after a change of image, layer, compare mode or folder, and after
// a wholly unreadable file picked after a good one, no panel shows the last subject's figures as the new one's (each
// names its subject or says computing…), and the preview never keeps the last image under a failure or a new folder.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolbarControl } from './toolbar-menu.js';

let server: Served | null = null;

test.beforeAll(async () => {
  buildProject();
  const { writeExrFile } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-stale-'));
  const image = (path: string, widthPx: number, heightPx: number, f: (x: number, c: number) => number) =>
    writeExrFile(path, [
      {
        dataWindow: { xMin: 0, yMin: 0, xMax: widthPx - 1, yMax: heightPx - 1 },
        compression: 'zip',
        channels: ['R', 'G', 'B', 'diffuse.R', 'diffuse.G', 'diffuse.B'].map((name, c) => ({
          name,
          pixelType: 'float' as const,
          data: floatPlane(widthPx, heightPx, (x) => f(x, c)),
        })),
      },
    ]);
  // the reference: 0.5 everywhere; A: 1.5 in the left half (absolute error 1, relative squared error 1 / (0.25 + 0.01))
  image(join(dir, 'a_plate.exr'), 32, 24, (_x, c) => (c < 3 ? 0.5 : 0.25));
  image(join(dir, 'b_shot.exr'), 32, 24, (x, c) => (c < 3 ? (x < 16 ? 1.5 : 0.5) : 0.125));
  writeFileSync(join(dir, 'c_bad.exr'), Buffer.from('not an OpenEXR file, only text under the name of one\n'.repeat(8)));
  mkdirSync(join(dir, 'other'));
  image(join(dir, 'other', 'd_other.exr'), 16, 16, () => 0.3);
  server = await serveFolder(dir);
});
test.afterAll(() => {
  server?.stop();
});

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
  await test.info().attach(name, { path: test.info().outputPath(`${name}.png`), contentType: 'image/png' });
}

/** The file the engine draws now (null: no image), as opposed to the one the store names. */
const drawn = (page: Page): Promise<string | null> =>
  page.evaluate(() => {
    type App = {
      controller: { engine: { shownFileId?(): string | null } | null };
      store: { getState(): { library: { files: { id: string; name: string }[] } } };
    };
    const app = (window as unknown as { exrviewApp: App }).exrviewApp;
    const id = app.controller.engine?.shownFileId?.() ?? null;
    return id === null ? null : (app.store.getState().library.files.find((f) => f.id === id)?.name ?? id);
  });

test('panels name their subject or say computing… on each change; a failure or a new folder clears the preview', async ({ page }) => {
  await page.goto(server!.url);
  const grid = page.getByRole('listbox', { name: 'Images' });
  const stats = page.getByRole('region', { name: 'Statistics' });
  const said = async (): Promise<string> => (await stats.textContent()) ?? '';

  await grid.getByRole('option', { name: 'a_plate.exr' }).click();
  await expect(stats).toContainText('A: a_plate.exr · (base)');
  await expect.poll(() => drawn(page)).toBe('a_plate.exr');

  // another image: at once, never a_plate's figures under b_shot (read once, without waiting)
  await grid.getByRole('option', { name: 'b_shot.exr' }).click();
  expect(await said()).not.toContain('a_plate.exr');
  await expect(stats).toContainText('A: b_shot.exr · (base)');
  await expect(stats.locator('tr[data-channel=R] [data-key=max]')).toHaveText('1.5');

  // another layer: the base layer's figures go
  await page.getByRole('combobox', { name: 'Layer' }).selectOption('diffuse');
  expect(await said()).not.toContain('(base)');
  await expect(stats).toContainText('A: b_shot.exr · diffuse');
  await expect(stats.locator('tr[data-channel="diffuse.R"] [data-key=max]')).toHaveText('0.125');
  await page.getByRole('combobox', { name: 'Layer' }).selectOption('');
  await expect(stats).toContainText('A: b_shot.exr · (base)');

  // a_plate as the reference, b_shot on screen: absolute error, then relative squared error
  await grid.getByRole('option', { name: 'a_plate.exr' }).click();
  await expect.poll(() => drawn(page)).toBe('a_plate.exr');
  await (await toolbarControl(page, page.getByRole('button', { name: /Set as reference/ }))).click();
  await grid.getByRole('option', { name: 'b_shot.exr' }).click();
  const mode = page.getByRole('combobox', { name: 'Compare mode' });
  await (await toolbarControl(page, mode)).selectOption({ label: 'Absolute error' });
  await expect(stats).toContainText('Absolute error (A − B)');
  await expect(stats.locator('tr[data-channel=R] [data-key=max]')).toHaveText('1');
  await (await toolbarControl(page, mode)).selectOption({ label: 'Relative squared error' });
  const now = await said();
  expect(now, 'absolute-error figures under relative squared error').not.toContain('Absolute error');
  expect(now).toMatch(/Relative squared error \(A − B\)|computing…/);
  await expect(stats).toContainText('Relative squared error (A − B)');
  // (A − B)² / (B² + 0.01) = 1 / 0.26
  await expect.poll(async () => Number(await stats.locator('tr[data-channel=R] [data-key=max]').textContent())).toBeCloseTo(1 / 0.26, 3);
  await shot(page, 'relative-squared-error');

  // a wholly unreadable file after a good one: its failure alone, no image under it, no figures
  await grid.getByRole('option', { name: 'c_bad.exr' }).click();
  await expect(page.getByRole('alert', { name: 'Cannot show this file' })).toContainText('c_bad.exr');
  await expect.poll(() => drawn(page)).toBeNull();
  await expect(stats).toContainText('nothing to measure: c_bad.exr cannot be shown');
  await expect(stats).not.toContainText('whole image');
  await expect(page.getByRole('region', { name: 'Comparison' })).toContainText('nothing to compare: c_bad.exr cannot be shown');
  await expect(page.getByRole('img', { name: /^Histogram/ })).toHaveCount(0);
  await shot(page, 'unreadable-after-good');

  // a good file, then another folder: the preview is cleared and no panel keeps the last folder's figures
  await grid.getByRole('option', { name: 'b_shot.exr' }).click();
  await expect.poll(() => drawn(page)).toBe('b_shot.exr');
  const folder = page.locator('input[aria-label=Folder]');
  await folder.fill('other');
  await folder.press('Enter');
  await expect(grid.getByRole('option', { name: 'd_other.exr' })).toBeVisible();
  await expect.poll(() => drawn(page)).toBeNull();
  await expect(stats).toContainText('no image on screen');
  await expect(page.getByRole('region', { name: 'Comparison' })).toContainText('no image on screen to compare with B');
  await expect(page.locator('details.header-panel')).toHaveCount(0);
  await shot(page, 'folder-change');
});

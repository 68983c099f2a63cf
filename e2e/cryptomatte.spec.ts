// Cryptomatte in browser mode: a Cryptomatte layer chosen in the Layer menu shows coloured IDs, the pointer names the
// object under it, click and Shift-click pick, the panel's list picks too; the three matte modes; the matte exported as
// EXR and PNG downloads, byte for byte what `exrview matte` writes for the same names.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import sharp from 'sharp';
import { buildProject, root, serveFolder, type Served } from './serve-fixture.js';

let server: Served | null = null;
let dir = '';
let shapes: typeof import('../testing/cryptomatte/shapes.js').SHAPES;

test.beforeAll(async () => {
  buildProject();
  const fixture = await import('../testing/cryptomatte/shapes.js');
  dir = mkdtempSync(join(tmpdir(), 'exrview-cryptomatte-'));
  fixture.writeShapesFixture(dir);
  shapes = fixture.SHAPES;
  server = await serveFolder(dir);
});
test.afterAll(() => {
  server?.stop();
});

interface AppState {
  image: { currentFileId: string | null; loading: boolean };
  cryptomatte: { layer: string | null; picked: string[]; mode: string };
  view: { panZoom: { zoom: number; centerX: number; centerY: number } };
}
type Store = { getState(): AppState };

const state = (page: Page): Promise<AppState> =>
  page.evaluate(() => (window as unknown as { exrviewApp: { store: Store } }).exrviewApp.store.getState());

/** Where image pixel (x, y)'s centre is on the page (client px), from the view's pan and zoom. */
async function pagePoint(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  return page.evaluate(
    ([ix, iy]) => {
      const cv = document.querySelector<HTMLCanvasElement>('.preview-canvas')!;
      const r = cv.getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      const { zoom, centerX, centerY } = (window as unknown as { exrviewApp: { store: Store } }).exrviewApp.store.getState().view.panZoom;
      return {
        x: r.left + ((ix! + 0.5 - centerX) * zoom + cv.width / 2) / dpr,
        y: r.top + ((iy! + 0.5 - centerY) * zoom + cv.height / 2) / dpr,
      };
    },
    [x, y],
  );
}

/** The canvas's 8-bit RGB at image pixel (x, y), from a screenshot: what the person sees. */
async function rgbAt(page: Page, png: Buffer, x: number, y: number): Promise<number[]> {
  const p = await pagePoint(page, x, y);
  const box = (await page.locator('.preview-canvas').boundingBox())!;
  const { data, info } = await sharp(png)
    .extract({ left: Math.round(p.x - box.x), top: Math.round(p.y - box.y), width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [...data.subarray(0, Math.min(3, info.channels))];
}

/** Presses an export button and returns the downloaded file's bytes. */
async function download(page: Page, panel: ReturnType<Page['getByRole']>, button: string): Promise<Buffer> {
  const [d] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: button }).click()]);
  return readFileSync((await d.path())!);
}

function cliMatte(names: string, out: string): Buffer {
  const r = spawnSync(
    process.execPath,
    ['bin/exrview.mjs', 'matte', join(dir, 'shapes.exr'), '--layer', 'crypto_object', '--names', names, '--out', out],
    { cwd: root, encoding: 'utf8' },
  );
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(out);
}

test('hover names, click and Shift-click and the list pick, the matte exports as exrview matte writes it', async ({ page }, info) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(server!.url);
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'shapes.exr' }).click();
  await page.waitForFunction(() => {
    const s = (window as unknown as { exrviewApp: { store: Store } }).exrviewApp.store.getState();
    return s.image.currentFileId !== null && !s.image.loading;
  });
  await expect(page.locator('.status')).toContainText('GPU');

  // the Layer menu offers the Cryptomatte layer; choosing it opens the panel with the manifest's names
  const layerMenu = page.getByRole('combobox', { name: 'Layer' });
  await expect(layerMenu.locator('option[value="cryptomatte:crypto_object"]')).toHaveText('crypto_object (Cryptomatte)');
  await layerMenu.selectOption('cryptomatte:crypto_object');
  const panel = page.getByRole('complementary', { name: 'Cryptomatte' });
  const names = panel.getByRole('list', { name: 'Names' });
  await expect(names.getByRole('listitem')).toHaveCount(4);
  const canvas = page.locator('.preview-canvas');
  const idView = await canvas.screenshot();
  // coloured IDs: the bunny and the chair differ, neither is the grey beauty
  const bunnyRgb = await rgbAt(page, idView, shapes.bunny.cx, shapes.bunny.cy);
  const chairRgb = await rgbAt(page, idView, shapes.chair.x0 + 30, shapes.chair.y0 + 50);
  expect(bunnyRgb).not.toEqual(chairRgb);

  // hover names the object under the pointer
  const bunny = await pagePoint(page, shapes.bunny.cx, shapes.bunny.cy);
  await page.mouse.move(bunny.x, bunny.y);
  const tip = page.getByRole('tooltip', { name: 'Cryptomatte name under the pointer' });
  await expect(tip).toHaveText('crypto_object: bunny');
  await page.screenshot({ path: info.outputPath('cryptomatte-ids.png') });
  const chair = await pagePoint(page, shapes.chair.x0 + 30, shapes.chair.y0 + 50);
  await page.mouse.move(chair.x, chair.y);
  await expect(tip).toHaveText('crypto_object: chair "red"');

  // click picks the bunny alone, Shift-click adds the chair
  await page.mouse.click(bunny.x, bunny.y);
  await expect.poll(async () => (await state(page)).cryptomatte.picked).toEqual(['bunny']);
  // a rectangle for the Statistics first (Shift-drag over the floor): the Shift-click that adds a name keeps it
  const stats = page.getByRole('region', { name: 'Statistics' }).locator('[data-key=stats-region]');
  const [from, to] = [await pagePoint(page, 4, 180), await pagePoint(page, 40, 196)];
  await page.keyboard.down('Shift');
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
  await expect(stats).toContainText('rectangle 4,180 – 40,196');
  await expect.poll(async () => (await state(page)).cryptomatte.picked, 'a Shift-drag picks nothing').toEqual(['bunny']);
  await page.mouse.click(chair.x, chair.y);
  await page.keyboard.up('Shift');
  await expect.poll(async () => (await state(page)).cryptomatte.picked).toEqual(['bunny', 'chair "red"']);
  await expect(stats).toContainText('rectangle 4,180 – 40,196');
  await page.screenshot({ path: info.outputPath('cryptomatte-two-picks-rectangle.png') });
  await page.keyboard.press('Escape');
  await expect(stats).toContainText('whole image');
  await expect(names.getByRole('checkbox', { name: 'bunny' })).toBeChecked();
  await page.screenshot({ path: info.outputPath('cryptomatte-overlay.png') });

  // the list: filter and tick the café, untick the chair
  await panel.getByRole('searchbox', { name: 'Filter names' }).fill('café');
  await expect(names.getByRole('listitem')).toHaveCount(1);
  await names.getByRole('checkbox', { name: 'Zürich café' }).check();
  await panel.getByRole('searchbox', { name: 'Filter names' }).fill('');
  await names.getByRole('checkbox', { name: 'chair "red"' }).uncheck();
  await expect.poll(async () => (await state(page)).cryptomatte.picked).toEqual(['bunny', 'Zürich café']);

  // isolated: the beauty times the matte (the floor goes black); alpha: the matte as grey
  await panel.getByRole('radio', { name: 'Isolated' }).click();
  await expect.poll(async () => (await state(page)).cryptomatte.mode).toBe('isolate');
  await page.mouse.move(10, 10);
  await expect(tip).toBeHidden();
  const isolated = await canvas.screenshot();
  await page.screenshot({ path: info.outputPath('cryptomatte-isolated.png') });
  expect(await rgbAt(page, isolated, 5, 190)).toEqual([0, 0, 0]);
  expect(Math.max(...(await rgbAt(page, isolated, shapes.bunny.cx, shapes.bunny.cy)))).toBeGreaterThan(100);
  expect(await rgbAt(page, isolated, shapes.chair.x0 + 30, shapes.chair.y0 + 50)).toEqual([0, 0, 0]);
  await page.keyboard.press('K');
  await expect.poll(async () => (await state(page)).cryptomatte.mode).toBe('overlay');
  await panel.getByRole('radio', { name: 'Alpha' }).click();
  const alpha = await canvas.screenshot();
  expect(await rgbAt(page, alpha, shapes.cafe.cx, shapes.cafe.cy)).toEqual([255, 255, 255]);
  expect(await rgbAt(page, alpha, 5, 190)).toEqual([0, 0, 0]);

  // the exports are exrview matte's files for the same names, byte for byte
  const exr = await download(page, panel, 'Export EXR');
  const png = await download(page, panel, 'Export PNG');
  await expect(panel.getByRole('status')).toContainText('downloaded');
  const out = mkdtempSync(join(tmpdir(), 'exrview-cryptomatte-cli-'));
  expect(exr.equals(cliMatte('bunny,Zürich café', join(out, 'matte.exr')))).toBe(true);
  expect(png.equals(cliMatte('bunny,Zürich café', join(out, 'matte.png')))).toBe(true);
});

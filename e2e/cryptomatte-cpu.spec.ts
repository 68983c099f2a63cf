// Cryptomatte without WebGPU (browser mode, navigator.gpu taken away): the CPU path draws the coloured ID view with the
// CPU reference of the GPU's view pass, each object in its ID's colour, and the picked names isolated. Screenshots go
// with the run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import sharp from 'sharp';
import { idOfName } from '../shaders/cryptomatte/hash.js';
import { idColour32 } from '../shaders/cryptomatte/view-cpu.js';
import { srgbOetf } from '../shaders/tonemap-cpu.js';
import { buildProject, serveFolder, type Served } from './serve-fixture.js';

let server: Served | null = null;
let shapes: typeof import('../testing/cryptomatte/shapes.js').SHAPES;

test.beforeAll(async () => {
  buildProject();
  const fixture = await import('../testing/cryptomatte/shapes.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-cryptomatte-cpu-'));
  fixture.writeShapesFixture(dir);
  shapes = fixture.SHAPES;
  server = await serveFolder(dir);
});
test.afterAll(() => {
  server?.stop();
});

type Store = { getState(): { image: { currentFileId: string | null; loading: boolean }; cryptomatte: { picked: string[] } } };

/** The canvas's 8-bit RGB at image pixel (x, y) of a canvas screenshot, from the view's pan and zoom. */
async function rgbAt(page: Page, png: Buffer, x: number, y: number): Promise<number[]> {
  const p = await page.evaluate(
    ([ix, iy]) => {
      const cv = document.querySelector<HTMLCanvasElement>('.preview-canvas')!;
      const dpr = window.devicePixelRatio || 1;
      const { zoom, centerX, centerY } = (
        window as unknown as {
          exrviewApp: { store: { getState(): { view: { panZoom: { zoom: number; centerX: number; centerY: number } } } } };
        }
      ).exrviewApp.store.getState().view.panZoom;
      return { x: ((ix! + 0.5 - centerX) * zoom + cv.width / 2) / dpr, y: ((iy! + 0.5 - centerY) * zoom + cv.height / 2) / dpr };
    },
    [x, y],
  );
  const { data } = await sharp(png)
    .extract({ left: Math.round(p.x), top: Math.round(p.y), width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [...data.subarray(0, 3)];
}

/** An ID's colour as the sRGB display shows it (8-bit). */
const shown = (name: string): number[] => idColour32(idOfName(name)).map((v) => Math.round(srgbOetf(v) * 255));

test('the CPU path draws the coloured ID view and the isolated picks', async ({ page }, info) => {
  test.setTimeout(180_000);
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined, configurable: true }));
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(server!.url);
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'shapes.exr' }).click();
  await page.waitForFunction(() => {
    const s = (window as unknown as { exrviewApp: { store: Store } }).exrviewApp.store.getState();
    return s.image.currentFileId !== null && !s.image.loading;
  });
  await expect(page.locator('.status')).toContainText('CPU');
  const canvas = page.locator('.preview-canvas');
  const beauty = await canvas.screenshot();

  await page.getByRole('combobox', { name: 'Layer' }).selectOption('cryptomatte:crypto_object');
  const panel = page.getByRole('complementary', { name: 'Cryptomatte' });
  await expect(panel.getByRole('list', { name: 'Names' }).getByRole('listitem')).toHaveCount(4);
  await expect(panel.getByRole('note')).toContainText('Drawn on the CPU');
  // each object inside its outline in its ID's colour (coverage 1 there), as the GPU's view pass draws it
  const inside: [string, number, number][] = [
    ['bunny', shapes.bunny.cx, shapes.bunny.cy],
    ['chair "red"', shapes.chair.x0 + 30, shapes.chair.y0 + 50],
    ['Zürich café', shapes.cafe.cx, shapes.cafe.cy],
  ];
  const near = (a: number[], b: number[]) => a.every((v, k) => Math.abs(v - b[k]!) <= 2);
  await expect
    .poll(
      async () => {
        const ids = await canvas.screenshot();
        const got = await Promise.all(inside.map(([, x, y]) => rgbAt(page, ids, x, y)));
        return got.every((rgb, k) => near(rgb, shown(inside[k]![0])));
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  const ids = await canvas.screenshot();
  for (const [name, x, y] of inside) expect(await rgbAt(page, ids, x, y), name).not.toEqual(await rgbAt(page, beauty, x, y));
  await page.screenshot({ path: info.outputPath('cryptomatte-cpu-ids.png') });

  // two names picked and isolated: the beauty where they are, black elsewhere
  await panel.getByRole('checkbox', { name: 'bunny' }).check();
  await panel.getByRole('checkbox', { name: 'Zürich café' }).check();
  await panel.getByRole('radio', { name: 'Isolated' }).click();
  await expect
    .poll(async () => rgbAt(page, await canvas.screenshot(), shapes.chair.x0 + 30, shapes.chair.y0 + 50), { timeout: 60_000 })
    .toEqual([0, 0, 0]);
  const isolated = await canvas.screenshot();
  expect(await rgbAt(page, isolated, shapes.bunny.cx, shapes.bunny.cy)).toEqual(
    await rgbAt(page, beauty, shapes.bunny.cx, shapes.bunny.cy),
  );
  expect(await rgbAt(page, isolated, 5, 190)).toEqual([0, 0, 0]);
  await page.screenshot({ path: info.outputPath('cryptomatte-cpu-isolated.png') });
});

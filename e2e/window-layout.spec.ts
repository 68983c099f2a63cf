// The window as an artist meets it in browser mode, at 1280×800 and 1920×1080: the image gets most of the window (panels
// resizable, folded, hidden with Tab), the toolbar stays one row (a LUT loaded too), exposure by keys and typed value,
// the keyboard back on the window after a drag, a grouped channel menu, side by side fitted, the open folder named, the
// grid at the top of another folder, names cut in the middle. Screenshots of each size go with the run.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { formatCube, lutFromFunction } from '../shaders/lut-cube.js';
import sharp from 'sharp';
import { toolbarControl } from './toolbar-menu.js';

let server: Served | null = null;
let dir = '';

test.beforeAll(async () => {
  buildProject();
  const { writeExrFile } = await import('../codec/writer.js');
  dir = mkdtempSync(join(tmpdir(), 'exrview-window-'));
  const write = (path: string, W: number, H: number, k: number) =>
    writeExrFile(path, [
      {
        dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 },
        compression: 'zip',
        channels: ['R', 'G', 'B'].map((name, c) => ({
          name,
          pixelType: 'float' as const,
          data: floatPlane(W, H, (x, y) => ((x + y * k) / W) * (0.3 + c * 0.2)),
        })),
      },
    ]);
  // wide images (side by side must shrink them to fit a half), with names that differ only near their end
  // (no frame numbers at their end: numbered names would make them one sequence item)
  write(join(dir, 'shot_14_beauty_comp_plate_left.exr'), 400, 200, 1);
  write(join(dir, 'shot_14_beauty_comp_plate_mono.exr'), 400, 200, 2);
  write(join(dir, 'shot_14_beauty_comp_plate_right.exr'), 400, 200, 3);
  // a subfolder with enough images to scroll the grid
  mkdirSync(join(dir, 'many'));
  for (let i = 0; i < 40; i++)
    write(join(dir, 'many', `take_${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}.exr`), 16, 16, i);
  server = await serveFolder(dir);
});
test.afterAll(() => {
  server?.stop();
});

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
];
const FIRST = 'shot_14_beauty_comp_plate_left.exr';

async function shot(page: Page, name: string): Promise<void> {
  const path = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path });
  await test.info().attach(name, { path, contentType: 'image/png' });
}

type Store = {
  getState(): {
    image: { currentFileId: string | null; loading: boolean };
    view: { display: { exposureEv: number }; panZoom: { zoom: number; centerX: number; centerY: number } };
    inspect: { stats: unknown };
  };
};
const exposure = (page: Page): Promise<number> =>
  page.evaluate(() => (window as unknown as { exrviewApp: { store: Store } }).exrviewApp.store.getState().view.display.exposureEv);

async function openFirst(page: Page): Promise<void> {
  await page.goto(server!.url);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: FIRST }).click();
  await page.waitForFunction(() => {
    const s = (window as unknown as { exrviewApp: { store: Store } }).exrviewApp.store.getState();
    return s.image.currentFileId !== null && !s.image.loading;
  });
}

/** The preview canvas's width as a share of the window's. */
async function imageShare(page: Page): Promise<number> {
  return page.evaluate(
    () => document.querySelector<HTMLCanvasElement>('.preview-canvas')!.getBoundingClientRect().width / window.innerWidth,
  );
}

/** Every item the toolbar shows sits on one row, and the toolbar is one control high. */
async function expectOneRow(page: Page): Promise<void> {
  const boxes = await page.locator('.toolbar-row > .toolbar-item, .toolbar > .group').evaluateAll((els) =>
    els
      .map((e) => e.getBoundingClientRect())
      .filter((r) => r.height > 0)
      .map((r) => ({ top: r.top, bottom: r.bottom })),
  );
  // side by side: every item starts above where every other ends
  expect(Math.max(...boxes.map((b) => b.top)), JSON.stringify(boxes)).toBeLessThan(Math.min(...boxes.map((b) => b.bottom)));
  expect((await page.locator('.toolbar').boundingBox())!.height).toBeLessThan(40);
}

for (const size of SIZES) {
  test.describe(`${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('the image gets 55 % of the width with panels open, 70 % folded or hidden; sizes are remembered', async ({ page }) => {
      await openFirst(page);
      await expectOneRow(page);
      expect(await imageShare(page)).toBeGreaterThanOrEqual(0.55);
      // every statistics column in the inspector, nothing cut
      await expect(page.getByRole('region', { name: 'Statistics' })).toContainText('whole image');
      const table = page.getByRole('region', { name: 'Statistics' }).locator('table');
      await expect(table.locator('thead th')).toHaveCount(7);
      const inspector = (await page.getByRole('complementary', { name: 'Inspector' }).boundingBox())!;
      const inf = (await table.locator('thead th', { hasText: 'Inf' }).boundingBox())!;
      expect(inf.x + inf.width).toBeLessThanOrEqual(inspector.x + inspector.width);
      await shot(page, `panels-open-${size.width}`);

      // the grid wider by its edge: the preview narrows, and the width is there after a reload
      const edge = page.getByRole('separator', { name: 'Resize the grid' });
      const e = (await edge.boundingBox())!;
      await page.mouse.move(e.x + e.width / 2, e.y + 200);
      await page.mouse.down();
      await page.mouse.move(e.x + e.width / 2 + 150, e.y + 200, { steps: 5 });
      await page.mouse.up();
      const widened = Number(await edge.getAttribute('aria-valuenow'));
      expect(widened).toBeGreaterThan(e.x + 100);
      await page.reload();
      await expect(page.getByRole('separator', { name: 'Resize the grid' })).toHaveAttribute('aria-valuenow', String(widened));

      // folded: both panels leave a strip
      await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: FIRST }).click();
      await page.getByRole('button', { name: 'Fold the grid away' }).click();
      await page.getByRole('button', { name: 'Fold the inspector away' }).click();
      expect(await imageShare(page)).toBeGreaterThanOrEqual(0.7);
      await shot(page, `panels-folded-${size.width}`);
      await page.getByRole('button', { name: 'Open the grid' }).click();
      await page.getByRole('button', { name: 'Open the inspector' }).click();

      // Tab: the image alone; again: the panels back
      await page.locator('.preview-canvas').click();
      await page.keyboard.press('Tab');
      await expect(page.getByRole('listbox', { name: 'Images' })).toBeHidden();
      expect(await imageShare(page)).toBeGreaterThanOrEqual(0.7);
      await shot(page, `panels-hidden-${size.width}`);
      await page.keyboard.press('Tab');
      await expect(page.getByRole('listbox', { name: 'Images' })).toBeVisible();
      // the help names both keys
      await page.keyboard.press('?');
      await expect(page.getByRole('dialog', { name: 'Help' })).toContainText('Tab');
      await expect(page.getByRole('dialog', { name: 'Help' })).toContainText('full screen');
    });

    test('the toolbar stays one row with a LUT loaded; what does not fit is in the ⋯ menu', async ({ page }) => {
      await openFirst(page);
      await page.getByLabel('LUT file').setInputFiles({
        name: 'a_grade_with_a_long_name.cube',
        mimeType: 'text/plain',
        buffer: Buffer.from(formatCube(lutFromFunction(9, (r, g, b) => [b, g, r], 'swap'))),
      });
      await expect(page.getByLabel('LUT name')).toHaveText('a_grade_with_a_long_name.cube');
      await expectOneRow(page);
      expect(await imageShare(page)).toBeGreaterThanOrEqual(0.55);
      const more = page.getByRole('button', { name: 'More controls' });
      if (size.width === 1280) {
        await more.click();
        const menu = page.getByRole('group', { name: 'More controls' });
        await expect(menu).toBeVisible();
        await expect(menu.locator('.toolbar-item')).not.toHaveCount(0);
        // the colormap's range, typed into boxes wide enough to read
        await page.getByRole('combobox', { name: 'Colormap' }).selectOption('viridis');
        await expect(menu).toBeVisible();
        for (const box of await page.locator('.toolbar input[aria-label^=Range]').all()) {
          expect(await box.evaluate((el: HTMLInputElement) => el.scrollWidth <= el.clientWidth)).toBe(true);
        }
        await shot(page, `toolbar-menu-${size.width}`);
        await page.keyboard.press('Escape');
        await expect(menu).toBeHidden();
      }
      await shot(page, `toolbar-lut-${size.width}`);
    });
  });
}

test('exposure: keys and typed value at a third of a stop; the keyboard comes back after a drag', async ({ page }) => {
  await openFirst(page);
  await page.locator('body').click({ position: { x: 5, y: 790 } });
  await page.keyboard.press('e');
  expect(await exposure(page)).toBe(0.33);
  await page.keyboard.press('e');
  expect(await exposure(page)).toBe(0.67);
  await page.keyboard.press('Shift+E');
  expect(await exposure(page)).toBe(0.33);
  const field = page.getByRole('textbox', { name: 'Exposure value' });
  await expect(field).toHaveValue('+0.33');
  await field.fill('-1 1/3');
  await field.press('Enter');
  expect(await exposure(page)).toBe(-1.33);
  await expect(field).toHaveValue('-1.33');
  await expect(field).not.toBeFocused();
  await field.click();
  await field.press('ArrowUp');
  expect(await exposure(page)).toBe(-1);
  await field.press('Shift+ArrowUp');
  expect(await exposure(page)).toBe(0);
  await field.press('Escape');

  // a drag on the slider: the value follows, and E and ? work right after without clicking elsewhere
  const slider = page.getByRole('slider', { name: 'Exposure' });
  const b = (await slider.boundingBox())!;
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width * 0.75, b.y + b.height / 2, { steps: 4 });
  await page.mouse.up();
  const dragged = await exposure(page);
  expect(dragged).toBeGreaterThan(1);
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
  await page.keyboard.press('e');
  expect(await exposure(page)).toBeGreaterThan(dragged);
  // the wheel over the control steps it too
  await slider.hover();
  const before = await exposure(page);
  await page.mouse.wheel(0, -100);
  await expect.poll(() => exposure(page)).toBeCloseTo(before + 1 / 3, 1);
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Help' })).toBeVisible();
  await page.keyboard.press('Escape');
  // a button clicked hands the keyboard back too
  await page.getByRole('button', { name: 'Diagnostics' }).click();
  await expect(page.getByRole('region', { name: 'Diagnostics' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.activeElement === document.body)).toBe(true);
  await page.keyboard.press('d');
  await expect(page.getByRole('region', { name: 'Diagnostics' })).toBeHidden();
});

test('the channel menu groups display modes and channels under headings, no label twice', async ({ page }) => {
  await openFirst(page);
  const menu = page.getByRole('combobox', { name: 'Channel' });
  expect(await menu.locator('optgroup').evaluateAll((gs) => gs.map((g) => g.getAttribute('label')))).toEqual(['Display', 'Channels']);
  expect((await menu.locator('optgroup[label=Channels] option').allTextContents()).sort()).toEqual(['B', 'G', 'R']);
  const labels = await menu.locator('option').allTextContents();
  expect(new Set(labels).size, labels.join(', ')).toBe(labels.length);
  // and the histogram says which image it counts, not a bare "A" that reads as alpha
  if (!(await page.locator('.histogram').isVisible())) await page.keyboard.press('Shift+H');
  await expect(page.locator('.histogram figcaption')).toContainText('Histogram · image A');
});

/** Where a toolbar group is: in the row (with its left edge, px) or in the ⋯ menu. */
async function groupPlace(page: Page, key: string): Promise<string> {
  if (await page.locator(`.toolbar-row > [data-item="${key}"]`).count()) return 'row';
  await expect(page.locator(`[data-menu-item="${key}"]`)).toHaveCount(1);
  return 'menu';
}

/** Every group's place, the row's in display order. */
async function toolbarPlaces(page: Page): Promise<string> {
  const row = await page.locator('.toolbar-row > [data-item]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.item));
  const menu = await page.locator('[data-menu-item]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.menuItem));
  return `row: ${row.join(' ')} | menu: ${menu.join(' ')}`;
}

/** Clicks `control` and checks that it, and its group, stayed where they were (a frame and a re-measure later). */
async function clickInPlace(page: Page, key: string, control: ReturnType<Page['getByRole']>): Promise<void> {
  await toolbarControl(page, control);
  const place = await groupPlace(page, key);
  const box = (await control.boundingBox())!;
  await control.click();
  await page.waitForTimeout(300);
  expect(await groupPlace(page, key), `${key} stays in the ${place}`).toBe(place);
  const after = (await control.boundingBox())!;
  expect(Math.abs(after.x - box.x), `the control clicked stays under the pointer`).toBeLessThan(1);
  expect(Math.abs(after.y - box.y)).toBeLessThan(1);
}

test('at 1280×800 the groups stay put as HDR and A/B flip widen them; what narrows comes back', async ({ page }) => {
  test.setTimeout(300_000);
  // a display that reports HDR, so the HDR toggle can be turned on (it widens the Look group)
  await page.addInitScript(() => {
    const real = window.matchMedia.bind(window);
    window.matchMedia = (q: string) =>
      /dynamic-range:\s*high/.test(q) ? ({ ...real(q), matches: true, media: q } as MediaQueryList) : real(q);
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await openFirst(page);
  await (await toolbarControl(page, page.getByRole('button', { name: /Set as reference/ }))).click();
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'shot_14_beauty_comp_plate_mono.exr' }).click();
  await page.mouse.move(640, 500);
  await page.waitForTimeout(300);
  const initial = await toolbarPlaces(page);
  console.log(`1280×800 toolbar: ${initial}`);

  // HDR on and off, twice: the Look group and the checkbox stay where they were
  const hdr = page.getByRole('checkbox', { name: 'HDR output' });
  await expect(await toolbarControl(page, hdr)).toBeEnabled();
  for (let i = 0; i < 4; i++) await clickInPlace(page, 'look', hdr);
  await shot(page, 'toolbar-hdr-toggled');
  await page.keyboard.press('Escape');

  // A/B flip: the Compare group widens by its flip button; it stays, and the button stays under the pointer
  const mode = page.getByRole('combobox', { name: 'Compare mode' });
  await toolbarControl(page, mode);
  const modePlace = await groupPlace(page, 'compare');
  const modeBox = (await mode.boundingBox())!;
  await mode.selectOption({ label: 'A/B flip' });
  await page.waitForTimeout(300);
  expect(await groupPlace(page, 'compare')).toBe(modePlace);
  expect(Math.abs((await mode.boundingBox())!.x - modeBox.x)).toBeLessThan(1);
  const flip = page.getByRole('button', { name: /showing [AB]/ });
  for (let i = 0; i < 3; i++) await clickInPlace(page, 'compare', flip);
  await shot(page, 'toolbar-flip');

  // all narrow again and the pointer away: the groups that made room come back, as they were at the start
  await toolbarControl(page, mode);
  await mode.selectOption('off');
  await page.keyboard.press('Escape');
  await page.mouse.move(640, 500);
  await expect.poll(() => toolbarPlaces(page)).toBe(initial);
  await expectOneRow(page);
});

test('side by side: Fit shows each image whole in its half', async ({ page }) => {
  await openFirst(page);
  await (await toolbarControl(page, page.getByRole('button', { name: /Set as reference/ }))).click();
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'shot_14_beauty_comp_plate_mono.exr' }).click();
  await (await toolbarControl(page, page.getByRole('combobox', { name: 'Compare mode' }))).selectOption({ label: 'Side by side' });
  // zoomed in first: Fit brings both back whole
  await page.locator('.preview-canvas').click();
  await page.keyboard.press('+');
  await page.keyboard.press('f');
  const fit = await page.evaluate(() => {
    const cv = document.querySelector<HTMLCanvasElement>('.preview-canvas')!;
    const v = (window as unknown as { exrviewApp: { store: Store } }).exrviewApp.store.getState().view.panZoom;
    const half = cv.width / 2;
    // A in the left half, placed as compare-geometry places it: its left and right edges in canvas px
    return { left: half / 2 + (0 - v.centerX) * v.zoom, right: half / 2 + (400 - v.centerX) * v.zoom, half };
  });
  expect(fit.left).toBeGreaterThanOrEqual(-0.5);
  expect(fit.right).toBeLessThanOrEqual(fit.half + 0.5);
  expect(fit.right - fit.left).toBeGreaterThan(fit.half * 0.9);
  await shot(page, 'side-by-side');

  // each half frames its own image: the outline's colour just above and below A, in the left half, and B, in the
  // right half, down a column through the middle of each (a screenshot: what the person sees; Fit makes each image
  // as wide as its half, so the side edges lie on the canvas's edge and the divider)
  const rows = await page.evaluate(() => {
    const cv = document.querySelector<HTMLCanvasElement>('.preview-canvas')!;
    const v = (window as unknown as { exrviewApp: { store: Store } }).exrviewApp.store.getState().view.panZoom;
    return { top: cv.height / 2 + (0 - v.centerY) * v.zoom, bottom: cv.height / 2 + (200 - v.centerY) * v.zoom };
  });
  const png = await page.locator('.preview-canvas').screenshot();
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const scale = info.width / (fit.half * 2);
  const outlineAt = (canvasX: number, canvasY: number): boolean => {
    const x = Math.round(canvasX * scale);
    for (let y = Math.floor(canvasY * scale) - 2; y <= Math.ceil(canvasY * scale) + 1; y++) {
      const i = (y * info.width + x) * info.channels;
      // the outline's colour (0.9, 0.75, 0.2): warm, green under red, little blue
      if (data[i]! > 180 && data[i + 1]! > 120 && data[i + 1]! < data[i]! && data[i + 2]! < 110) return true;
    }
    return false;
  };
  for (const [side, x] of [
    ['A', fit.half / 2],
    ['B', fit.half * 1.5],
  ] as const) {
    expect(outlineAt(x, rows.top), `${side}'s top edge outlined`).toBe(true);
    expect(outlineAt(x, rows.bottom), `${side}'s bottom edge outlined`).toBe(true);
    // and the middle of each image is the image
    expect(outlineAt(x, (rows.top + rows.bottom) / 2)).toBe(false);
  }
});

test('browser mode: the folder field names the open folder; another folder opens by its shown path, one outside says what to do', async ({
  page,
}) => {
  await page.goto(server!.url);
  const name = basename(dir);
  const field = page.getByRole('combobox', { name: 'Folder' });
  await expect(field).toHaveValue(name);
  const grid = page.getByRole('listbox', { name: 'Images' });
  // names cut in the middle keep what tells them apart: three different labels
  await expect(grid.getByRole('option', { name: FIRST })).toBeVisible();
  const labels = await grid.locator('.cell-name').allTextContents();
  const shots = labels.filter((l) => l.startsWith('shot_'));
  expect(shots).toHaveLength(3);
  for (const l of shots) expect(l).toContain('…');
  expect(new Set(shots).size).toBe(3);
  for (const v of ['left', 'mono', 'right']) expect(shots.some((l) => l.endsWith(`${v}.exr`))).toBe(true);

  await field.fill(`${name}/many`);
  await field.press('Enter');
  await expect(field).toHaveValue(`${name}/many`);
  await expect(grid.getByRole('option', { name: 'take_aa.exr' })).toBeVisible();
  // scrolled down here, then back to the top folder and here again: each opens at its top
  await grid.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect.poll(() => grid.evaluate((el) => el.scrollTop)).toBeGreaterThan(100);
  await field.fill(name);
  await field.press('Enter');
  await expect(grid.getByRole('option', { name: FIRST })).toBeVisible();
  expect(await grid.evaluate((el) => el.scrollTop)).toBe(0);

  await field.fill('/etc');
  await field.press('Enter');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('outside the served folder');
  await expect(alert).toContainText('exrview serve');
  await shot(page, 'folder-outside');
  await alert.getByRole('button', { name: 'dismiss' }).click();
  await expect(alert).toBeHidden();
});

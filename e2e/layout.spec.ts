// The layout as a person meets it, in browser mode: every toolbar control says what it does and names its key in its
// tooltip, and the help overlay lists that key; a folder or an EXR dropped on the window opens (the file selected);
// a drop the browser gives no path for says what to do. Screenshots of the toolbar, the help and the drop go with the run.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { toolbarControl } from './toolbar-menu.js';

let server: Served | null = null;
let dir = '';

test.beforeAll(async () => {
  buildProject();
  const { writeExrFile } = await import('../codec/writer.js');
  dir = mkdtempSync(join(tmpdir(), 'exrview-layout-'));
  // two single images (numbered names would make them one sequence item)
  mkdirSync(join(dir, 'sq010'));
  const W = 48,
    H = 32,
    box = { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 };
  const write = (path: string, k: number) =>
    writeExrFile(path, [
      {
        dataWindow: box,
        compression: 'zip',
        channels: ['R', 'G', 'B'].map((name, c) => ({
          name,
          pixelType: 'float' as const,
          data: floatPlane(W, H, (x, y) => ((x + y * k) / W) * (0.3 + c * 0.2)),
        })),
      },
    ]);
  write(join(dir, 'top.exr'), 1);
  write(join(dir, 'sq010', 'key_light.exr'), 2);
  write(join(dir, 'sq010', 'fill_light.exr'), 3);
  server = await serveFolder(dir);
});
test.afterAll(() => {
  server?.stop();
});

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
  await test.info().attach(name, { path: test.info().outputPath(`${name}.png`), contentType: 'image/png' });
}

/** Drops on the window as a file manager does: a text/uri-list and/or File objects of these names. */
async function drop(page: Page, uriList: string, names: string[]): Promise<void> {
  await page.evaluate(
    ([uris, files]) => {
      const dt = new DataTransfer();
      if (uris) dt.setData('text/uri-list', uris);
      for (const n of files) dt.items.add(new File([new Uint8Array(4)], n));
      window.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, cancelable: true }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, cancelable: true }));
    },
    [uriList, names] as const,
  );
}

test('every toolbar control has a tooltip naming its key, and the help overlay lists every one of those keys', async ({ page }) => {
  await page.goto(server!.url);
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'top.exr' }).click();
  await (await toolbarControl(page, page.getByRole('button', { name: /Set as reference/ }))).click();
  await (await toolbarControl(page, page.getByRole('combobox', { name: 'Compare mode' }))).selectOption({ label: 'Wipe' });
  // at this width the Inspect group is in the toolbar's ⋯ menu
  if (!(await page.getByRole('combobox', { name: 'Colormap' }).isVisible()))
    await page.getByRole('button', { name: 'More controls' }).click();
  await page.getByRole('combobox', { name: 'Colormap' }).selectOption('turbo');
  await shot(page, 'toolbar');
  const titles = await page
    .locator('.toolbar [title]:not(.ref-name), .preview-bar button[title]')
    .evaluateAll((els) =>
      els.map((e) => ({ name: e.getAttribute('aria-label') ?? e.textContent?.trim() ?? '', title: e.getAttribute('title')! })),
    );
  expect(titles.length).toBeGreaterThan(15);
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Help' });
  await expect(help).toBeVisible();
  // every key the help names: its cells split at ' / ', ',' and ' or ' ("E / Shift+E", "+ / − / 1, h j k l")
  const listed = (await help.locator('th').allTextContents()).flatMap((cell) => cell.split(/,| \/ | or /)).map((k) => k.trim());
  await shot(page, 'help');
  const unnamed: string[] = [];
  const unlisted: string[] = [];
  for (const { name, title } of titles) {
    // the keys a tooltip names: "(E / Shift+E: …)", "(Shift+L)", "(1, double-click)", "(Tab)", "(F2)"; range fields edit by typing
    const keys =
      /\(([^()]*)\)\s*$/
        .exec(title)?.[1]
        ?.split(/[;:]/)[0]
        ?.split(/,| \/ /)
        .map((k) => k.trim().split(' ')[0]!)
        .filter((k) => /^(Shift\+)?(\S|Esc|Tab|F\d{1,2})$/.test(k)) ?? [];
    if (/Range (minimum|maximum)|Exposure value/.test(name)) continue;
    if (!keys.length) {
      unnamed.push(`${name}: ${title}`);
      continue;
    }
    for (const k of keys) if (!listed.some((cell) => cell === k || cell.startsWith(`${k} `))) unlisted.push(`${name}: ${k}`);
  }
  expect(unnamed, 'toolbar controls whose tooltip names no key').toEqual([]);
  expect(unlisted, 'keys named in tooltips but missing from the help').toEqual([]);

  // a few of them, pressed: they act
  await page.keyboard.press('Escape');
  await page.locator('body').click({ position: { x: 5, y: 790 } });
  await page.keyboard.press('d');
  await expect(page.getByRole('region', { name: 'Diagnostics' })).toBeVisible();
  await page.keyboard.press('d');
  await page.keyboard.press('z');
  await expect(page.locator('.toolbar label', { hasText: 'false colour' }).locator('input')).toBeChecked();
  await page.keyboard.press('t');
  await expect(page.getByRole('combobox', { name: 'Display transform' })).not.toHaveValue('srgb');
  await page.keyboard.press('Shift+L');
  await expect(page.getByRole('region', { name: 'Layers' })).toBeVisible();
});

test('a folder or an EXR dropped on the window opens it (the file selected); a drop without a path says what to do', async ({ page }) => {
  await page.goto(server!.url);
  const grid = page.getByRole('listbox', { name: 'Images' });
  await expect(grid.getByRole('option', { name: 'top.exr' })).toBeVisible();
  // an EXR from a file manager: its folder opens and it is the current image
  await drop(page, `# dropped\r\n${pathToFileURL(join(dir, 'sq010', 'fill_light.exr')).href}\r\n`, ['fill_light.exr']);
  await expect(grid.getByRole('option', { name: 'key_light.exr' })).toBeVisible();
  await expect(grid.getByRole('option', { name: 'fill_light.exr' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: 'Statistics' })).toContainText('fill_light.exr');
  // a folder: it opens
  await drop(page, pathToFileURL(dir).href + '/', []);
  await expect(grid.getByRole('option', { name: 'top.exr' })).toBeVisible();
  // only File objects, none of them in the folder: the status says how to open it instead
  await drop(page, '', ['elsewhere.exr']);
  await expect(page.locator('footer[role=status] .message')).toContainText(
    'The browser gave no folder for elsewhere.exr: type its folder into the Folder field (O)',
  );
  // the highlight while dragging
  await page.evaluate(() => window.dispatchEvent(new DragEvent('dragover', { dataTransfer: new DataTransfer(), cancelable: true })));
  await expect(page.locator('.app')).toHaveClass(/dropping/);
  await shot(page, 'dragging');
});

test('selecting an image and switching images: the preview keeps its size once the image is drawn (no refit when its figures or header arrive)', async ({
  page,
}) => {
  await page.goto(server!.url);
  const grid = page.getByRole('listbox', { name: 'Images' });
  await expect(grid.getByRole('option', { name: 'top.exr' })).toBeVisible();
  // every frame: the preview canvas's size and whether the image is drawn
  await page.evaluate(() => {
    type S = { image: { currentFileId: string | null; loading: boolean } };
    const app = (window as unknown as { exrviewApp: { store: { getState(): S } } }).exrviewApp;
    const log: { size: string; drawn: boolean }[] = [];
    (window as unknown as { sizeLog: typeof log }).sizeLog = log;
    const tick = () => {
      const cv = document.querySelector('.preview-canvas') as HTMLCanvasElement;
      const s = app.store.getState();
      log.push({ size: `${cv.clientWidth}x${cv.clientHeight}`, drawn: s.image.currentFileId !== null && !s.image.loading });
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const sizesOnceDrawn = async (): Promise<string[]> => {
    await expect(page.getByRole('region', { name: 'Statistics' })).toContainText('whole image');
    await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
    const log = await page.evaluate(() => (window as unknown as { sizeLog: { size: string; drawn: boolean }[] }).sizeLog.splice(0));
    const firstDrawn = log.findIndex((f) => f.drawn);
    expect(firstDrawn, 'a frame with the image drawn').toBeGreaterThanOrEqual(0);
    return [...new Set(log.slice(firstDrawn).map((f) => f.size))];
  };
  await grid.getByRole('option', { name: 'top.exr' }).click();
  expect(await sizesOnceDrawn(), 'the first image selected').toHaveLength(1);
  await drop(page, pathToFileURL(join(dir, 'sq010')).href + '/', []);
  await grid.getByRole('option', { name: 'key_light.exr' }).click();
  await expect(page.getByRole('region', { name: 'Statistics' })).toContainText('key_light.exr');
  await page.evaluate(() => (window as unknown as { sizeLog: unknown[] }).sizeLog.splice(0));
  await grid.getByRole('option', { name: 'fill_light.exr' }).click();
  await expect(page.getByRole('region', { name: 'Statistics' })).toContainText('fill_light.exr');
  expect(await sizesOnceDrawn(), 'another image selected').toHaveLength(1);
});

// OpenColorIO end to end in browser mode: pick studio-test.ocio with its LUT files, choose display and view, and the
// preview's pixels match `exrview ocio apply` (the CPU processor) within 2 codes of 8 bits; switching the view draws
// again without uploading the image again; $OCIO as a URI or a config file, which later starts are offered as a recent
// config. Screenshots land in test-results/ocio/.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { toolbarControl } from './toolbar-menu.js';

const CONFIG = 'testing/colour/configs/studio-test.ocio';
const W = 96,
  H = 64;
/** Four bands of constant scene-linear colour: grey, a saturated orange, a highlight above 1, a dark blue. */
const BANDS: [number, number, number][] = [
  [0.18, 0.18, 0.18],
  [0.9, 0.3, 0.05],
  [4, 2, 1],
  [0.01, 0.02, 0.05],
];
let server: Served | null = null;
let folder = '';
const shots = join('test-results', 'ocio');

test.beforeAll(async () => {
  buildProject();
  const { writeExrFile } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-ocio-'));
  mkdirSync(shots, { recursive: true });
  writeExrFile(join(dir, 'bands.exr'), [
    {
      dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 },
      compression: 'none',
      channels: ['R', 'G', 'B'].map((name, c) => ({
        name,
        pixelType: 'float' as const,
        data: floatPlane(W, H, (x) => BANDS[Math.floor((x * BANDS.length) / W)]![c]!),
      })),
    },
  ]);
  folder = dir;
  server = await serveFolder(dir);
});
test.afterAll(() => server?.stop());

/** `exrview ocio apply CONFIG dv SPACE DISPLAY VIEW` on the bands: the CPU's display values. */
function cpuReference(display: string, view: string, config = CONFIG, space = 'Linear Rec.709'): number[][] {
  const input = Float32Array.from(BANDS.flatMap((b) => [...b, 1]));
  const r = spawnSync(process.execPath, ['bin/exrview.mjs', 'ocio', 'apply', config, 'dv', space, display, view], {
    input: Buffer.from(input.buffer),
  });
  expect(r.status, r.stderr.toString()).toBe(0);
  const out = new Float32Array(new Uint8Array(r.stdout).buffer);
  return BANDS.map((_, i) => [0, 1, 2].map((c) => out[i * 4 + c]!));
}

/** The preview's 8-bit RGB at the middle of each band: the long runs of one colour on its middle row, less the surround. */
async function bandPixels(page: Page): Promise<number[][]> {
  const preview = page.getByRole('img', { name: 'Preview' });
  const { data, info } = await sharp(await preview.screenshot())
    .raw()
    .toBuffer({ resolveWithObject: true });
  const y = Math.floor(info.height / 2);
  const at = (x: number): number[] => [0, 1, 2].map((c) => data[(y * info.width + x) * info.channels + c]!);
  const runs: { from: number; to: number; rgb: number[] }[] = [];
  for (let x = 0; x < info.width; x++) {
    const last = runs[runs.length - 1];
    if (last && at(x).join() === last.rgb.join()) last.to = x;
    else runs.push({ from: x, to: x, rgb: at(x) });
  }
  let long = runs.filter((r) => r.to - r.from >= info.width / 40);
  // the surround, when the picture is narrower than the preview, is the same grey on both sides
  if (long.length > BANDS.length && long[0]!.rgb.join() === long[long.length - 1]!.rgb.join()) long = long.slice(1, -1);
  expect(long.length, JSON.stringify(long)).toBe(BANDS.length);
  return long.map((r) => r.rgb);
}

async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const s = (
      window as unknown as { exrviewApp: { store: { getState(): { image: { currentFileId: string | null; loading: boolean } } } } }
    ).exrviewApp.store.getState();
    return s.image.currentFileId !== null && !s.image.loading;
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function imageUploads(page: Page): Promise<{ uploads: number; displayChanges: number }> {
  return page.evaluate(() => {
    const engine = (window as unknown as { exrviewApp: { controller: { engine: { stats(): Record<string, unknown> } } } }).exrviewApp
      .controller.engine;
    const s = engine.stats() as { imageUploads: number; compare: { displayChangesSinceLoad: number } };
    return { uploads: s.imageUploads, displayChanges: s.compare.displayChangesSinceLoad };
  });
}

function expectWithinCodes(name: string, shown: number[][], reference: number[][], codes: number): void {
  for (let i = 0; i < reference.length; i++)
    for (let c = 0; c < 3; c++) {
      const want = Math.round(Math.min(Math.max(reference[i]![c]!, 0), 1) * 255);
      expect(
        Math.abs(shown[i]![c]! - want),
        `${name} band ${i} channel ${c}: shown ${shown[i]} reference ${reference[i]}`,
      ).toBeLessThanOrEqual(codes);
    }
}

test('a picked OCIO config drives the preview, as exrview ocio apply computes it; a view switch uploads nothing', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto(server!.url);
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'bands.exr' }).click();
  await settle(page);
  const lutDir = join('testing/colour/configs/luts');
  const files = [CONFIG, ...readdirSync(lutDir).map((f) => join(lutDir, f))].map((path) => ({
    name: path.split('/').pop()!,
    mimeType: 'text/plain',
    buffer: readFileSync(path),
  }));
  await page.getByLabel('OCIO config files').setInputFiles(files);
  await expect(page.locator('.status')).toContainText('OCIO config studio-test.ocio loaded');

  await (await toolbarControl(page, page.getByRole('combobox', { name: 'OCIO display', exact: true }))).selectOption('sRGB - Display');
  await (await toolbarControl(page, page.getByRole('combobox', { name: 'OCIO view', exact: true }))).selectOption('Film');
  await settle(page);
  const film = await bandPixels(page);
  await page.screenshot({ path: join(shots, 'film.png') });
  expectWithinCodes('Film', film, cpuReference('sRGB - Display', 'Film'), 2);

  const before = await imageUploads(page);
  await (await toolbarControl(page, page.getByRole('combobox', { name: 'OCIO view', exact: true }))).selectOption('Log');
  await settle(page);
  const log = await bandPixels(page);
  await page.screenshot({ path: join(shots, 'log.png') });
  expectWithinCodes('Log', log, cpuReference('sRGB - Display', 'Log'), 2);
  const after = await imageUploads(page);
  expect(after.uploads).toBe(before.uploads);
  expect(after.displayChanges).toBeGreaterThan(before.displayChanges);

  // a config that fails names its file and line, and the view on screen stays
  await page
    .getByLabel('OCIO config files')
    .setInputFiles([{ name: 'broken.ocio', mimeType: 'text/plain', buffer: Buffer.from('ocio_profile_version: 2\nroles: [\n') }]);
  await expect(page.locator('.status')).toContainText('could not load the OCIO config: broken.ocio');
  expect(await bandPixels(page)).toEqual(log);
});

/** The value a toolbar picker shows. */
async function picked(page: Page, name: string): Promise<string> {
  return (await toolbarControl(page, page.getByRole('combobox', { name, exact: true }))).inputValue();
}

test("the built-in ACES 2.0 CG config is picked from the list; the image's colour space comes from its file rule, then the pick", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto(server!.url);
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'bands.exr' }).click();
  await settle(page);
  const configPicker = await toolbarControl(page, page.getByRole('combobox', { name: 'OCIO config', exact: true }));
  expect(await configPicker.inputValue()).toBe(''); // no config: the tone-map presets
  await configPicker.selectOption({ label: 'ACES 2.0 CG (ocio://cg-config-latest)' });
  await expect(page.locator('.status')).toContainText('OCIO config ocio://cg-config-latest loaded');
  const display = await picked(page, 'OCIO display');
  const view = await picked(page, 'OCIO view');
  expect(display).toBe('sRGB - Display');
  expect(view).toBe('ACES 2.0 - SDR 100 nits (Rec.709)');
  // the CG config's file rule "EXR" says an .exr is ACES2065-1
  expect(await picked(page, 'Input colour space')).toBe('ACES2065-1');
  await expect(page.getByLabel('Input colour space chosen by')).toHaveText('rule EXR');
  await settle(page);
  await page.screenshot({ path: join(shots, 'aces2-cg-rule.png') });
  expectWithinCodes('rule', await bandPixels(page), cpuReference(display, view, 'ocio://cg-config-latest', 'ACES2065-1'), 2);

  await (await toolbarControl(page, page.getByRole('combobox', { name: 'Input colour space', exact: true }))).selectOption('ACEScg');
  await expect(page.getByLabel('Input colour space chosen by')).toHaveText('picked');
  await settle(page);
  const acescg = await bandPixels(page);
  await page.screenshot({ path: join(shots, 'aces2-cg.png') });
  expectWithinCodes('ACEScg', acescg, cpuReference(display, view, 'ocio://cg-config-latest', 'ACEScg'), 2);
});

test('with $OCIO set where the server runs, the viewer starts with that config', async ({ page }) => {
  test.setTimeout(300_000);
  const withOcio = await serveFolder(folder, { OCIO: 'ocio://studio-config-latest' });
  try {
    await page.goto(withOcio.url);
    await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'bands.exr' }).click();
    // the status bar says so for a moment; the picker keeps saying it (the status may already say something newer)
    await expect.poll(() => picked(page, 'OCIO config'), { timeout: 60_000 }).toBe('ocio://studio-config-latest');
    await expect(page.getByLabel('OCIO config name')).toHaveAttribute('title', /from \$OCIO/);
    const display = await picked(page, 'OCIO display');
    const view = await picked(page, 'OCIO view');
    const space = await picked(page, 'Input colour space');
    expect(space).toBe('ACES2065-1');
    await settle(page);
    expectWithinCodes('$OCIO', await bandPixels(page), cpuReference(display, view, 'ocio://studio-config-latest', space), 2);
  } finally {
    withOcio.stop();
  }
});

test('$OCIO as a config file: the host reads it with its LUTs; the next start offers it as a recent config', async ({ page }) => {
  test.setTimeout(300_000);
  // an image whose header says Rec. 709 primaries and D65, in a folder of its own; settings of their own
  const dir = mkdtempSync(join(tmpdir(), 'exrview-ocio-file-'));
  const userData = mkdtempSync(join(tmpdir(), 'exrview-ocio-settings-'));
  const { writeExrFile } = await import('../codec/writer.js');
  writeExrFile(join(dir, 'rec709.exr'), [
    {
      dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 },
      compression: 'none',
      chromaticities: { red: [0.64, 0.33], green: [0.3, 0.6], blue: [0.15, 0.06], white: [0.3127, 0.329] },
      channels: ['R', 'G', 'B'].map((name, c) => ({
        name,
        pixelType: 'float' as const,
        data: floatPlane(W, H, (x) => BANDS[Math.floor((x * BANDS.length) / W)]![c]!),
      })),
    },
  ]);
  const configFile = resolve(CONFIG);
  const first = await serveFolder(dir, { OCIO: configFile, EXRVIEW_USER_DATA: userData });
  try {
    await page.goto(first.url);
    await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'rec709.exr' }).click();
    await expect(page.getByLabel('OCIO config name')).toHaveAttribute('title', `${configFile} (from $OCIO)`, { timeout: 60_000 });
    // only the Default rule matches: the image's chromaticities choose its colour space
    // the header (and so the chromaticities) arrives after the click: asked until it has
    await expect.poll(() => picked(page, 'Input colour space'), { timeout: 30_000 }).toBe('Linear Rec.709');
    await expect(page.getByLabel('Input colour space chosen by')).toHaveText('from file: chromaticities');
    // the Film view runs through tone.spi1d and ${SHOW}_film.spi3d: the host found them through search_path
    await (await toolbarControl(page, page.getByRole('combobox', { name: 'OCIO view', exact: true }))).selectOption('Film');
    await settle(page);
    await page.screenshot({ path: join(shots, 'ocio-env-file.png') });
    expectWithinCodes('$OCIO file', await bandPixels(page), cpuReference('sRGB - Display', 'Film'), 2);
  } finally {
    first.stop();
  }

  const second = await serveFolder(dir, { OCIO: '', EXRVIEW_USER_DATA: userData });
  try {
    await page.goto(second.url);
    await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'rec709.exr' }).click();
    await settle(page);
    const configPicker = await toolbarControl(page, page.getByRole('combobox', { name: 'OCIO config', exact: true }));
    expect(await configPicker.inputValue()).toBe('');
    await expect(configPicker.locator('optgroup[label="Recent configs"] option')).toHaveText(['studio-test.ocio']);
    await page.screenshot({ path: join(shots, 'ocio-recent-menu.png') });
    await configPicker.selectOption({ label: 'studio-test.ocio' });
    await expect(page.locator('.status')).toContainText('OCIO config studio-test.ocio loaded');
    await expect(page.getByLabel('OCIO config name')).toHaveAttribute('title', `${configFile} (a recent config)`);
    await (await toolbarControl(page, page.getByRole('combobox', { name: 'OCIO view', exact: true }))).selectOption('Film');
    await settle(page);
    await page.screenshot({ path: join(shots, 'ocio-recent.png') });
    expectWithinCodes('recent', await bandPixels(page), cpuReference('sRGB - Display', 'Film'), 2);
  } finally {
    second.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(userData, { recursive: true, force: true });
  }
});

// OpenColorIO end to end in browser mode: pick studio-test.ocio with its LUT files, choose display and view, and the
// preview's pixels match `exrview ocio apply` (the CPU processor) within 2 codes of 8 bits; switching the view draws
// again without uploading the image again; $OCIO as a URI or a config file, which later starts are offered as a recent
// config. Screenshots land in test-results/ocio/.
import { buildProject, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BANDS, codesOf, cpuReference, previewBands, settle, STUDIO_TEST_CONFIG, writeBandsExr } from './ocio-bands.js';
import { toolbarControl } from './toolbar-menu.js';

const CONFIG = STUDIO_TEST_CONFIG;
let server: Served | null = null;
let folder = '';
const shots = join('test-results', 'ocio');

test.beforeAll(async () => {
  buildProject();
  const dir = mkdtempSync(join(tmpdir(), 'exrview-ocio-'));
  mkdirSync(shots, { recursive: true });
  await writeBandsExr(dir);
  folder = dir;
  server = await serveFolder(dir);
});
test.afterAll(() => server?.stop());

/** The preview's bands, which must be as many as were written. */
async function bandPixels(page: Page): Promise<number[][]> {
  const bands = await previewBands(page);
  expect(bands.length, JSON.stringify(bands)).toBe(BANDS.length);
  return bands;
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
  const want = codesOf(reference);
  for (let i = 0; i < want.length; i++)
    for (let c = 0; c < 3; c++)
      expect(
        Math.abs(shown[i]![c]! - want[i]![c]!),
        `${name} band ${i} channel ${c}: shown ${shown[i]} reference ${reference[i]}`,
      ).toBeLessThanOrEqual(codes);
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
  await writeBandsExr(dir, 'rec709.exr', { red: [0.64, 0.33], green: [0.3, 0.6], blue: [0.15, 0.06], white: [0.3127, 0.329] });
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

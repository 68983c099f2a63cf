// OpenColorIO configs as files, end to end in browser mode: a config picked in the page (its LUT files with it) drives
// the export, whose PNG matches `exrview ocio apply` (the CPU processor); an .ocioz picked in the page loads; and a
// config the host read from disk ($OCIO) that is edited there changes the preview with no click. Screenshots land in
// test-results/ocio-export/.
import { buildProject, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Download, type Page } from '@playwright/test';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import {
  BANDS,
  bandsOf,
  codesOf,
  cpuReference,
  previewBands,
  settle,
  STUDIO_TEST_CONFIG,
  worstCodes,
  writeBandsExr,
} from './ocio-bands.js';
import { toolbarControl } from './toolbar-menu.js';

const CONFIGS = 'testing/colour/configs';
const CONFIG = STUDIO_TEST_CONFIG;
let server: Served | null = null;
let folder = '';
const shots = join('test-results', 'ocio-export');

test.beforeAll(async () => {
  buildProject();
  folder = mkdtempSync(join(tmpdir(), 'exrview-ocio-export-'));
  mkdirSync(shots, { recursive: true });
  await writeBandsExr(folder);
  server = await serveFolder(folder);
});
test.afterAll(() => {
  server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

async function pickView(page: Page, display: string, view: string): Promise<void> {
  await (await toolbarControl(page, page.getByRole('combobox', { name: 'OCIO display', exact: true }))).selectOption(display);
  await (await toolbarControl(page, page.getByRole('combobox', { name: 'OCIO view', exact: true }))).selectOption(view);
  await settle(page);
}

test('a config picked in the page drives the export: the PNG is exrview ocio apply of the image; an .ocioz picked loads', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto(server!.url);
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'bands.exr' }).click();
  await settle(page);
  const luts = join(CONFIGS, 'luts');
  const files = [CONFIG, ...readdirSync(luts).map((f) => join(luts, f))].map((path) => ({
    name: path.split('/').pop()!,
    mimeType: 'text/plain',
    buffer: readFileSync(path),
  }));
  await page.getByLabel('OCIO config files').setInputFiles(files);
  await expect(page.locator('.status')).toContainText('OCIO config studio-test.ocio loaded');
  await pickView(page, 'sRGB - Display', 'Film');
  const reference = cpuReference('sRGB - Display', 'Film');
  expect(worstCodes(await previewBands(page), reference)).toBeLessThanOrEqual(2);

  await page.getByRole('button', { name: 'Export…', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await expect(dialog).toContainText('OCIO Linear Rec.709 → sRGB - Display / Film');
  await expect(dialog).not.toContainText('is not exported through');
  await page.screenshot({ path: join(shots, 'export-dialog.png') });
  const download = new Promise<Download>((resolve) => page.once('download', resolve));
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog.getByRole('status', { name: 'Export summary' })).toHaveText('Exported 1 of 1: 1 downloaded.');
  const png = join(folder, 'exported.png');
  await (await download).saveAs(png);
  const exported = await bandsOf(png);
  expect(exported.length, JSON.stringify(exported)).toBe(BANDS.length);
  // the PNG holds the view's 8-bit values themselves: within 1 code of the CPU processor
  expect(worstCodes(exported, reference), `${JSON.stringify(exported)} vs ${JSON.stringify(reference)}`).toBeLessThanOrEqual(1);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  // an .ocioz picked in the page: unpacked there, its LUTs with it
  const entries: Record<string, Uint8Array> = { 'config.ocio': readFileSync(join(CONFIGS, 'v1-test.ocio')) };
  for (const f of readdirSync(luts)) entries[`luts/${f}`] = readFileSync(join(luts, f));
  await page
    .getByLabel('OCIO config files')
    .setInputFiles([{ name: 'v1.ocioz', mimeType: 'application/zip', buffer: Buffer.from(zipSync(entries)) }]);
  await expect(page.locator('.status')).toContainText('OCIO config v1.ocioz loaded');
  await pickView(page, 'sRGB', 'Film');
  // the bands read as log-encoded: the Film view's LUTs spread them over the display range
  await (await toolbarControl(page, page.getByRole('combobox', { name: 'Input colour space', exact: true }))).selectOption('lg10');
  await settle(page);
  await page.screenshot({ path: join(shots, 'ocioz.png') });
  const v1 = cpuReference('sRGB', 'Film', join(CONFIGS, 'v1-test.ocio'), 'lg10');
  expect(worstCodes(await previewBands(page), v1)).toBeLessThanOrEqual(2);
});

test('a config from disk edited there: the preview changes to the new processor with no click', async ({ page }) => {
  test.setTimeout(300_000);
  const show = mkdtempSync(join(tmpdir(), 'exrview-ocio-watch-'));
  cpSync(join(CONFIGS, 'luts'), join(show, 'luts'), { recursive: true });
  const config = join(show, 'config.ocio');
  writeFileSync(config, readFileSync(CONFIG));
  const userData = mkdtempSync(join(tmpdir(), 'exrview-ocio-watch-user-'));
  const served = await serveFolder(folder, { OCIO: config, EXRVIEW_USER_DATA: userData });
  try {
    await page.goto(served.url);
    await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'bands.exr' }).click();
    await expect(page.getByLabel('OCIO config name')).toHaveAttribute('title', `${config} (from $OCIO)`, { timeout: 60_000 });
    await pickView(page, 'sRGB - Display', 'Film');
    const before = cpuReference('sRGB - Display', 'Film', config);
    expect(worstCodes(await previewBands(page), before)).toBeLessThanOrEqual(2);
    await page.screenshot({ path: join(shots, 'before-edit.png') });

    // the Film view's last step, its display encoding, edited on disk: gamma 2.4 becomes 1.6
    const text = readFileSync(config, 'utf8');
    const edited = text.replace(
      '- !<ExponentWithLinearTransform> {gamma: 2.4, offset: 0.055}',
      '- !<ExponentWithLinearTransform> {gamma: 1.6, offset: 0.055}',
    );
    expect(edited).not.toBe(text);
    writeFileSync(config, edited);
    const after = cpuReference('sRGB - Display', 'Film', config);
    expect(worstCodes(codesOf(before), after)).toBeGreaterThan(10);
    await expect(page.locator('.status')).toContainText('OCIO config config.ocio loaded (changed on disk)', { timeout: 30_000 });
    await expect.poll(async () => worstCodes(await previewBands(page), after), { timeout: 30_000 }).toBeLessThanOrEqual(2);
    await page.screenshot({ path: join(shots, 'after-edit.png') });

    // an edit that breaks it: the file and line are named, the view on screen stays
    const shown = await previewBands(page);
    writeFileSync(config, edited.replace('roles:', 'roles: [\n'));
    await expect(page.locator('.status')).toContainText(`could not load the OCIO config: ${config}:`, { timeout: 30_000 });
    await settle(page);
    expect(await previewBands(page)).toEqual(shown);
  } finally {
    served.stop();
    rmSync(show, { recursive: true, force: true });
    rmSync(userData, { recursive: true, force: true });
  }
});

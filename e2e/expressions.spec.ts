// Channel expressions in the viewer (browser mode, WebGPU on SwiftShader): an error is shown under the field at its
// place; an expression over a multilayer file becomes the layer on screen, and its Statistics (computed on the GPU from
// the expression pass's texture) equal the CPU reference's (shaders/expressions' evaluator) on HDR values with NaN, ±Inf
// and negatives; the expression stays on the next image and is saved for reuse.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileExpression, evaluateExpression } from '../shaders/expressions/index.js';
import { fmtCount, fmtValue } from '../renderer/ui/format.js';
import { formatValue } from '../renderer/ui/pixel-readout.js';

const W = 96,
  H = 64;
const EXPRESSION = 'diffuse + spec * 2 - select(diffuse.R < 0, 1, 0)';
/** HDR values: negatives, a gradient over 2^±8, a NaN and ±Inf at a few pixels. */
const PLANES: Record<string, (x: number, y: number) => number> = {
  R: (x) => x / W,
  G: (_, y) => y / H,
  B: () => 0.25,
  'diffuse.R': (x, y) => (x - 20) / 7 + y / 100,
  'diffuse.G': (x, y) => 2 ** ((x - 48) / 6) + y,
  'diffuse.B': (x, y) => (x === 5 && y === 5 ? NaN : Math.sin(x * 0.3 + y * 0.1) * 1000),
  'spec.R': (x, y) => (x * y) % 17,
  'spec.G': (x, y) => (x === 10 && y === 3 ? Infinity : x === 11 && y === 3 ? -Infinity : -y / 3),
  'spec.B': (x, y) => (x + y) / 1e3,
};
let server: Served | null = null;

test.beforeAll(async () => {
  buildProject();
  const { writeExrFile } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-expr-'));
  const channels = Object.entries(PLANES).map(([name, f]) => ({ name, pixelType: 'float' as const, data: floatPlane(W, H, f) }));
  const part = { dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 }, compression: 'zip' as const, channels };
  writeExrFile(join(dir, 'aovs_a.exr'), [part]);
  writeExrFile(join(dir, 'aovs_b.exr'), [part]);
  server = await serveFolder(dir);
});
test.afterAll(() => {
  server?.stop();
});

/** The expression's RGBA by the CPU reference. */
function expectedRgba(): Float32Array {
  const compiled = compileExpression(EXPRESSION, Object.keys(PLANES));
  if (!compiled.ok) throw new Error(compiled.error.message);
  const p = compiled.program;
  const planes = p.planes.map((name) => floatPlane(W, H, PLANES[name]!));
  return evaluateExpression(p, planes, W * H);
}

/** The Statistics rows the CPU reference gives: finite values' min, max and mean; NaN and ±Inf counted apart. */
function expectedRows(): { name: string; min: number; max: number; mean: number; nan: number; inf: number }[] {
  const rgba = expectedRgba();
  return ['R', 'G', 'B'].map((name, c) => {
    let min = Infinity,
      max = -Infinity,
      sum = 0,
      n = 0,
      nan = 0,
      inf = 0;
    for (let i = 0; i < W * H; i++) {
      const v = rgba[i * 4 + c]!;
      if (Number.isNaN(v)) nan++;
      else if (!Number.isFinite(v)) inf++;
      else {
        min = Math.min(min, v);
        max = Math.max(max, v);
        sum += v;
        n++;
      }
    }
    return { name, min, max, mean: sum / n, nan, inf };
  });
}

const cell = (page: Page, row: string, key: string) => page.locator(`.statistics tr[data-channel="${row}"] td[data-key="${key}"]`);

test('an expression over a multilayer file: its error at its place, then its layer and statistics as the CPU reference', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(server!.url);
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'aovs_a.exr' }).click();
  await page.waitForFunction(() => {
    const s = (
      window as unknown as { exrviewApp: { store: { getState(): { image: { currentFileId: string | null; loading: boolean } } } } }
    ).exrviewApp.store.getState();
    return s.image.currentFileId !== null && !s.image.loading;
  });
  await expect(page.locator('.status')).toContainText('GPU');
  await page.getByRole('combobox', { name: 'Display transform' }).selectOption('linear');

  // F2 opens the bar with the cursor in the field; a typo is named, with the span it is at
  await page.locator('.preview-canvas').click();
  await page.keyboard.press('F2');
  const field = page.getByRole('textbox', { name: 'Expression' });
  await expect(field).toBeFocused();
  await field.fill('diffuse + difuse * 2');
  const error = page.locator('.expression-error');
  await expect(error).toContainText('no channel or layer named difuse');
  await expect(error).toContainText('did you mean diffuse?');
  await expect(error).toHaveAttribute('data-start', '10');
  await expect(error).toHaveAttribute('data-end', '16');
  await expect(page.locator('.expression-underline .bad')).toHaveText('difuse');
  await expect(page.getByRole('button', { name: 'Show' })).toBeDisabled();
  await page.screenshot({ path: test.info().outputPath('expression-error.png') });

  // the expression shown: the layer on screen, named in the Channel menu, measured on the GPU
  await field.fill(EXPRESSION);
  await expect(error).toHaveCount(0);
  await field.press('Enter');
  await expect(page.getByRole('combobox', { name: 'Channel' })).toHaveValue(`expr:${EXPRESSION}`);
  const rows = expectedRows();
  for (const r of rows) {
    await expect.poll(() => cell(page, r.name, 'min').textContent(), { timeout: 60_000 }).toBe(fmtValue(r.min));
    expect(await cell(page, r.name, 'max').textContent()).toBe(fmtValue(r.max));
    expect(await cell(page, r.name, 'nan').textContent()).toBe(fmtCount(r.nan));
    expect(await cell(page, r.name, 'inf').textContent()).toBe(fmtCount(r.inf));
    const mean = Number((await cell(page, r.name, 'mean').textContent())!.replace('−', '-'));
    expect(Math.abs(mean - r.mean)).toBeLessThanOrEqual(Math.abs(r.mean) * 1e-4);
  }
  // the NaN of diffuse.B and spec.G's infinities are in the figures: the inputs' specials came through the GPU pass
  expect(rows[2]!.nan).toBe(1);
  expect(rows[1]!.inf).toBe(2);
  console.log(`expression statistics (CPU reference): ${JSON.stringify(rows)}`);
  // the panel names what it measures: the expression, not the layer it was typed over
  await expect(page.getByRole('region', { name: 'Statistics' })).toContainText(`aovs_a.exr · expr: ${EXPRESSION}`);
  // under the pointer, the readout gives the expression's values too
  const box = (await page.locator('.preview-canvas').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const readout = page.locator('.readout');
  await expect(readout).toContainText('ƒx R=');
  const [, px, py] = /(\d+), (\d+)/.exec((await readout.textContent())!)!.map(Number);
  const rgba = expectedRgba();
  const at = (py! * W + px!) * 4;
  await expect(readout).toContainText(`ƒx R=${formatValue(rgba[at]!)} G=${formatValue(rgba[at + 1]!)} B=${formatValue(rgba[at + 2]!)}`);
  await page.screenshot({ path: test.info().outputPath('expression-layer.png') });

  // the next image opens with the same expression; it is in the saved list
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'aovs_b.exr' }).click();
  await expect(page.getByRole('combobox', { name: 'Channel' })).toHaveValue(`expr:${EXPRESSION}`);
  await expect.poll(() => cell(page, 'R', 'min').textContent(), { timeout: 60_000 }).toBe(fmtValue(rows[0]!.min));
  await expect(page.getByRole('combobox', { name: 'Saved expressions' }).locator('option', { hasText: EXPRESSION })).toHaveCount(1);
});

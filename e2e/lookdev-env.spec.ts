// The Environment view in browser mode: a generated lat-long EXR (envmap attribute) opens in it; the look-dev balls
// render and brighten with exposure; the panorama turns when dragged and zooms with the wheel; a 6-face cube map opens
// too. Frame time on SwiftShader is measured and written to test-results/lookdev/env-frame-time.json.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Locator, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

const W = 256,
  H = 128;
let server: Served | null = null;
let url = '';
const shots = join('test-results', 'lookdev');

/** A sky: blue above, warm ground below, a small very bright sun, and a red wall at one longitude so turning shows. */
function sky(x: number, y: number, c: number): number {
  const u = (x + 0.5) / W,
    v = (y + 0.5) / H;
  if (Math.hypot(u - 0.3, v - 0.3) < 0.03) return [50, 45, 30][c]!;
  if (u > 0.6 && u < 0.75 && v > 0.35 && v < 0.65) return [0.9, 0.05, 0.05][c]!;
  return v < 0.5 ? [0.2, 0.35, 0.8][c]! * (0.5 + v) : [0.3, 0.22, 0.12][c]!;
}

test.beforeAll(async () => {
  buildProject();
  const { writeExrFile } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-env-'));
  mkdirSync(shots, { recursive: true });
  writeExrFile(join(dir, 'sky.exr'), [
    {
      dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 },
      compression: 'zip',
      channels: ['B', 'G', 'R'].map((name) => ({
        name,
        pixelType: 'float' as const,
        data: floatPlane(W, H, (x, y) => sky(x, y, { R: 0, G: 1, B: 2 }[name]!)),
      })),
      attributes: { envmap: { type: 'envmap', value: 0 } },
    },
  ]);
  // the same sky as a cube map: each of the 6 stacked 32 px faces one flat colour
  const F = 32;
  const faces = [
    [1, 0.1, 0.1],
    [0.1, 1, 0.1],
    [0.1, 0.1, 1],
    [1, 1, 0.1],
    [0.1, 1, 1],
    [1, 0.1, 1],
  ];
  writeExrFile(join(dir, 'cube.exr'), [
    {
      dataWindow: { xMin: 0, yMin: 0, xMax: F - 1, yMax: 6 * F - 1 },
      compression: 'none',
      channels: ['B', 'G', 'R'].map((name) => ({
        name,
        pixelType: 'float' as const,
        data: floatPlane(F, 6 * F, (_x, y) => faces[Math.floor(y / F)]![{ R: 0, G: 1, B: 2 }[name]!]!),
      })),
      attributes: { envmap: { type: 'envmap', value: 1 } },
    },
  ]);
  server = await serveFolder(dir);
  url = server.url;
});
test.afterAll(() => {
  server?.stop();
});

async function stats(el: Locator): Promise<{ mean: number; rgb: number[]; png: Buffer }> {
  const png = await el.screenshot();
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const rgb = [0, 0, 0];
  for (let i = 0; i < data.length; i += info.channels) for (let c = 0; c < 3; c++) rgb[c]! += data[i + c]!;
  const n = data.length / info.channels;
  return { mean: (rgb[0]! + rgb[1]! + rgb[2]!) / n, rgb: rgb.map((v) => v / n), png };
}

/** Waits until the Environment view has drawn a frame after `after` frames. */
async function framesPast(page: Page, after: number): Promise<number> {
  const h = await page.waitForFunction(
    (n) => {
      const v = window.exrviewEnv;
      return v && v.stats().frames > n ? v.stats().frames : false;
    },
    after,
    { timeout: 120_000 },
  );
  await page.evaluate(() => window.exrviewEnv!.renderNow());
  return (await h.jsonValue()) as number;
}

test('a lat-long EXR opens in the Environment view: balls render and brighten with exposure, the panorama turns and zooms', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto(url);
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'sky.exr' }).click();
  await page.waitForFunction(() => !document.querySelector('.preview-bar [role=status]')?.textContent?.includes('loading'));
  const envButton = page.getByRole('button', { name: 'Environment' });
  await expect(envButton).toHaveAttribute('title', /^envmap attribute: lat-long/);
  const jsBefore = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => /three/i.test(e.name)).length);
  expect(jsBefore, 'three.js is not loaded before the Environment view opens').toBe(0);
  await envButton.click();
  const canvas = page.getByRole('img', { name: 'Environment' });
  let frames = await framesPast(page, 0);
  expect(await page.evaluate(() => performance.getEntriesByType('resource').some((e) => /three/i.test(e.name)))).toBe(true);

  // balls (the default mode): a lit grey ball and a chrome one on a grey studio backdrop
  const balls = await stats(canvas);
  writeFileSync(join(shots, 'env-balls.png'), balls.png);
  const exposure = page.getByRole('slider', { name: 'Exposure' });
  await exposure.focus();
  // the arrows step a third of a stop: six of them are +2 EV
  for (let i = 0; i < 6; i++) await exposure.press('ArrowRight');
  frames = await framesPast(page, frames);
  const brighter = await stats(canvas);
  writeFileSync(join(shots, 'env-balls-plus2ev.png'), brighter.png);
  expect(brighter.mean, `balls at 0 EV ${balls.mean}, at +2 EV ${brighter.mean}`).toBeGreaterThan(balls.mean * 1.3);
  for (let i = 0; i < 6; i++) await exposure.press('ArrowLeft');

  // panorama: dragging turns the view (the red wall comes and goes), the wheel narrows the field of view
  await page.getByRole('combobox', { name: 'Environment mode' }).selectOption('panorama');
  frames = await framesPast(page, frames);
  const front = await stats(canvas);
  writeFileSync(join(shots, 'env-panorama.png'), front.png);
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 300, box.y + box.height / 2 + 40, { steps: 5 });
  await page.mouse.up();
  const cam = await page.evaluate(() => window.exrviewEnv!.camera3);
  expect(Math.abs(cam.yawDeg)).toBeGreaterThan(10);
  frames = await framesPast(page, frames);
  const turned = await stats(canvas);
  writeFileSync(join(shots, 'env-panorama-dragged.png'), turned.png);
  const diff = turned.rgb.reduce((a, v, c) => a + Math.abs(v - front.rgb[c]!), 0);
  expect(diff, `mean RGB before ${front.rgb}, after the drag ${turned.rgb}`).toBeGreaterThan(5);
  const fovBefore = cam.fovDeg;
  // the wheel goes where the pointer is: back over the view (the drag left it 300 px to the left)
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -400);
  await expect.poll(() => page.evaluate(() => window.exrviewEnv!.camera3.fovDeg)).toBeLessThan(fovBefore);

  // frame time on this machine (SwiftShader): balls, the heavier mode, 12 frames after warm-up
  await page.getByRole('combobox', { name: 'Environment mode' }).selectOption('balls');
  await framesPast(page, frames);
  const times = await page.evaluate(async () => {
    const out: number[] = [];
    for (let i = 0; i < 12; i++) out.push(await window.exrviewEnv!.renderNow());
    return out;
  });
  const sorted = [...times].sort((a, b) => a - b);
  const summary = {
    device: 'SwiftShader (Chromium, headless)',
    canvas: [box.width, box.height],
    mode: 'balls + shadow plane',
    frames: times.length,
    medianMs: sorted[Math.floor(sorted.length / 2)],
    minMs: sorted[0],
    maxMs: sorted.at(-1),
  };
  writeFileSync(join(shots, 'env-frame-time.json'), JSON.stringify(summary));
  console.log(`Environment view frame time: ${JSON.stringify(summary)}`);

  // back to 2D: three lets go of its resources but not of the app's device; the preview draws, and the view reopens
  await page.getByRole('button', { name: '2D' }).click();
  await expect(canvas).toHaveCount(0);
  const preview = page.getByRole('img', { name: 'Preview' });
  await expect(preview).toBeVisible();
  await expect(page.locator('.status .path')).toHaveText('GPU');
  expect((await stats(preview)).mean).toBeGreaterThan(30);
  await page.getByRole('button', { name: 'Environment' }).click();
  await framesPast(page, 0);
  expect((await stats(canvas)).mean).toBeGreaterThan(30);
});

test('a cube map in OpenEXR layout (six faces stacked) opens in the Environment view', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(url);
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name: 'cube.exr' }).click();
  await page.waitForFunction(() => !document.querySelector('.preview-bar [role=status]')?.textContent?.includes('loading'));
  await expect(page.getByRole('button', { name: 'Environment' })).toHaveAttribute('title', /^envmap attribute: cube/);
  await page.getByRole('button', { name: 'Environment' }).click();
  await expect(page.getByRole('combobox', { name: 'Map layout' })).toHaveValue('cube');
  await page.getByRole('combobox', { name: 'Environment mode' }).selectOption('panorama');
  let frames = await framesPast(page, 0);
  const canvas = page.getByRole('img', { name: 'Environment' });
  const seen = new Set<string>();
  for (let k = 0; k < 4; k++) {
    const s = await stats(canvas);
    writeFileSync(join(shots, `env-cube-${k}.png`), s.png);
    // which of the face colours dominates: each turn of 90 degrees faces another face
    seen.add(s.rgb.map((v) => (v > 120 ? 1 : 0)).join(''));
    await page.evaluate(() => window.exrviewEnv!.look(90, 0));
    frames = await framesPast(page, frames);
  }
  expect(seen.size, `dominant colours seen: ${[...seen].join(' ')}`).toBeGreaterThanOrEqual(3);
});

// What the huge-image specs share: screenshots read back as pixels, the box of an image drawn at fit, the view at 1:1
// at a given pixel (waiting for the crop of level 0 it needs), and its canvas compared with the pixels written.
import { test, expect, type Locator, type Page } from '@playwright/test';
import { srgbOetf } from '../shaders/tonemap-cpu.js';
import sharp from 'sharp';

/** A screenshot of `el` as raw pixels; saved to `path` as well where given. */
export async function pixels(el: Locator, path?: string): Promise<{ data: Buffer; widthPx: number; heightPx: number; channels: number }> {
  const { data, info } = await sharp(await el.screenshot({ path, timeout: 120_000 }))
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, widthPx: info.width, heightPx: info.height, channels: info.channels };
}

export async function meanBrightness(el: Locator): Promise<number> {
  const { data, channels } = await pixels(el);
  let sum = 0;
  for (let i = 0; i < data.length; i += channels) sum += data[i]! + data[i + 1]! + data[i + 2]!;
  return sum / (data.length / channels);
}

export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('.preview-bar [role=status]')?.textContent?.includes('loading'), null, {
    timeout: 240_000,
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * The box of the image drawn at fit in a preview screenshot: the run of pixels unlike the background through the
 * canvas's centre, across and down (the notes and panels over the preview's corners are left out).
 */
export function imageBox(shot: Awaited<ReturnType<typeof pixels>>): { x0: number; y0: number; x1: number; y1: number } {
  const { data, widthPx, heightPx, channels } = shot;
  const bg = [data[0]!, data[1]!, data[2]!];
  const isImage = (x: number, y: number): boolean => {
    const i = (y * widthPx + x) * channels;
    return Math.abs(data[i]! - bg[0]!) + Math.abs(data[i + 1]! - bg[1]!) + Math.abs(data[i + 2]! - bg[2]!) > 12;
  };
  const cx = widthPx >> 1,
    cy = heightPx >> 1;
  let x0 = cx,
    x1 = cx,
    y0 = cy,
    y1 = cy;
  while (x0 > 0 && isImage(x0 - 1, cy)) x0--;
  while (x1 < widthPx - 1 && isImage(x1 + 1, cy)) x1++;
  while (y0 > 0 && isImage(cx, y0 - 1)) y0--;
  while (y1 < heightPx - 1 && isImage(cx, y1 + 1)) y1++;
  return { x0, y0, x1, y1 };
}

export interface Capture {
  widthPx: number;
  heightPx: number;
  bgra: boolean;
  bytesPerRow: number;
  data: Buffer;
}
export interface AppHandle {
  controller: {
    actions: { setPanZoom(v: { zoom: number; centerX: number; centerY: number }): void };
    view: { sizePx: { widthPx: number; heightPx: number } };
    fit(): void;
    engine: {
      capture(which: 'preview'): Promise<{ widthPx: number; heightPx: number; format: string; bytesPerRow: number; data: Uint8Array }>;
      region: { crop: { box: number[] } | null; builds: number };
    };
  };
}

/**
 * The view at 1:1 with level 0's pixel (x0, y0) at the canvas's top-left corner; waits until the crop of level 0 it
 * needs is drawn (it holds every pixel of the image on screen), saves a screenshot, and reads the canvas back.
 */
export async function atOneToOne(page: Page, x0: number, y0: number, imageW: number, imageH: number, shotName: string): Promise<Capture> {
  await page.evaluate(
    ([x, y]) => {
      const c = (window as unknown as { exrviewApp: AppHandle }).exrviewApp.controller;
      const { widthPx, heightPx } = c.view.sizePx;
      c.actions.setPanZoom({ zoom: 1, centerX: x! + widthPx / 2, centerY: y! + heightPx / 2 });
    },
    [x0, y0],
  );
  await page.waitForFunction(
    ([x, y, w, h]) => {
      const c = (window as unknown as { exrviewApp: AppHandle }).exrviewApp.controller;
      const box = c.engine.region.crop?.box;
      const { widthPx, heightPx } = c.view.sizePx;
      return (
        !!box &&
        box[0]! <= Math.max(0, x!) &&
        box[1]! <= Math.max(0, y!) &&
        box[2]! >= Math.min(w! - 1, x! + widthPx - 1) &&
        box[3]! >= Math.min(h! - 1, y! + heightPx - 1)
      );
    },
    [x0, y0, imageW, imageH],
    { timeout: 180_000, polling: 250 },
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.getByRole('img', { name: 'Preview' }).screenshot({ path: test.info().outputPath(shotName), timeout: 120_000 });
  const cap = await page.evaluate(async () => {
    const c = (window as unknown as { exrviewApp: AppHandle }).exrviewApp.controller;
    const got = await c.engine.capture('preview');
    let text = '';
    for (let i = 0; i < got.data.length; i += 0x8000) text += String.fromCharCode(...got.data.subarray(i, i + 0x8000));
    return { ...got, data: btoa(text), size: c.view.sizePx };
  });
  expect([cap.widthPx, cap.heightPx], 'the canvas read back is the one the view was set for').toEqual([
    cap.size.widthPx,
    cap.size.heightPx,
  ]);
  return { ...cap, bgra: cap.format.startsWith('bgra'), data: Buffer.from(cap.data, 'base64') };
}

/** Canvas pixels at 1:1 from level 0's (x0, y0) against `value` (linear, written) encoded as the 'srgb' view does. */
export function oneToOneErrors(
  cap: Capture,
  x0: number,
  y0: number,
  imageW: number,
  imageH: number,
  value: (c: number, x: number, y: number) => number,
): string[] {
  const errors: string[] = [];
  let compared = 0;
  for (let py = 0; py < cap.heightPx; py++)
    for (let px = 0; px < cap.widthPx; px++) {
      const x = x0 + px,
        y = y0 + py;
      if (x < 0 || y < 0 || x >= imageW || y >= imageH) continue;
      compared++;
      const i = py * cap.bytesPerRow + px * 4;
      for (let c = 0; c < 3; c++) {
        const want = Math.round(srgbOetf(Math.min(1, Math.max(0, value(c, x, y)))) * 255);
        const got = cap.data[i + (cap.bgra ? 2 - c : c)]!;
        if (Math.abs(got - want) > 2 && errors.length < 12) errors.push(`(${x}, ${y}) channel ${c}: ${got}, written ${want}`);
      }
    }
  expect(compared, 'pixels of the image on the canvas').toBeGreaterThan(100_000);
  return errors;
}

/**
 * A screenshot at fit against level `level` of the image (levelW × levelH, `value` linear): at the centres of 1024 px
 * cells of level 0 (every `step` cells, or [across, down]), the level averaged over the screen pixel's footprint, encoded as the 'srgb'
 * view does, within `tolerance` codes.
 */
export function fitErrors(
  shot: Awaited<ReturnType<typeof pixels>>,
  level: { widthPx: number; heightPx: number; cells: [number, number]; step: number | readonly [number, number] },
  value: (c: number, x: number, y: number) => number,
  tolerance = 8,
): string[] {
  const box = imageBox(shot);
  const boxW = box.x1 - box.x0 + 1,
    boxH = box.y1 - box.y0 + 1;
  if (Math.abs(boxW / boxH - level.widthPx / level.heightPx) > 0.05) return [`image box ${JSON.stringify(box)}: not the image's shape`];
  const errors: string[] = [];
  const [cellsX, cellsY] = level.cells;
  const [stepX, stepY] = typeof level.step === 'number' ? [level.step, level.step] : level.step;
  for (let cy = 0; cy < cellsY; cy += stepY)
    for (let cx = 1; cx < cellsX; cx += stepX) {
      const u = (cx + 0.5) / cellsX,
        v = (cy + 0.5) / cellsY;
      const sx = Math.round(box.x0 + u * boxW),
        sy = Math.round(box.y0 + v * boxH);
      const i = (sy * shot.widthPx + sx) * shot.channels;
      const fx = level.widthPx / boxW,
        fy = level.heightPx / boxH;
      const x0 = Math.floor((sx - box.x0) * fx),
        y0 = Math.floor((sy - box.y0) * fy);
      for (let c = 0; c < 3; c++) {
        let sum = 0,
          n = 0;
        for (let y = y0; y < y0 + Math.ceil(fy); y++) for (let x = x0; x < x0 + Math.ceil(fx); x++, n++) sum += value(c, x, y);
        const want = Math.round(srgbOetf(Math.min(1, sum / n)) * 255);
        const got = shot.data[i + c]!;
        if (Math.abs(got - want) > tolerance) errors.push(`cell (${cx}, ${cy}) channel ${c}: ${got}, CPU ${want}`);
      }
    }
  return errors;
}

// tev's protocol end to end: a client written from the protocol sends an image in tiles to `exrview serve --tev`; the
// grid lists it as a live item, the preview's pixels on screen are what was sent, an update shows (only its region
// fetched again), vector graphics are drawn over it following zoom, replaced or appended, a close removes it.
import { buildProject, root } from './serve-fixture.js';
import { test, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { TevClient, closeImage, createImage, tilesOf, updateImageV3, vectorGraphics } from '../testing/tev/tev-client.js';
import { toolbarControl } from './toolbar-menu.js';

const W = 64,
  H = 48;
/** Four quadrants, each its own colour (linear values that 8 bits hold within half a step). */
const QUADRANTS = [
  [0.2, 0.6, 0.9],
  [0.8, 0.1, 0.4],
  [0.5, 0.5, 0.05],
  [0.05, 0.35, 0.7],
];
const quadrantOf = (x: number, y: number): number => (x < W / 2 ? 0 : 1) + (y < H / 2 ? 0 : 2);

let server: ChildProcess | null = null;
let url = '';
let tevPort = 0;

test.beforeAll(async () => {
  buildProject();
  const { writeExrFile } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-tev-'));
  writeExrFile(join(dir, 'disk.exr'), [
    { dataWindow: { xMin: 0, yMin: 0, xMax: 7, yMax: 7 }, channels: [{ name: 'Y', pixelType: 'float', data: new Float32Array(64) }] },
  ]);
  server = spawn(process.execPath, ['bin/exrview.mjs', 'serve', dir, '--port', '0', '--tev', '0'], {
    cwd: root,
    env: { ...process.env, XDG_CACHE_HOME: join(dir, '.cache') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`serve printed no addresses: ${out}`)), 30_000);
    const read = (d: Buffer) => {
      out += d.toString();
      const page = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(out);
      const tev = /tev's protocol on 127\.0\.0\.1:(\d+)/.exec(out);
      if (page && tev) {
        clearTimeout(t);
        url = page[0];
        tevPort = Number(tev[1]);
        resolve();
      }
    };
    server!.stdout!.on('data', read);
    server!.stderr!.on('data', read);
    server!.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
});
test.afterAll(() => {
  server?.kill('SIGTERM');
});

async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[role=status]')?.textContent?.includes('loading'));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * The on-screen colour (8-bit RGB) at the centre of each quadrant of the image, found as the box of the pixels sent
 * (and of `drawn`, colours drawn over them).
 */
async function quadrantColours(page: Page, drawn: number[][] = []): Promise<number[][]> {
  const png = await page.getByRole('img', { name: 'Preview' }).screenshot({ path: test.info().outputPath('preview.png') });
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number): number[] => [
    ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3),
  ];
  const expected = [...QUADRANTS.map((q) => q.map((v) => Math.round(v * 255))), ...drawn];
  const isSent = (i: number): boolean =>
    expected.some((e) => Math.abs(data[i]! - e[0]!) <= 3 && Math.abs(data[i + 1]! - e[1]!) <= 3 && Math.abs(data[i + 2]! - e[2]!) <= 3);
  let [x0, y0, x1, y1] = [info.width, info.height, -1, -1];
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if (isSent((y * info.width + x) * info.channels)) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  expect(x1, 'no pixel of the sent image on screen').toBeGreaterThan(x0);
  const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2];
  const [qw, qh] = [(x1 - x0) / 4, (y1 - y0) / 4];
  return [
    at(Math.round(cx - qw), Math.round(cy - qh)),
    at(Math.round(cx + qw), Math.round(cy - qh)),
    at(Math.round(cx - qw), Math.round(cy + qh)),
    at(Math.round(cx + qw), Math.round(cy + qh)),
  ];
}

test("an image sent in tiles over tev's protocol shows in the grid and the preview as sent; updates show; close removes it", async ({
  page,
}) => {
  await page.goto(url);
  const grid = page.getByRole('listbox', { name: 'Images' });
  await expect(grid.getByRole('option', { name: 'disk.exr' })).toBeVisible();

  const client = await TevClient.connect(tevPort);
  const channels = ['R', 'G', 'B'].map((name, c) => ({ name, offset: c, stride: 3 }));
  await client.send(createImage('/renders/live.exr', W, H, ['R', 'G', 'B']));
  // 16-pixel tiles, interleaved RGB (UpdateImage v3), as a renderer sends buckets
  const packets = tilesOf(W, H, 16).map((t) => {
    const data = new Float32Array(t.widthPx * t.heightPx * 3);
    for (let y = 0; y < t.heightPx; y++)
      for (let x = 0; x < t.widthPx; x++)
        for (let c = 0; c < 3; c++) data[(y * t.widthPx + x) * 3 + c] = QUADRANTS[quadrantOf(t.x + x, t.y + y)]![c]!;
    return updateImageV3('/renders/live.exr', channels, t, data);
  });
  await client.send(...packets);

  const live = grid.getByRole('option', { name: 'live.exr' });
  await expect(live).toBeVisible();
  await expect(live.locator('.live-badge')).toHaveText('live');
  await live.click();
  await (await toolbarControl(page, page.getByRole('combobox', { name: 'Display transform' }))).selectOption('linear');
  await settle(page);
  await expect(async () => {
    const shown = await quadrantColours(page);
    QUADRANTS.forEach((q, i) =>
      shown[i]!.forEach((v, c) =>
        expect(Math.abs(v - Math.round(q[c]! * 255)), `quadrant ${i} channel ${c}: ${shown[i]}`).toBeLessThanOrEqual(2),
      ),
    );
  }).toPass({ timeout: 30_000 });

  // the pixel inspector reads the values sent, exactly
  const box = (await page.getByRole('img', { name: 'Preview' }).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2 - 2, box.y + box.height / 2 - 2);
  await expect(page.locator('output[aria-label="Pixel value"]')).toContainText(/R=0\.2\d* G=0\.6\d* B=0\.9/);

  // an update of the top-left quadrant shows in place: the page fetches that tile's region, not the whole image
  const decodes: string[] = [];
  page.on('request', (r) => void (r.url().endsWith('/api/decodeImage') && decodes.push(r.postData() ?? '')));
  QUADRANTS[0] = [0.95, 0.95, 0.95];
  const tile = { x: 0, y: 0, widthPx: W / 2, heightPx: H / 2 };
  await client.send(updateImageV3('/renders/live.exr', channels, tile, new Float32Array(tile.widthPx * tile.heightPx * 3).fill(0.95)));
  await expect(async () => {
    const shown = await quadrantColours(page);
    expect(
      shown[0]!.every((v) => Math.abs(v - 242) <= 2),
      `top-left now ${shown[0]}`,
    ).toBe(true);
    expect(Math.abs(shown[3]![2]! - Math.round(0.7 * 255))).toBeLessThanOrEqual(2);
  }).toPass({ timeout: 30_000 });
  expect(decodes.length, 'the update fetched nothing').toBeGreaterThan(0);
  for (const body of decodes)
    expect(JSON.parse(body).args[0].region, `a whole decode after the update: ${body}`).toEqual({
      xPx: 0,
      yPx: 0,
      widthPx: W / 2,
      heightPx: H / 2,
    });
  // the pixel inspector reads the update too (the CPU copy patched in place)
  await page.mouse.move(box.x + box.width / 2 - 3, box.y + box.height / 2 - 3);
  await expect(page.locator('output[aria-label="Pixel value"]')).toContainText(/R=0\.95\d* G=0\.95\d* B=0\.95/);

  // vector graphics over the image (tev's VgCommand bytes: 2 fill colour, 3 fill, 6 begin path, 18 rect), in image pixels
  const GREEN = [0, 255, 0];
  const fillRect = (x: number, y: number) => [
    { type: 6, values: [] },
    { type: 18, values: [x, y, W / 2, H / 2] },
    { type: 2, values: [0, 1, 0, 1] },
    { type: 3, values: [] },
  ];
  const near = (a: number[], b: number[]): boolean => a.every((v, c) => Math.abs(v - b[c]!) <= 2);
  const expectQuadrants = async (green: number[]): Promise<void> =>
    expect(async () => {
      const shown = await quadrantColours(page, [GREEN]);
      for (let q = 0; q < 4; q++) {
        const want = green.includes(q) ? GREEN : QUADRANTS[q]!.map((v) => Math.round(v * 255));
        expect(near(shown[q]!, want), `quadrant ${q} is ${shown[q]}, not ${want}`).toBe(true);
      }
    }).toPass({ timeout: 30_000 });
  await client.send(vectorGraphics('/renders/live.exr', fillRect(W / 2, H / 2)));
  await expectQuadrants([3]);
  // appended: both drawn
  await client.send(vectorGraphics('/renders/live.exr', fillRect(0, H / 2), true));
  await expectQuadrants([2, 3]);
  // the drawing follows the view: zoomed out around the cursor, the green is still over the same quadrants
  await page.mouse.move(box.x + box.width / 3, box.y + box.height / 3);
  await page.mouse.wheel(0, 400);
  await expectQuadrants([2, 3]);
  await page.getByRole('img', { name: 'Preview' }).screenshot({ path: test.info().outputPath('vector-graphics.png') });
  // not appended: the list is replaced
  await client.send(vectorGraphics('/renders/live.exr', fillRect(W / 2, 0)));
  await expectQuadrants([1]);

  // a client sending a malformed packet (a length of 5: shorter than any packet) is closed; the listener, the live
  // image and the page carry on, and the page logged no error
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const rogue = await TevClient.connect(tevPort);
  await rogue.send(new Uint8Array([5, 0, 0, 0, 0xff]));
  expect(await rogue.closedByPeer(10_000)).toBe(true);
  await expectQuadrants([1]);
  await expect(live.locator('.live-badge')).toHaveText('live');
  expect(pageErrors).toEqual([]);

  await client.send(closeImage('/renders/live.exr'));
  await expect(live).toHaveCount(0);
  await expect(grid.getByRole('option', { name: 'disk.exr' })).toBeVisible();
  await client.close();
});

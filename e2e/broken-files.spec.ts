// Files that cannot be read, in browser mode as a new user meets them: a damaged file's grid cell shows a thumbnail of
// its readable chunks (the rest hatched) with a small "damaged" badge and the codec's reason in its tooltip; a file that
// cannot be read at all carries a broken-file mark with the reason; a damaged file's Statistics leave its missing pixels
// out and say how many; its preview shows the chunks that can be read, with the missing
// pixels hatched and a banner that says how much was read, where, why and what to do (a file whose header does not read
// gets a card that says so); its header is shown; a file still being written says so and is shown once the writer
// finishes (the host looks again); a folder without any EXR says so instead of an empty grid. Screenshots go with the run.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const W = 64,
  H = 48;
let whole: Buffer;

test.beforeAll(async () => {
  buildProject();
  const { writeExrFile } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-whole-'));
  const box = { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 };
  writeExrFile(join(dir, 'good.exr'), [
    {
      dataWindow: box,
      compression: 'zip',
      channels: ['R', 'G', 'B'].map((name, c) => ({
        name,
        pixelType: 'float' as const,
        data: floatPlane(W, H, (x, y) => Math.round(((x / W) * (c + 1) * 0.4 + (y / H) * 0.3) * 16) / 16), // steps: ZIP compresses them, so chunks hold zlib streams
      })),
    },
  ]);
  whole = readFileSync(join(dir, 'good.exr'));
});

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
  await test.info().attach(name, { path: test.info().outputPath(`${name}.png`), contentType: 'image/png' });
}

/** The same image with the zlib stream of its second chunk spoiled: the header and offsets read, that chunk does not decompress. */
function damagedChunks(): Buffer {
  const b = Buffer.from(whole);
  const chunks = Math.ceil(H / 16); // ZIP: 16 scanlines a chunk
  // the offset table follows the header: its first entry points just past the table
  let table = -1;
  for (let p = 0; p + 8 <= b.length; p++)
    if (Number(b.readBigUInt64LE(p)) === p + chunks * 8) {
      table = p;
      break;
    }
  if (table < 0) throw new Error('no offset table found in the written file');
  const chunk1 = Number(b.readBigUInt64LE(table + 8));
  if (b.readInt32LE(chunk1 + 4) >= W * 16 * 3 * 4) throw new Error('chunk 1 is stored uncompressed: nothing to spoil');
  // chunk: int32 y, int32 size, then the zlib stream: its header bytes made invalid
  b.fill(0xff, chunk1 + 8, chunk1 + 8 + 16);
  return b;
}

/** A grid cell's pixels, from a screenshot: those of the cut image (blue over red) and those of the grey hatching. */
async function thumbnailPixels(cell: Locator): Promise<{ image: number; hatch: number }> {
  const { data, info } = await sharp(await cell.screenshot())
    .raw()
    .toBuffer({ resolveWithObject: true });
  let image = 0;
  let hatch = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
    if (b - r > 40) image++;
    else if (Math.abs(r - g) < 8 && Math.abs(g - b) < 8 && r > 80 && r < 215) hatch++;
  }
  return { image, hatch };
}

/** The histogram the app shows, read through its test hook: what it counts, and per [luminance, R, G, B] its total and bin 0. */
async function shownHistogram(page: Page): Promise<{ source: string; totals: number[]; atZero: number[] } | null> {
  return page.evaluate(() => {
    const c = (window as unknown as { exrviewApp: { controller: { histogram: Uint32Array | null; histogramSource: string } } }).exrviewApp
      .controller;
    const bins = c.histogram;
    if (!bins) return null;
    const n = bins.length / 4;
    const totals = [0, 1, 2, 3].map((k) => bins.subarray(k * n, (k + 1) * n).reduce((t, v) => t + v, 0));
    return { source: c.histogramSource, totals, atZero: [0, 1, 2, 3].map((k) => bins[k * n]!) };
  });
}

/** Pixels the preview's overlay canvas has painted (the hatching of missing pixels; nothing else is drawn here). */
async function overlayPaintedPx(page: Page): Promise<number> {
  return page.locator('canvas.preview-overlay').evaluate((c: HTMLCanvasElement) => {
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
    return n;
  });
}

test("a damaged file: a broken-file mark with the codec's reason in its cell (tooltip, status bar); the preview shows what reads and says what is missing, where, why and what to do", async ({
  page,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'exrview-broken-'));
  writeFileSync(join(dir, 'a_good.exr'), whole);
  writeFileSync(join(dir, 'b_chunk.exr'), damagedChunks());
  writeFileSync(join(dir, 'c_not_exr.exr'), Buffer.from('this is not an OpenEXR file, only text with the name of one\n'.repeat(8)));
  const server: Served = await serveFolder(dir);
  try {
    await page.goto(server.url);
    const grid = page.getByRole('listbox', { name: 'Images' });
    const status = page.locator('footer[role=status] .message');

    // the header cannot be read: marked from the listing, the reason in the tooltip
    const notExr = grid.getByRole('option', { name: 'c_not_exr.exr' });
    await expect(notExr).toHaveClass(/\bbad\b/);
    await expect(notExr.locator('.broken-mark')).toBeVisible();
    await expect(notExr).toHaveAttribute('title', /c_not_exr\.exr: .*not an OpenEXR file/);

    // the header reads but a chunk does not: the thumbnail is made of the other chunks, the cell carries a small
    // "damaged" badge (not the broken-file mark) and its tooltip says how many chunks are missing and the codec's reason
    const chunk = grid.getByRole('option', { name: 'b_chunk.exr' });
    await expect(chunk).toHaveClass(/\bdamaged\b/);
    await expect(chunk).not.toHaveClass(/\bbad\b/);
    await expect(chunk.locator('.damage-badge')).toBeVisible();
    await expect(chunk.locator('.broken-mark')).toHaveCount(0);
    await expect(chunk).toHaveAttribute(
      'title',
      /b_chunk\.exr is damaged: 1 of 3 chunks could not be read .*\(part 0, chunk 1: .*(zlib|corrupt|invalid)/i,
    );
    await expect(grid.getByRole('option', { name: 'a_good.exr' })).not.toHaveClass(/\bbad\b|\bdamaged\b/);

    // opening it: the chunks that read are shown, the spoiled one hatched; a banner says how much was read, which rows
    // are missing, which chunk, the reason and what to do; no card takes the image's place
    await chunk.click();
    const problem = page.getByRole('alert', { name: 'Cannot show this file' });
    const partial = page.getByRole('status', { name: 'Part of this file could not be read' });
    await expect(partial).toContainText('2 of 3 chunks of b_chunk.exr could be read');
    await expect(partial.locator('.path')).toContainText('b_chunk.exr · first missing: part 0, chunk 1');
    await expect(partial.locator('.missing-text')).toContainText('Missing rows 16–31: shown hatched');
    await expect(partial.locator('.reason')).not.toBeEmpty();
    await expect(partial.locator('.advice')).toContainText(/render or copy it again/);
    await expect(problem).toHaveCount(0);
    await expect(page.getByRole('img', { name: 'Preview' })).toHaveAttribute('data-has-image', 'true');
    await expect.poll(() => overlayPaintedPx(page)).toBeGreaterThan(100);
    await expect(page.locator('details.header-panel > summary')).toHaveText('Header (version 2)');
    await shot(page, 'broken-chunk');

    await notExr.click();
    await expect(problem).toContainText('Cannot show c_not_exr.exr');
    await expect(problem.locator('.reason')).toContainText('not an OpenEXR file');
    await expect(problem.locator('.advice')).toContainText(/damaged/);
    await expect(status).toContainText('c_not_exr.exr: not an OpenEXR file');
    await expect(partial).toHaveCount(0);
    await expect(page.locator('details.header-panel > summary')).toHaveText('Header (cannot be read)');
    await shot(page, 'broken-header');

    // a good file afterwards shows, and the message goes
    await grid.getByRole('option', { name: 'a_good.exr' }).click();
    await expect(problem).toHaveCount(0);
    await expect(page.getByRole('img', { name: 'Preview' })).toHaveAttribute('data-has-image', 'true');
    await expect.poll(() => overlayPaintedPx(page)).toBe(0);
  } finally {
    server.stop();
  }
});

test('a file cut short, selected after a good one: its readable rows shown and the rest hatched, its header, no stale statistics', async ({
  page,
}) => {
  const { writeExrFile } = await import('../codec/writer.js');
  const { ExrReader, openFileSource } = await import('../codec/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-cut-'));
  writeFileSync(join(dir, 'a_good.exr'), whole);
  // 13 chunks of 16 lines: cut inside chunk 6, so that 6 of 13 read
  const cutH = 200;
  const full = join(dir, 'full.tmp');
  writeExrFile(full, [
    {
      dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: cutH - 1 },
      compression: 'zip',
      channels: ['R', 'G', 'B'].map((name, c) => ({
        name,
        pixelType: 'float' as const,
        data: floatPlane(W, cutH, (x, y) => 0.2 + c * 0.3 + (x / W) * 0.4 + (y / cutH) * 0.4),
      })),
    },
  ]);
  const source = openFileSource(full);
  const chunk6 = ExrReader.open(source).offsets[0]![6]!;
  source.close();
  writeFileSync(join(dir, 'b_cut.exr'), readFileSync(full).subarray(0, chunk6 + 20));
  rmSync(full);
  const server: Served = await serveFolder(dir);
  try {
    await page.goto(server.url);
    const grid = page.getByRole('listbox', { name: 'Images' });
    const cut = grid.getByRole('option', { name: 'b_cut.exr' });
    // incomplete while it might still be written, an error once it stops changing (the host's settle time)
    await expect(cut).toHaveAttribute('title', /b_cut\.exr: the file is incomplete|b_cut\.exr is damaged/, { timeout: 20_000 });
    // once it stops changing its cell shows a thumbnail of the readable rows, the rest hatched, with a damaged badge
    await expect(cut.locator('.damage-badge')).toBeVisible({ timeout: 20_000 });
    await expect(cut).toHaveAttribute('title', /b_cut\.exr is damaged: 7 of 13 chunks could not be read and are hatched/);
    await expect.poll(() => thumbnailPixels(cut)).toMatchObject({ image: expect.any(Number), hatch: expect.any(Number) });
    const seen = await thumbnailPixels(cut);
    expect(seen.image).toBeGreaterThan(100);
    expect(seen.hatch).toBeGreaterThan(100);
    await shot(page, 'cut-short-cell');
    const stats = page.getByRole('region', { name: 'Statistics' });

    await grid.getByRole('option', { name: 'a_good.exr' }).click();
    await expect(page.getByRole('img', { name: 'Preview' })).toHaveAttribute('data-has-image', 'true');
    await expect(stats.locator('[data-key=stats-region]')).toContainText(`whole image, ${W}×${H}`);

    await cut.click();
    const partial = page.getByRole('status', { name: 'Part of this file could not be read' });
    await expect(partial).toContainText('6 of 13 chunks of b_cut.exr could be read');
    await expect(partial.locator('.missing-text')).toContainText(`Missing rows 96–${cutH - 1}: shown hatched`);
    await expect(partial.locator('.advice')).toContainText(/ends early/);
    await expect(page.getByRole('alert', { name: 'Cannot show this file' })).toHaveCount(0);
    await expect(page.getByRole('img', { name: 'Preview' })).toHaveAttribute('data-has-image', 'true');
    await expect.poll(() => overlayPaintedPx(page)).toBeGreaterThan(100);
    // the header is fine, so it is shown
    const header = page.locator('details.header-panel');
    await expect(header.locator('summary')).toHaveText('Header (version 2)');
    if (!(await header.evaluate((d: HTMLDetailsElement) => d.open))) await header.locator('summary').click();
    await expect(header.getByRole('table', { name: 'Part 0 header' })).toContainText('dataWindow');
    // Statistics are this file's, never the good file's, and leave out the missing rows: how many pixels is said, and
    // the mean is that of the rows that could be read (computed here from the values written)
    await expect(stats.locator('[data-key=stats-region]')).toContainText(`whole image, ${W}×${cutH}`);
    await expect(stats).not.toContainText(`${W}×${H}`);
    const missingPx = W * (cutH - 96);
    await expect(stats.locator('[data-key=stats-missing]')).toContainText(`${missingPx.toLocaleString('en-US')} pixels missing`);
    let sumR = 0;
    for (let y = 0; y < 96; y++) for (let x = 0; x < W; x++) sumR += Math.fround(0.2 + (x / W) * 0.4 + (y / cutH) * 0.4);
    const meanR = sumR / (W * 96);
    const shownMean = Number(await stats.locator('tr[data-channel=R] [data-key=mean]').textContent());
    expect(Math.abs(shownMean - meanR)).toBeLessThan(1e-3);
    // counting the missing pixels as 0 would give a mean under half of that
    expect(shownMean).toBeGreaterThan(meanR * 0.9);
    // the histogram counts the rows that could be read (64×200 is counted at level 0: one texel a pixel): no spike at 0
    // from the missing pixels, which read as 0
    const readablePx = W * 96;
    await expect.poll(async () => (await shownHistogram(page))?.totals[1], { timeout: 10_000 }).toBe(readablePx);
    expect(await shownHistogram(page)).toEqual({
      source: 'a',
      totals: [readablePx, readablePx, readablePx, readablePx],
      atZero: [0, 0, 0, 0],
    });
    await shot(page, 'cut-short-after-good');

    // the cut file as the reference B of the good file: a difference reads B at every pixel, so B's missing rows are
    // left out of the statistics and of the histogram of the difference image
    // by the keys (R: reference, C: the next compare mode), whichever toolbar controls fit the window
    await page.keyboard.press('r');
    await grid.getByRole('option', { name: 'a_good.exr' }).click();
    await expect(page.getByRole('img', { name: 'Preview' })).toHaveAttribute('data-has-image', 'true');
    // off → A/B flip → wipe → side by side → error → absolute error
    for (let i = 0; i < 5; i++) await page.keyboard.press('c');
    // A 64×48 and B 64×200 are measured over both data windows; B's rows 96-199 are missing (the reductions of the pair
    // on SwiftShader take seconds on a busy machine)
    await expect(stats.locator('p.pair')).toContainText(/Absolute error \(A − B\) · A: a_good\.exr .*, B: b_cut\.exr/, { timeout: 60_000 });
    await expect(stats.locator('[data-key=stats-region]')).toContainText(`whole image, ${W}×${cutH}`);
    await expect(stats.locator('[data-key=stats-missing]')).toContainText(`${(W * (cutH - 96)).toLocaleString('en-US')} pixels missing`);
    // the mean |A − B| of R over the rows B has (A counts as 0 below its data window), from the values written
    const f = Math.fround;
    let sumAbs = 0;
    for (let y = 0; y < 96; y++)
      for (let x = 0; x < W; x++) {
        const a = y < H ? f(Math.round(((x / W) * 0.4 + (y / H) * 0.3) * 16) / 16) : 0;
        sumAbs += Math.abs(f(a - f(0.2 + (x / W) * 0.4 + (y / cutH) * 0.4)));
      }
    const diffMean = Number(await stats.locator('tr[data-channel=R] [data-key=mean]').textContent());
    expect(Math.abs(diffMean - sumAbs / readablePx)).toBeLessThan(1e-3);
    // the Comparison metrics leave out B's missing rows too, and say how many pixels that is
    const comparison = page.getByRole('region', { name: 'Comparison' });
    await expect(comparison.locator('[data-key=metrics-missing]')).toContainText(
      `${(W * (cutH - 96)).toLocaleString('en-US')} pixels missing in B`,
    );
    await expect(comparison.locator('[data-key=pixels-differ]')).toContainText(`of ${readablePx.toLocaleString('en-US')} pixels differ`);
    const meanAbs = Number(await comparison.locator('tr[data-channel=R] [data-key=mean-abs-error]').textContent());
    expect(Math.abs(meanAbs - sumAbs / readablePx)).toBeLessThan(1e-3);
    await expect.poll(async () => (await shownHistogram(page))?.source, { timeout: 10_000 }).toBe('absolute-error');
    await expect.poll(async () => (await shownHistogram(page))?.totals[1], { timeout: 10_000 }).toBe(readablePx);
    const diff = (await shownHistogram(page))!;
    expect(diff.totals).toEqual([readablePx, readablePx, readablePx, readablePx]);
    // |A − B| is 0 only where the two happen to agree; the missing rows would put thousands there
    for (const zeros of diff.atZero) expect(zeros).toBeLessThan(64);
    await shot(page, 'cut-short-as-reference');
  } finally {
    server.stop();
  }
});

test('a file still being written says so in its cell and preview, and is shown once the writer finishes', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'exrview-writing-'));
  writeFileSync(join(dir, 'a_good.exr'), whole);
  const server: Served = await serveFolder(dir);
  // the writer: part of the header first; then the header and part of the chunks, a few bytes more each 300 ms until the
  // test lets it finish
  let lengthBytes = 100;
  const path = join(dir, 'render_0042.exr');
  let writing: NodeJS.Timeout | null = null;
  try {
    await page.goto(server.url);
    const grid = page.getByRole('listbox', { name: 'Images' });
    await expect(grid.getByRole('option', { name: 'a_good.exr' })).toBeVisible();
    writeFileSync(path, whole.subarray(0, lengthBytes));
    // growing, so that it reads as being written (not cut short), within the header (some 350 bytes) for this phase
    writing = setInterval(() => {
      lengthBytes = Math.min(250, lengthBytes + 2);
      writeFileSync(path, whole.subarray(0, lengthBytes));
    }, 300);

    const cell = grid.getByRole('option', { name: 'render_0042.exr' });
    await expect(cell).toHaveClass(/\bincomplete\b/);
    await expect(cell).toHaveAttribute('title', /render_0042\.exr is still being written/);
    await cell.click();
    const problem = page.getByRole('alert', { name: 'Cannot show this file' });
    await expect(problem).toContainText('render_0042.exr is still being written');
    await expect(problem.locator('.advice')).toContainText(/looks again/);
    await expect(page.locator('footer[role=status] .message')).toContainText(
      /render_0042\.exr: .*(still being written|incomplete|outside the file)/,
    );
    await shot(page, 'still-being-written');

    // its header whole and some chunks there: those are shown, and the preview says how many instead of the card
    clearInterval(writing);
    lengthBytes = Math.floor(whole.length * 0.4);
    writeFileSync(path, whole.subarray(0, lengthBytes));
    writing = setInterval(() => {
      lengthBytes = Math.min(whole.length - 64, lengthBytes + 32);
      writeFileSync(path, whole.subarray(0, lengthBytes));
    }, 300);
    await expect(page.getByRole('status', { name: 'Rendering progress' })).toHaveText(/rendering… [0-2] of 3 chunks/);
    await expect(cell).toHaveClass(/\bincomplete\b/);
    await expect(problem).toHaveCount(0);

    // the writer finishes: without a click the cell loses its mark and the preview shows the image
    clearInterval(writing);
    writing = null;
    writeFileSync(path, whole);
    await expect(cell).not.toHaveClass(/\bbad\b/, { timeout: 20_000 });
    await expect(problem).toHaveCount(0);
    await expect(page.getByRole('img', { name: 'Preview' })).toHaveAttribute('data-has-image', 'true');
    await expect(page.getByRole('region', { name: 'Statistics' }).locator('[data-key=stats-region]')).toContainText(
      `whole image, ${W}×${H}`,
    );
    await shot(page, 'written');
  } finally {
    if (writing) clearInterval(writing);
    server.stop();
  }
});

test('a folder without any EXR says so instead of an empty grid', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'exrview-noexr-'));
  writeFileSync(join(dir, 'notes.txt'), 'renders go here\n');
  writeFileSync(join(dir, 'plate.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const server: Served = await serveFolder(dir);
  try {
    await page.goto(server.url);
    const note = page.getByRole('note');
    await expect(note).toContainText(/No EXR files in/);
    await expect(note).toContainText(/open another folder/);
    await expect(page.getByRole('listbox', { name: 'Images' }).getByRole('option')).toHaveCount(0);
    await shot(page, 'no-exr');
  } finally {
    server.stop();
  }
});

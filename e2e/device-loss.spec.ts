// The GPU device lost under the viewer (device.destroy() on SwiftShader, in browser mode): a new device is made, the
// image, reference and thumbnails on screen come back from the host, the status line says what happened in one line,
// and nothing the artist set changes (folder, selection, zoom, exposure, channel, compare). Then an image over the GPU
// cache's budget is refused with the reason in the preview's place, and the grid keeps its thumbnails. A sequence
// playing when the device goes plays on, on slots made on the new device.
import { buildProject, floatPlane, serveFolder, type Served } from './serve-fixture.js';
import { test, expect, type Locator, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const W = 96,
  H = 64;

let server: Served | null = null;
let dir = '';
let sequenceServer: Served | null = null;
let sequenceDir = '';

test.beforeAll(async () => {
  buildProject();
  // a dynamic import: the lint rule's 'electron/*' pattern (meant for the electron package) also matches this path
  const { writeExrFile } = await import('../codec/writer.js');
  dir = mkdtempSync(join(tmpdir(), 'exrview-e2e-device-loss-'));
  const box = { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 };
  const write = (name: string, f: (x: number, y: number, c: number) => number): void =>
    writeExrFile(join(dir, name), [
      {
        dataWindow: box,
        compression: 'zip',
        channels: ['R', 'G', 'B'].map((n, c) => ({ name: n, pixelType: 'float' as const, data: floatPlane(W, H, (x, y) => f(x, y, c)) })),
      },
    ]);
  write('a_plate.exr', (x, y, c) => (x / W) * (c === 0 ? 0.9 : 0.4) + (y / H) * 0.1);
  write('b_plate.exr', (x, y, c) => (x / W) * (c === 1 ? 0.8 : 0.3) + 0.05);
  write('c_plate.exr', (x, y, c) => (((x >> 3) + (y >> 3)) % 2 ? 0.7 : 0.1 * (c + 1)));
  server = await serveFolder(dir);
  const { writeSequence } = await import('../host/samples/sequence.js');
  sequenceDir = mkdtempSync(join(tmpdir(), 'exrview-e2e-device-loss-sequence-'));
  writeSequence({ dir: sequenceDir, name: 'shot', frames: 24, widthPx: 160, heightPx: 90, compression: 'zip', framesPerSecond: 24 });
  sequenceServer = await serveFolder(sequenceDir);
});
test.afterAll(() => {
  server?.stop();
  sequenceServer?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (sequenceDir) rmSync(sequenceDir, { recursive: true, force: true });
});

interface EngineLike {
  device: GPUDevice;
  capture(which: string): Promise<{ data: Uint8Array }>;
  hasThumbnail(fileId: string): boolean;
  stats(): { deviceLosses: number; lastLossReason: string; imageUploads: number };
  restored(): Promise<void>;
  fitWithin(): { maxSidePx: number; maxPixels: number };
  setBudget(bytes: number): void;
}
interface AppLike {
  store: { getState(): Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  controller: { engine: EngineLike; thumbsShown: number; zoomBy(f: number): void; actions: Record<string, (...a: unknown[]) => void> };
}
/** The page's handle on the app (renderer/main.tsx), as this spec reads it. */
type PageWindow = { exrviewApp: AppLike };

/** What the artist set and sees listed: none of it may change when the device is lost. */
const artistState = (): string => {
  const s = (window as unknown as PageWindow).exrviewApp.store.getState();
  const { lut, ocio, ...display } = s.view.display;
  const r = s.compare.reference;
  return JSON.stringify({
    folderId: s.library.folderId,
    files: s.library.files.map((f: { id: string; name: string; status: string }) => [f.id, f.name, f.status]),
    selection: s.library.selection,
    current: s.image.currentFileId,
    part: s.image.part,
    layer: s.image.layer,
    channel: s.image.channel,
    panZoom: s.view.panZoom,
    display,
    lut: lut ? 'set' : null,
    ocio: ocio ? 'set' : null,
    compare: { mode: s.compare.mode, reference: r && [r.file.id, r.part, r.layer, r.channel] },
  });
};

/** Mean of the colour bytes the next frame draws on a canvas (alpha left out; RGBA or BGRA alike). */
const canvasMean = async (which: string): Promise<number> => {
  const c = await (window as unknown as PageWindow).exrviewApp.controller.engine.capture(which);
  let sum = 0;
  for (let i = 0; i < c.data.length; i += 4) sum += c.data[i]! + c.data[i + 1]! + c.data[i + 2]!;
  return sum / ((c.data.length / 4) * 3);
};

/**
 * The device goes as a driver reset would take it, every texture with it (kept as `lostDevice` for the checks): the
 * status line says it was set up again, and the engine's restoring is awaited. The status line is returned.
 */
async function loseDevice(page: Page): Promise<Locator> {
  await page.evaluate(() => {
    const engine = (window as unknown as PageWindow).exrviewApp.controller.engine;
    (window as unknown as { lostDevice: GPUDevice }).lostDevice = engine.device;
    engine.device.destroy();
  });
  const status = page.locator('footer.status .message');
  await expect(status).toContainText(/The GPU device was lost \(destroyed[^)]*\) and was set up again/, { timeout: 60_000 });
  await page.evaluate(() => (window as unknown as PageWindow).exrviewApp.controller.engine.restored());
  return status;
}

async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('.preview-bar [role=status]')?.textContent?.includes('loading'));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

test('device loss: a new device, what was on screen back from the host, said in one line, nothing the artist set changed', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(server!.url);
  const grid = page.getByRole('listbox', { name: 'Images' });
  await expect(grid.getByRole('option')).toHaveCount(3, { timeout: 60_000 });
  await page.waitForFunction(() => (window as unknown as PageWindow).exrviewApp.controller.thumbsShown >= 3, null, { timeout: 60_000 });

  // a reference, another image on screen, a compare mode, exposure, zoom and a channel: what the artist set
  await grid.getByRole('option', { name: 'a_plate.exr' }).click();
  await settle(page);
  await page.evaluate(() => (window as unknown as PageWindow).exrviewApp.controller.actions.toggleReference!());
  await grid.getByRole('option', { name: 'c_plate.exr' }).click();
  await grid.getByRole('option', { name: 'b_plate.exr' }).click({ modifiers: ['Control'] });
  await settle(page);
  await page.evaluate(() => {
    const { controller } = (window as unknown as PageWindow).exrviewApp;
    const actions = controller.actions;
    actions.setDisplay!({ exposureEv: 1.5 });
    actions.setCompareMode!('wipe');
    controller.zoomBy(2);
  });
  await settle(page);
  const before = await page.evaluate(artistState);
  expect(JSON.parse(before)).toMatchObject({ compare: { mode: 'wipe' }, display: { exposureEv: 1.5 } });
  expect(JSON.parse(before).selection).toHaveLength(2);
  expect(JSON.parse(before).compare.reference).not.toBeNull();
  const previewBefore = await page.evaluate(canvasMean, 'preview');
  const gridBefore = await page.evaluate(canvasMean, 'grid');
  expect(previewBefore, 'the preview draws the image before the loss').toBeGreaterThan(20);
  expect(gridBefore, 'the grid draws its thumbnails before the loss').toBeGreaterThan(10);
  await page.screenshot({ path: test.info().outputPath('before-loss.png') });

  // what was uploaded before the loss: the new device gets it all again
  const uploadsBefore = await page.evaluate(() => (window as unknown as PageWindow).exrviewApp.controller.engine.stats().imageUploads);
  const status = await loseDevice(page);
  await expect(status).toContainText('nothing else changed');
  await settle(page);
  const after = await page.evaluate(() => {
    const engine = (window as unknown as PageWindow).exrviewApp.controller.engine;
    const s = engine.stats();
    return {
      newDevice: engine.device !== (window as unknown as { lostDevice: GPUDevice }).lostDevice,
      losses: s.deviceLosses,
      reason: s.lastLossReason,
      uploads: s.imageUploads,
    };
  });
  expect(after).toMatchObject({ newDevice: true, losses: 1, reason: expect.stringMatching(/^destroyed/) });
  // the image and the reference went up again onto the new device, from the host
  expect(after.uploads).toBeGreaterThan(uploadsBefore);
  expect(await page.evaluate(artistState)).toBe(before);
  // the same picture: the image, wiped against the reference, at the same zoom and exposure
  await expect.poll(() => page.evaluate(canvasMean, 'preview'), { timeout: 60_000 }).toBeCloseTo(previewBefore, 0);
  // the grid's thumbnails came back too
  await page.waitForFunction(
    () => {
      const { store, controller } = (window as unknown as PageWindow).exrviewApp;
      return store.getState().library.files.every((f: { id: string }) => controller.engine.hasThumbnail(f.id));
    },
    null,
    { timeout: 60_000 },
  );
  await expect.poll(() => page.evaluate(canvasMean, 'grid'), { timeout: 60_000 }).toBeCloseTo(gridBefore, 0);
  await expect(page.getByRole('alert', { name: 'Cannot show this file' })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('after-loss.png') });

  // an image the GPU cache cannot hold (its budget lowered below one image, the request not reduced to fit): refused
  // with the reason where the image would be; the grid keeps every thumbnail
  await page.evaluate(() => {
    const engine = (window as unknown as PageWindow).exrviewApp.controller.engine;
    engine.fitWithin = () => ({ maxSidePx: 1 << 20, maxPixels: 2 ** 40 });
    engine.setBudget(64 << 10);
  });
  await grid.getByRole('option', { name: 'c_plate.exr' }).click();
  const refusal = page.getByRole('alert', { name: 'Cannot show this file' });
  await expect(refusal).toContainText("over the GPU cache's budget", { timeout: 60_000 });
  await expect(refusal).toContainText('The file is not at fault');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  expect(
    await page.evaluate(() => {
      const { store, controller } = (window as unknown as PageWindow).exrviewApp;
      return store.getState().library.files.filter((f: { id: string }) => controller.engine.hasThumbnail(f.id)).length;
    }),
  ).toBe(3);
  expect(await page.evaluate(canvasMean, 'grid')).toBeGreaterThan(gridBefore * 0.8);
  await page.screenshot({ path: test.info().outputPath('refused.png') });
  expect(pageErrors).toEqual([]);
});

interface PlayerLike {
  records: { outcome: string; frame: number }[];
  damagedFrames: number[];
  presented: { frame: number; kind: string } | null;
}
type PlayingWindow = {
  exrviewApp: {
    store: { getState(): { playback: { playing: boolean } } };
    controller: { player: PlayerLike; engine: EngineLike & { shownFileId(): string | null } };
  };
};

test('device loss while a sequence plays: it plays on, its frames put on slots made on the new device', async ({ page }) => {
  test.setTimeout(180_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(sequenceServer!.url);
  const grid = page.getByRole('listbox', { name: 'Images' });
  await grid.getByRole('option', { name: 'shot.####.exr 1001-1024' }).click();
  const player = page.getByRole('group', { name: 'Player' });
  await expect(player).toBeVisible();
  // a rate a software GPU on a shared two-core machine keeps up with (see browser-sequence.spec.ts)
  await player.getByRole('spinbutton', { name: 'Frame rate' }).fill('4');
  await player.getByRole('button', { name: 'Play' }).click();
  const shownCount = (): Promise<number> =>
    page.evaluate(
      () => (window as unknown as PlayingWindow).exrviewApp.controller.player.records.filter((r) => r.outcome === 'shown').length,
    );
  await expect.poll(shownCount, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);

  const shownBefore = await shownCount();
  await loseDevice(page);

  // it plays on: frames are shown again, each of them its own file from a slot on the new device (the still image put
  // back after the loss is one file), and none is marked damaged for the device's sake
  const filesShown = new Set<string>();
  await expect
    .poll(
      async () => {
        const now = await page.evaluate(() => {
          const { controller } = (window as unknown as PlayingWindow).exrviewApp;
          return { file: controller.engine.shownFileId(), shown: controller.player.records.filter((r) => r.outcome === 'shown').length };
        });
        if (now.file && now.shown > shownBefore) filesShown.add(now.file);
        return filesShown.size;
      },
      { timeout: 60_000, intervals: [100] },
    )
    .toBeGreaterThanOrEqual(3);
  expect(await shownCount()).toBeGreaterThanOrEqual(shownBefore + 3);
  const after = await page.evaluate(() => {
    const { store, controller } = (window as unknown as PlayingWindow).exrviewApp;
    return {
      playing: store.getState().playback.playing,
      damaged: controller.player.damagedFrames,
      presented: controller.player.presented?.kind,
      newDevice: controller.engine.device !== (window as unknown as { lostDevice: GPUDevice }).lostDevice,
      losses: controller.engine.stats().deviceLosses,
    };
  });
  expect(after).toEqual({ playing: true, damaged: [], presented: 'shown', newDevice: true, losses: 1 });
  expect(await page.evaluate(canvasMean, 'preview'), 'the frame on screen is drawn').toBeGreaterThan(5);
  await page.screenshot({ path: test.info().outputPath('playing-after-loss.png') });
  expect(pageErrors).toEqual([]);
});

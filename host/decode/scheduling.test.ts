// Priorities and cancellation on a real one-worker pool: previews before visible before hidden thumbnails, setVisible re-orders, cancel drops, shared work runs once, prefetch fills the RAM cache.

import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CANCELLED_MESSAGE, type FileEntry } from '../../contract/host-api.js';
import { createHost, type Host } from '../host.js';
import { tempDir, writeRgb } from '../../testing/host/test-files.js';

let dir: ReturnType<typeof tempDir>;
let userData: ReturnType<typeof tempDir>;
let host: Host;
let files: FileEntry[];
let big: FileEntry;

beforeEach(async () => {
  dir = tempDir();
  userData = tempDir('exrview-userdata-');
  // the blocker keeps the only worker busy while the others queue up behind it
  writeRgb(join(dir.path, 'aa-blocker.exr'), 2048, 1024, (x, y) => [x / 2048, y / 1024, Math.sin(x * y), 0.5], {
    compression: 'piz',
    withAlpha: true,
  });
  for (let i = 1; i <= 5; i++) writeRgb(join(dir.path, `img${i}.exr`), 64, 64, (x, y) => [i, x / 64, y / 64]);
  host = createHost({ userDataDir: userData.path, workers: 1, prefetch: true });
  const folder = (await host.openFolder(dir.path))!;
  files = (await host.listFiles(folder.id)).filter((f) => f.name.startsWith('img'));
  big = (await host.listFiles(folder.id)).find((f) => f.name === 'aa-blocker.exr')!;
});

afterEach(async () => {
  await host.close();
  dir.remove();
  userData.remove();
});

const file = (n: number) => files[n - 1]!;
/** Lets queued requests get past their disk-cache look-up and into the pool. */
const settle = () => new Promise((r) => setTimeout(r, 50));

it('runs previews before visible thumbnails, and those before hidden ones', async () => {
  const order: string[] = [];
  const track = (label: string, p: Promise<unknown>) => p.then(() => order.push(label));
  const blocker = track('blocker', host.decodeImage({ requestId: 'blocker', fileId: big.id, part: 0, priority: 'preview' }));
  const jobs = [
    track('hidden1', host.getThumbnail({ requestId: 'h1', fileId: file(1).id, longSidePx: 16, priority: 'thumbnail-hidden' })),
    track('hidden2', host.getThumbnail({ requestId: 'h2', fileId: file(2).id, longSidePx: 16, priority: 'thumbnail-hidden' })),
    track('visible3', host.getThumbnail({ requestId: 'v3', fileId: file(3).id, longSidePx: 16, priority: 'thumbnail-visible' })),
  ];
  await settle();
  jobs.push(track('preview4', host.decodeImage({ requestId: 'p4', fileId: file(4).id, part: 0, priority: 'preview' })));
  await Promise.all([blocker, ...jobs]);
  expect(order[0]).toBe('blocker');
  expect(order.slice(1, 3)).toEqual(['preview4', 'visible3']);
  expect(order.slice(3).sort()).toEqual(['hidden1', 'hidden2']);
});

it('moves the thumbnails that became visible to the front of the queue', async () => {
  const order: string[] = [];
  const blocker = host.decodeImage({ requestId: 'blocker', fileId: big.id, part: 0, priority: 'preview' });
  const jobs = [1, 2, 3].map((n) =>
    host
      .getThumbnail({ requestId: `t${n}`, fileId: file(n).id, longSidePx: 16, priority: 'thumbnail-visible' })
      .then(() => order.push(`t${n}`)),
  );
  await settle();
  // the user scrolled: only image 3 is on screen now
  host.setVisible([file(3).id], null);
  await Promise.all([blocker, ...jobs]);
  expect(order[0]).toBe('t3');
});

it('cancels a queued request, and a running one, with the cancelled message; the rest still complete', async () => {
  const blocker = host.decodeImage({ requestId: 'blocker', fileId: big.id, part: 0, priority: 'preview' });
  const a = host.getThumbnail({ requestId: 'a', fileId: file(1).id, longSidePx: 16, priority: 'thumbnail-visible' });
  const b = host.getThumbnail({ requestId: 'b', fileId: file(2).id, longSidePx: 16, priority: 'thumbnail-visible' });
  await settle();
  host.cancel('a');
  host.cancel('blocker');
  await expect(a).rejects.toThrow(new RegExp(`^${CANCELLED_MESSAGE}`));
  await expect(blocker).rejects.toThrow(new RegExp(`^${CANCELLED_MESSAGE}`));
  const thumb = await b;
  expect(thumb.widthPx).toBe(16);
  // a cancelled request's id may be used again, and the work was not left half-done in a cache
  const again = await host.getThumbnail({ requestId: 'a', fileId: file(1).id, longSidePx: 16, priority: 'thumbnail-visible' });
  expect(again.source).toBe('full-decode');
});

it('runs identical requests once and cancelling one of them leaves the other', async () => {
  const blocker = host.decodeImage({ requestId: 'blocker', fileId: big.id, part: 0, priority: 'preview' });
  const first = host.decodeImage({ requestId: 'x1', fileId: file(1).id, part: 0, priority: 'preview' });
  const second = host.decodeImage({ requestId: 'x2', fileId: file(1).id, part: 0, priority: 'preview' });
  host.cancel('x1');
  await expect(first).rejects.toThrow(/cancelled/);
  const image = await second;
  await blocker;
  expect(image.source).toBe('decode');
  expect(host.stats.decodes).toBe(2);
});

it('decodes the images next to the current one ahead, into the RAM cache', async () => {
  host.setVisible(
    files.map((f) => f.id),
    file(3).id,
  );
  // neighbours in folder order: img2 and img4
  for (let i = 0; i < 100 && host.stats.decodes < 2; i++) await new Promise((r) => setTimeout(r, 20));
  const next = await host.decodeImage({ requestId: 'n', fileId: file(4).id, part: 0, priority: 'preview' });
  const previous = await host.decodeImage({ requestId: 'p', fileId: file(2).id, part: 0, priority: 'preview' });
  expect(next.source).toBe('ram-cache');
  expect(previous.source).toBe('ram-cache');
  expect(host.stats.prefetches).toBe(2);
});

it('drops prefetches of images that are no longer next to the current one', async () => {
  const blocker = host.decodeImage({ requestId: 'blocker', fileId: big.id, part: 0, priority: 'preview' });
  host.setVisible([], file(2).id);
  // moved on before the prefetches ran: img1 and img3 are not wanted any more
  host.setVisible([], file(5).id);
  await blocker;
  await settle();
  const one = await host.decodeImage({ requestId: 'one', fileId: file(1).id, part: 0, priority: 'preview' });
  expect(one.source).toBe('decode');
  const four = await host.decodeImage({ requestId: 'four', fileId: file(4).id, part: 0, priority: 'preview' });
  expect(four.source).toBe('ram-cache');
});

it("keeps a page's own request at prefetch priority (a compare reference's planes) when the current image moves on", async () => {
  const blocker = host.decodeImage({ requestId: 'blocker', fileId: big.id, part: 0, priority: 'preview' });
  // the page asks for img1's planes at prefetch priority (not urgent), then shows img5: img1 is not next to it
  const asked = host.decodeImage({ requestId: 'reference', fileId: file(1).id, part: 0, priority: 'prefetch' });
  host.setVisible([], file(5).id);
  await blocker;
  // the host's own prefetches of img1's neighbours are dropped; the page's request is the page's to cancel
  const got = await asked;
  expect(got.fileId).toBe(file(1).id);
});

// The header cache: one version of a file per entry, least recently used out past the budget, a read on a miss.

import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir, useHostFixture, writeRgb } from '../../testing/host/test-files.js';
import { readHeaderParts } from '../headers/summary.js';
import { HeaderCache } from './header-cache.js';

let dir: ReturnType<typeof tempDir> | null = null;
afterEach(() => dir?.remove());

it('gives a kept header only for the same size and mtime, and reads one it does not have', async () => {
  dir = tempDir();
  const path = join(dir.path, 'a.exr');
  writeRgb(path, 8, 4, () => [1, 0, 0]);
  const parts = await readHeaderParts(path);
  const cache = new HeaderCache();
  cache.put(path, 100, 5, parts, 400);
  expect(cache.get(path, 100, 5)).toBe(parts);
  expect(cache.get(path, 100, 6)).toBeNull();
  expect(cache.get(path, 101, 5)).toBeNull();
  // a miss is read from the file and kept; the next ask is answered at once
  const read = cache.partsOf(path, 7, 7);
  expect(read).toBeInstanceOf(Promise);
  expect((await read)[0]!.dataWindow).toEqual(parts[0]!.dataWindow);
  expect(Array.isArray(cache.partsOf(path, 7, 7))).toBe(true);
  expect({ hits: cache.hits, reads: cache.reads }).toEqual({ hits: 2, reads: 1 });
  cache.forget(path);
  expect(cache.get(path, 7, 7)).toBeNull();
  expect(cache.sizeBytes).toBe(0);
});

it('drops the least recently used past its budget', () => {
  const cache = new HeaderCache(3 * (2 * 1000 + 4096));
  for (const name of ['a', 'b', 'c']) cache.put(name, 1, 1, [], 1000);
  // a used last: b is the oldest now
  expect(cache.get('a', 1, 1)).not.toBeNull();
  cache.put('d', 1, 1, [], 1000);
  expect(cache.get('b', 1, 1)).toBeNull();
  expect(['a', 'c', 'd'].every((n) => cache.get(n, 1, 1) !== null)).toBe(true);
  expect(cache.sizeBytes).toBe(3 * (2 * 1000 + 4096));
});

describe('in the host', () => {
  const fx = useHostFixture();

  it('plans thumbnails and decodes from the headers the library read, and from the new header once a file changes', async () => {
    const path = join(fx.dir, 'img.exr');
    writeRgb(path, 32, 16, () => [0.5, 0.25, 1]);
    const folder = (await fx.host.openFolder(fx.dir))!;
    const [entry] = await fx.host.listFiles(folder.id);
    const thumb = await fx.host.getThumbnail({ requestId: 't', fileId: entry!.id, longSidePx: 8, priority: 'thumbnail-visible' });
    expect([thumb.widthPx, thumb.heightPx]).toEqual([8, 4]);
    await fx.host.decodeImage({ requestId: 'd', fileId: entry!.id, part: 0, priority: 'preview' });
    expect(fx.host.stats.headers.reads).toBe(0);
    expect(fx.host.stats.headers.hits).toBeGreaterThanOrEqual(2);

    // the file is rewritten larger: the watcher reads its new header, and nothing is planned from the old one
    const changed = new Promise<void>((resolve) => {
      const off = fx.host.onEvent((e) => {
        if (e.type === 'files-changed' && e.files.some((f) => f.id === entry!.id && f.summary?.parts[0]?.dataWindow[2] === 63)) {
          off();
          resolve();
        }
      });
    });
    writeRgb(path, 64, 16, () => [0.5, 0.25, 1]);
    await changed;
    const image = await fx.host.decodeImage({ requestId: 'd2', fileId: entry!.id, part: 0, priority: 'preview' });
    expect(image.widthPx).toBe(64);
    expect(fx.host.stats.headers.reads).toBe(0);
  });
});

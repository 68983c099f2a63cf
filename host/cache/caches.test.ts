// RAM cache (hits, channel subsets, LRU eviction under a budget) and the disk thumbnail cache across two hosts: reuse, invalidation on change, corrupt files rebuilt.

import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileEntry } from '../../contract/host-api.js';
import { createHost, type Host, type HostOptions } from '../host.js';
import { EventLog, tempDir, writeRgb } from '../../testing/host/test-files.js';
import { parseCacheFile, encodeCacheFile, CACHE_FORMAT } from './disk-cache.js';

let dir: ReturnType<typeof tempDir>;
let userData: ReturnType<typeof tempDir>;
const hosts: Host[] = [];

beforeEach(() => {
  dir = tempDir();
  userData = tempDir('exrview-userdata-');
  writeRgb(join(dir.path, 'one.exr'), 128, 64, (x) => [x / 128, 0.5, 0.25]);
  writeRgb(join(dir.path, 'two.exr'), 128, 64, () => [2, 1, 0.5]);
});

afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  dir.remove();
  userData.remove();
});

async function open(options: Partial<HostOptions> = {}): Promise<{ host: Host; files: FileEntry[]; folderId: string }> {
  const host = createHost({
    userDataDir: userData.path,
    workers: 1,
    prefetch: false,
    timing: { watchDebounceMs: 30, settlePollMs: 60, settleMs: 600 },
    ...options,
  });
  hosts.push(host);
  const folder = (await host.openFolder(dir.path))!;
  return { host, files: await host.listFiles(folder.id), folderId: folder.id };
}

const thumbRequest = (fileId: string, requestId = `t-${fileId}`) => ({
  requestId,
  fileId,
  longSidePx: 32,
  priority: 'thumbnail-visible' as const,
});

function cacheFiles(): string[] {
  const root = join(userData.path, 'thumbnails');
  return readdirSync(root).flatMap((d) => readdirSync(join(root, d)).map((n) => join(root, d, n)));
}

describe('RAM cache', () => {
  it('answers a second decode from RAM, and a channel subset from the full decode', async () => {
    const { host, files } = await open();
    const first = await host.decodeImage({ requestId: 'a', fileId: files[0]!.id, part: 0, priority: 'preview' });
    expect(first.source).toBe('decode');
    expect(first.timings.decompressMs).toBeGreaterThan(0);
    const second = await host.decodeImage({ requestId: 'b', fileId: files[0]!.id, part: 0, priority: 'preview' });
    expect(second.source).toBe('ram-cache');
    expect(new Uint16Array(second.planes[0]!.data)).toEqual(new Uint16Array(first.planes[0]!.data));
    const red = await host.decodeImage({ requestId: 'c', fileId: files[0]!.id, part: 0, channels: ['R'], priority: 'preview' });
    expect(red.source).toBe('ram-cache');
    expect(red.planes.map((p) => p.name)).toEqual(['R']);
    expect(host.stats.ram.count).toBe(1);
  });

  it('keeps the most recently used images within its byte budget', async () => {
    // one 128x64 RGB half image is 48 KiB: room for one, not two
    const { host, files } = await open({ ramBudgetBytes: 64 * 1024 });
    const decode = (f: FileEntry, id: string) => host.decodeImage({ requestId: id, fileId: f.id, part: 0, priority: 'preview' });
    await decode(files[0]!, '1');
    await decode(files[1]!, '2');
    expect(host.stats.ram.sizeBytes).toBeLessThanOrEqual(64 * 1024);
    expect((await decode(files[1]!, '3')).source).toBe('ram-cache');
    expect((await decode(files[0]!, '4')).source).toBe('decode');
    expect((await host.getInfo()).ramCacheBudgetBytes).toBe(64 * 1024);
  });
});

describe('disk cache', () => {
  it('serves thumbnails made by an earlier host from the same user data folder', async () => {
    const a = await open();
    const made = await a.host.getThumbnail(thumbRequest(a.files[0]!.id));
    expect(made.source).toBe('full-decode');
    expect([made.widthPx, made.heightPx]).toEqual([32, 16]);
    await a.host.close();

    const b = await open();
    const again = await b.host.getThumbnail(thumbRequest(b.files[0]!.id));
    expect(again.source).toBe('disk-cache');
    expect(new Uint16Array(again.rgbaHalf)).toEqual(new Uint16Array(made.rgbaHalf));
    // another size is another thumbnail
    const bigger = await b.host.getThumbnail({ ...thumbRequest(b.files[0]!.id, 'x'), longSidePx: 64 });
    expect(bigger.source).toBe('full-decode');
  });

  it('makes the thumbnail again when the image changed, and drops the old one', async () => {
    const a = await open();
    await a.host.getThumbnail(thumbRequest(a.files[1]!.id));
    await a.host.close();
    expect(cacheFiles()).toHaveLength(1);

    const b = await open();
    const log = new EventLog();
    b.host.onEvent(log.listener);
    const path = join(dir.path, 'two.exr');
    const before = statSync(path).mtime;
    writeRgb(path, 128, 64, () => [0, 0, 4]);
    utimesSync(path, before, new Date(before.getTime() + 5000));
    await log.next((e) => e.type === 'files-changed');
    const entry = (await b.host.listFiles(b.folderId)).find((f) => f.name === 'two.exr')!;
    const fresh = await b.host.getThumbnail(thumbRequest(entry.id, 'after'));
    expect(fresh.source).toBe('full-decode');
    const px = new Uint16Array(fresh.rgbaHalf);
    expect(px[0]).toBe(0); // red was 2, is 0 now
    await b.host.close();
    expect(cacheFiles()).toHaveLength(1);
  });

  it('rebuilds a cache file that is corrupt or cut short', async () => {
    const a = await open();
    const made = await a.host.getThumbnail(thumbRequest(a.files[0]!.id));
    await a.host.close();
    const [file] = cacheFiles();
    const bytes = readFileSync(file!);
    bytes[bytes.length - 3]! ^= 0xff; // one flipped byte in the pixels
    writeFileSync(file!, bytes);

    const b = await open();
    const rebuilt = await b.host.getThumbnail(thumbRequest(b.files[0]!.id));
    expect(rebuilt.source).toBe('full-decode');
    expect(b.host.stats.disk.corrupt).toBe(1);
    expect(new Uint16Array(rebuilt.rgbaHalf)).toEqual(new Uint16Array(made.rgbaHalf));
    await b.host.close();

    writeFileSync(file!, readFileSync(file!).subarray(0, 100));
    const c = await open();
    expect((await c.host.getThumbnail(thumbRequest(c.files[0]!.id))).source).toBe('full-decode');
    expect(c.host.stats.disk.corrupt).toBe(1);
    await c.host.close();

    const d = await open();
    expect((await d.host.getThumbnail(thumbRequest(d.files[0]!.id))).source).toBe('disk-cache');
  });

  it('reads back what it writes and refuses every damaged form', () => {
    const meta = {
      format: CACHE_FORMAT,
      path: '/x.exr',
      sizeBytes: 10,
      mtimeMs: 5,
      params: 'p',
      widthPx: 2,
      heightPx: 1,
      madeFrom: 'full-decode',
    };
    const payload = new Uint16Array([1, 2, 3, 4, 5, 6, 7, 8]).buffer;
    const encoded = Buffer.concat(encodeCacheFile({ meta, rgbaHalf: payload }));
    const back = parseCacheFile(encoded)!;
    expect(back.meta).toEqual(meta);
    expect(new Uint16Array(back.rgbaHalf)).toEqual(new Uint16Array(payload));
    for (let i = 0; i < encoded.length; i += 7) {
      const damaged = Buffer.from(encoded);
      damaged[i]! ^= 0x10;
      expect(parseCacheFile(damaged), `byte ${i} flipped`).toBeNull();
    }
    expect(parseCacheFile(encoded.subarray(0, encoded.length - 1))).toBeNull();
    expect(parseCacheFile(Buffer.concat([encoded, Buffer.from([0])]))).toBeNull();
  });
});

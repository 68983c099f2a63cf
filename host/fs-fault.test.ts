// Faults on real files and folders: a file truncated or rewritten while it is read, a folder deleted while open, a disk full during export and during the thumbnail cache write.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExrError, ExrReader, openFileSource } from '../codec/index.js';
import { isEngineReason } from '../testing/codec/fuzz/target.js';
import type { FileEntry, HostEvent, ViewTransform } from '../contract/host-api.js';
import { createHost, type Host } from './host.js';
import { EventLog, rgbBytes, tempDir, writeRgb } from '../testing/host/test-files.js';

const TIMING = { watchDebounceMs: 30, settlePollMs: 60, settleMs: 800 };
const noise = (x: number, y: number): [number, number, number] => {
  const v = (Math.imul(x * 7919 + 1, y * 104729 + 3) >>> 8) / 2 ** 24;
  return [v, v * 0.5, 1 - v];
};
const view: ViewTransform = { exposureEv: 0, offset: 0, gamma: 1, displayTransform: 'srgb', layer: '', channelMode: 'rgb' };

/** A message a user can act on: not empty, not an engine error's text. */
function expectClear(message: string): void {
  expect(message.length).toBeGreaterThan(10);
  expect(isEngineReason(message), message).toBe(false);
  expect(message).not.toMatch(/\bat .*\.(ts|js|mjs):\d+/); // no stack trace
}

/** Waits until `done()` holds (background work such as a cache write), failing after `timeoutMs`. */
async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const t0 = Date.now();
  while (!done()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every file under a folder (names), for "nothing half-written left behind". */
function listTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(join(d, e.name).slice(dir.length + 1));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort();
}

let dir: ReturnType<typeof tempDir>;
let userData: ReturnType<typeof tempDir>;
let host: Host;
let log: EventLog;

beforeEach(() => {
  dir = tempDir();
  userData = tempDir('exrview-userdata-');
  host = createHost({ userDataDir: userData.path, workers: 1, prefetch: false, timing: TIMING });
  log = new EventLog();
  host.onEvent(log.listener);
});

afterEach(async () => {
  await host.close();
  dir.remove();
  userData.remove();
});

const changedTo = (name: string, status: FileEntry['status']) => (e: HostEvent) =>
  e.type === 'files-changed' && e.files.some((f) => f.name === name && f.status === status);

describe('a file truncated or rewritten while it is read', () => {
  it('the codec: a read past the new end is an io error that says so', () => {
    const path = join(dir.path, 'big.exr');
    writeRgb(path, 256, 256, noise);
    const source = openFileSource(path);
    try {
      const reader = ExrReader.open(source);
      truncateSync(path, Math.floor(source.sizeBytes / 2));
      let error: unknown;
      try {
        reader.decode();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ExrError);
      expect((error as ExrError).kind).toBe('io');
      expect((error as ExrError).message).toMatch(/truncated while open/);
    } finally {
      source.close();
    }
  });

  it('the codec: bytes replaced under an open reader decode or are refused with an ExrError', () => {
    const path = join(dir.path, 'big.exr');
    writeRgb(path, 256, 256, noise);
    const other = rgbBytes(256, 256, (x, y) => noise(y, x), { compression: 'piz' });
    const source = openFileSource(path);
    try {
      const reader = ExrReader.open(source);
      // rewritten in place (not by rename): the open descriptor sees the new bytes under the old offsets
      writeFileSync(path, other);
      try {
        reader.decode();
      } catch (e) {
        expect(e).toBeInstanceOf(ExrError);
        expectClear((e as ExrError).message);
      }
    } finally {
      source.close();
    }
  });

  it('the host: a decode racing a truncation settles with a clear message; the library marks the file and recovers when it is whole', async () => {
    writeRgb(join(dir.path, 'big.exr'), 512, 512, noise);
    writeRgb(join(dir.path, 'ok.exr'), 32, 32, noise);
    const complete = readFileSync(join(dir.path, 'big.exr'));
    const folder = (await host.openFolder(dir.path))!;
    const files = await host.listFiles(folder.id);
    const big = files.find((f) => f.name === 'big.exr')!;
    const ok = files.find((f) => f.name === 'ok.exr')!;

    // cut the file while the decode is queued or running: either outcome is fine, a hang or a crash is not
    const decoding = host.decodeImage({ requestId: 'r1', fileId: big.id, part: 0, priority: 'preview' });
    truncateSync(join(dir.path, 'big.exr'), 3000);
    const settled = await decoding.then(
      (image) => ({ ok: true as const, image }),
      (error: Error) => ({ ok: false as const, error }),
    );
    if (!settled.ok) expectClear(settled.error.message);

    // the watcher sees it: incomplete while it might still be written
    const marked = (await log.next(changedTo('big.exr', 'incomplete'))) as Extract<HostEvent, { type: 'files-changed' }>;
    expect(marked.files[0]!.status).toBe('incomplete');
    // a thumbnail of the cut file fails with a message; other files keep working meanwhile
    await expect(host.getThumbnail({ requestId: 't1', fileId: big.id, longSidePx: 64, priority: 'thumbnail-visible' })).rejects.toThrow(
      /./,
    );
    const other = await host.decodeImage({ requestId: 'r2', fileId: ok.id, part: 0, priority: 'preview' });
    expect(other.widthPx).toBe(32);

    // written whole again (in place, as a copy would): ok, and it decodes
    const since = log.length;
    writeFileSync(join(dir.path, 'big.exr'), complete);
    await log.next(changedTo('big.exr', 'ok'), 10_000, since);
    const again = await host.decodeImage({ requestId: 'r3', fileId: big.id, part: 0, priority: 'preview' });
    expect(again.widthPx).toBe(512);
  });

  it('the host: a file cut short that stops changing becomes an error with what to do', async () => {
    writeRgb(join(dir.path, 'cut.exr'), 128, 128, noise);
    const folder = (await host.openFolder(dir.path))!;
    expect((await host.listFiles(folder.id))[0]!.status).toBe('ok');
    truncateSync(join(dir.path, 'cut.exr'), 2000);
    const event = (await log.next(changedTo('cut.exr', 'error'), 15_000)) as Extract<HostEvent, { type: 'files-changed' }>;
    const message = event.files[0]!.error!;
    expectClear(message);
    expect(message).toMatch(/incomplete/);
    expect(message).toMatch(/write or copy it again/);
  });
});

describe('a folder deleted while open', () => {
  it('reports a folder error that names the folder, drops its files, and the host keeps working', async () => {
    const doomed = join(dir.path, 'shot');
    mkdirSync(doomed);
    writeRgb(join(doomed, 'a.exr'), 16, 16, noise);
    writeRgb(join(doomed, 'b.exr'), 16, 16, noise);
    const folder = (await host.openFolder(doomed))!;
    expect(await host.listFiles(folder.id)).toHaveLength(2);

    rmSync(doomed, { recursive: true, force: true });
    const error = (await log.next((e) => e.type === 'folder-error' && e.folderId === folder.id)) as Extract<
      HostEvent,
      { type: 'folder-error' }
    >;
    expectClear(error.message);
    expect(error.message).toContain('shot');
    expect(error.message).toMatch(/deleted|moved|no longer exists/);
    await log.next((e) => e.type === 'files-removed' && e.folderId === folder.id);

    // the rest of the app: another folder opens, lists, decodes
    const elsewhere = join(dir.path, 'other');
    mkdirSync(elsewhere);
    writeRgb(join(elsewhere, 'c.exr'), 24, 8, noise);
    const next = (await host.openFolder(elsewhere))!;
    const [c] = await host.listFiles(next.id);
    expect((await host.decodeImage({ requestId: 'd', fileId: c!.id, part: 0, priority: 'preview' })).widthPx).toBe(24);
  });
});

/**
 * Disk full, for real: a tiny tmpfs, filled up. Mounting needs root (CAP_SYS_ADMIN); where it is
 * refused the tests skip and say so rather than pretend with a mocked fs.
 */
const mountPoint = tempDir('exrview-tmpfs-').path;
let mounted = false;
let mountRefusal = '';
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0777', 'exrview-enospc', mountPoint], { stdio: 'pipe' });
  mounted = true;
} catch (error) {
  mountRefusal = ((error as { stderr?: Buffer }).stderr?.toString() || (error as Error).message).trim();
}

/** Fills the tmpfs until a write fails with ENOSPC; returns a function that frees the space again. */
function fillDisk(): () => void {
  const filler = join(mountPoint, 'filler');
  const chunk = Buffer.alloc(16 * 1024, 7);
  let n = 0;
  try {
    for (;;) writeFileSync(`${filler}.${n++}`, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  return () => {
    for (let i = 0; i < n; i++) rmSync(`${filler}.${i}`, { force: true });
  };
}

describe.skipIf(!mounted)('disk full (a 2 MB tmpfs)', () => {
  afterAll(() => {
    if (mounted) execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });
  afterEach(() => {
    for (const name of readdirSync(mountPoint)) rmSync(join(mountPoint, name), { recursive: true, force: true });
  });

  it('export: the file fails with a clear reason and nothing is left behind; a previous version survives', async () => {
    writeRgb(join(dir.path, 'shot.exr'), 400, 300, noise);
    const folder = (await host.openFolder(dir.path))!;
    const [shot] = await host.listFiles(folder.id);
    const outDir = join(mountPoint, 'out');
    mkdirSync(outDir);
    // a previous export, then the disk fills up
    const previous = Buffer.from('previous export, must survive');
    writeFileSync(join(outDir, 'shot.png'), previous);
    const free = fillDisk();
    try {
      for (const overwrite of [false, true]) {
        const result = await host.exportImages({ fileIds: [shot!.id], kind: 'image', format: 'png', outDir, overwrite, view });
        if (!overwrite) {
          expect(result.skipped).toHaveLength(1); // never overwritten unasked, full disk or not
          continue;
        }
        expect(result.written).toEqual([]);
        expect(result.failed).toHaveLength(1);
        expectClear(result.failed[0]!.reason);
        expect(result.failed[0]!.reason).toMatch(/no space left|disk is full/i);
        expect(readFileSync(join(outDir, 'shot.png'))).toEqual(previous);
      }
      const result = await host.exportImages({ fileIds: [shot!.id], kind: 'image', format: 'jpg', outDir, overwrite: false, view });
      expect(result.failed).toHaveLength(1);
      expect(listTree(outDir)).toEqual(['shot.png']);
    } finally {
      free();
    }
    // space again: the same export works
    const result = await host.exportImages({ fileIds: [shot!.id], kind: 'image', format: 'png', outDir, overwrite: true, view });
    expect(result.failed).toEqual([]);
    expect(readFileSync(join(outDir, 'shot.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(listTree(outDir)).toEqual(['shot.png']);
  });

  it('thumbnail cache: thumbnails still come, the failed write leaves no file, the cache works again once there is space', async () => {
    await host.close();
    const cacheHome = join(mountPoint, 'userdata');
    host = createHost({ userDataDir: cacheHome, workers: 1, prefetch: false, timing: TIMING });
    for (let i = 0; i < 3; i++) writeRgb(join(dir.path, `s${i}.exr`), 300, 200, noise);
    const folder = (await host.openFolder(dir.path))!;
    const files = await host.listFiles(folder.id);
    const thumb = (i: number, n: number) =>
      host.getThumbnail({ requestId: `t${i}.${n}`, fileId: files[i]!.id, longSidePx: 64, priority: 'thumbnail-visible' });

    await thumb(0, 0);
    await until(() => host.stats.disk.writes === 1);
    const before = listTree(cacheHome);
    expect(before.filter((n) => n.endsWith('.thumb'))).toHaveLength(1);

    const free = fillDisk();
    try {
      const t = await thumb(1, 0);
      expect(t.widthPx).toBe(64);
      expect(t.source).not.toBe('disk-cache');
      await until(() => host.stats.disk.writeErrors > 0);
      expect(host.stats.disk.writes).toBe(1);
      // no half-written cache file and no temporary file: only the thumbnail cached before the disk filled
      expect(listTree(cacheHome)).toEqual(before);
      // what was cached before still reads back
      expect((await thumb(0, 1)).source).toBe('disk-cache');
    } finally {
      free();
    }
    await thumb(2, 0);
    await until(() => host.stats.disk.writes === 2);
    expect(listTree(cacheHome).filter((n) => n.endsWith('.thumb'))).toHaveLength(2);
    expect(listTree(cacheHome).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});

if (!mounted) {
  rmSync(mountPoint, { recursive: true, force: true });
  describe('disk full', () => {
    it.skip(`skipped: cannot mount a small tmpfs here (${mountRefusal}); run as root to test ENOSPC for real`, () => {});
  });
}

// The files a finishing worker writes: the cache file reads back as the disk cache reads it, the PNG is the bytes
// given, a missing cache folder is made, and a failed write says why and leaves nothing behind.

import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DiskCache, parseCacheFile } from '../cache/disk-cache.js';
import { tempDir } from '../../testing/host/test-files.js';
import { writeThumbnailFiles } from './files.js';

const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

function made(widthPx = 3, heightPx = 2) {
  const rgbaHalf = new Uint16Array(widthPx * heightPx * 4).map((_, i) => 0x3c00 + i).buffer;
  return { widthPx, heightPx, madeFrom: 'full-decode', rgbaHalf, png: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]).buffer };
}

describe('writeThumbnailFiles', () => {
  it('writes the cache file (its folder made first) and the PNG; the disk cache reads the thumbnail back', async () => {
    const dir = tempDir('exrview-thumb-files-');
    dirs.push(dir);
    const cache = new DiskCache(join(dir.path, 'cache'));
    const meta = { path: '/renders/a.exr', sizeBytes: 1234, mtimeMs: 5678, params: 'long=64' };
    const thumbnail = made();
    const pngPath = join(dir.path, 'a.png');
    const written = writeThumbnailFiles({ cache: cache.targetFor(meta), pngPath }, thumbnail);
    expect(written).toEqual({ cache: {}, png: {} });
    expect([...readFileSync(pngPath)]).toEqual([...new Uint8Array(thumbnail.png)]);
    const back = await cache.get(meta.path, meta.sizeBytes, meta.mtimeMs, meta.params);
    expect(back?.meta).toMatchObject({ ...meta, widthPx: 3, heightPx: 2, madeFrom: 'full-decode' });
    expect(new Uint16Array(back!.rgbaHalf)).toEqual(new Uint16Array(thumbnail.rgbaHalf));
    expect(parseCacheFile(readFileSync(cache.fileFor(meta.path, meta.params)))).not.toBeNull();
    expect(readdirSync(dir.path).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('reports a failed write with its code and reason, leaving no temporary file; the other file is still written', () => {
    const dir = tempDir('exrview-thumb-files-');
    dirs.push(dir);
    // a folder where the PNG should go: the rename over it fails
    const pngPath = join(dir.path, 'b.png');
    mkdirSync(pngPath);
    const cache = new DiskCache(join(dir.path, 'cache'));
    const written = writeThumbnailFiles(
      { cache: cache.targetFor({ path: '/renders/b.exr', sizeBytes: 1, mtimeMs: 2, params: 'long=64' }), pngPath },
      made(),
    );
    expect(written.cache).toEqual({});
    expect(written.png?.error?.code).toMatch(/^E[A-Z]+$/);
    expect(written.png?.error?.reason).toContain('b.png');
    expect(written.png?.error?.reason).not.toMatch(/^E[A-Z]+: /);
    expect(readdirSync(dir.path).sort()).toEqual(['b.png', 'cache']);
  });

  it('writes no PNG when none was made (no native kernels: the caller encodes with sharp)', () => {
    const dir = tempDir('exrview-thumb-files-');
    dirs.push(dir);
    const { png: _png, ...withoutPng } = made();
    expect(writeThumbnailFiles({ pngPath: join(dir.path, 'c.png') }, withoutPng)).toEqual({});
    expect(readdirSync(dir.path)).toEqual([]);
  });
});

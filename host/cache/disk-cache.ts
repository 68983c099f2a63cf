// Thumbnails on disk in the user data folder: one file per (image path, thumbnail parameters), checked on read, replaced when the image changes.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { writeFileAtomicallySync } from '../io/atomic-file.js';

/** Bumped whenever the thumbnail recipe or this layout changes, so old files read as misses. */
export const CACHE_FORMAT = 1;
const MAGIC = Buffer.from('EXRVTHB1', 'latin1');
/** magic, meta length, payload length, crc32 of meta + payload */
const FIXED_BYTES = MAGIC.length + 12;

export interface CachedThumbnailMeta {
  format: number;
  path: string;
  sizeBytes: number;
  mtimeMs: number;
  /** Thumbnail parameters (long side, recipe) as one string. */
  params: string;
  widthPx: number;
  heightPx: number;
  /** What the thumbnail was made from originally. */
  madeFrom: string;
}

export interface CachedThumbnail {
  meta: CachedThumbnailMeta;
  rgbaHalf: ArrayBuffer;
}

/**
 * A thumbnail's cache file, for the decode worker that makes the thumbnail to write (writeCacheFileSync): where, and
 * the meta the host knows (the worker adds the size and source).
 */
export interface CacheFileTarget {
  file: string;
  dir: string;
  meta: Pick<CachedThumbnailMeta, 'path' | 'sizeBytes' | 'mtimeMs' | 'params'>;
}

export interface DiskCacheStats {
  hits: number;
  misses: number;
  /** Files whose length or checksum did not match (deleted, then rebuilt by the caller). */
  corrupt: number;
  /** Files made from an older version of the image (deleted). */
  stale: number;
  writes: number;
  /** Writes that failed (e.g. the disk is full): the thumbnail is still shown, only not cached; nothing partial is left. */
  writeErrors: number;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** Hashes of image paths and parameters, asked for twice or more a thumbnail (its lookup, its file, its folder). */
const hashes = new Map<string, string>();
const MAX_HASHES = 8192;

function cachedSha(text: string): string {
  let hash = hashes.get(text);
  if (hash === undefined) {
    if (hashes.size >= MAX_HASHES) hashes.clear();
    hash = sha(text);
    hashes.set(text, hash);
  }
  return hash;
}

export class DiskCache {
  readonly stats: DiskCacheStats = { hits: 0, misses: 0, corrupt: 0, stale: 0, writes: 0, writeErrors: 0 };

  /** `folder`: where the thumbnail files live, e.g. <user data>/thumbnails. */
  constructor(readonly folder: string) {}

  private dirFor(path: string): string {
    return join(this.folder, cachedSha(path).slice(0, 2));
  }

  /** The cache file for an image and parameters: its name starts with the path's hash, so every file of one image can be found. */
  fileFor(path: string, params: string): string {
    const pathHash = cachedSha(path).slice(0, 32);
    return join(this.dirFor(path), `${pathHash}-${cachedSha(params).slice(0, 16)}.thumb`);
  }

  /** Where a thumbnail of this image version and these parameters goes, for a worker to write (writeCacheFileSync). */
  targetFor(meta: CacheFileTarget['meta']): CacheFileTarget {
    return { file: this.fileFor(meta.path, meta.params), dir: this.dirFor(meta.path), meta };
  }

  /** Counts a write a worker made (writeCacheFileSync): done, or failed with `error` (the thumbnail is still shown). */
  recordWrite(error?: unknown): void {
    if (error === undefined) this.stats.writes++;
    else this.stats.writeErrors++;
  }

  /**
   * False when no thumbnail of this image and parameters is cached (a miss, counted), known at once: a folder opened
   * for the first time asks for every thumbnail together, and with a lookup on the thread pool for each, its first
   * jobs waited for all of them before any worker had work. True: get() reads it.
   */
  mayHave(path: string, params: string): boolean {
    if (existsSync(this.fileFor(path, params))) return true;
    this.stats.misses++;
    return false;
  }

  /** The thumbnail made from this exact version of the image (size and mtime), or null. */
  async get(path: string, sizeBytes: number, mtimeMs: number, params: string): Promise<CachedThumbnail | null> {
    const file = this.fileFor(path, params);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      this.stats.misses++;
      return null;
    }
    const parsed = parseCacheFile(bytes);
    if (!parsed || parsed.meta.format !== CACHE_FORMAT || parsed.meta.path !== path || parsed.meta.params !== params) {
      this.stats.corrupt++;
      this.stats.misses++;
      await rm(file, { force: true });
      return null;
    }
    if (parsed.meta.sizeBytes !== sizeBytes || parsed.meta.mtimeMs !== mtimeMs) {
      this.stats.stale++;
      this.stats.misses++;
      await rm(file, { force: true });
      return null;
    }
    this.stats.hits++;
    return parsed;
  }

  /** Deletes every cached thumbnail of an image (it changed or went away). */
  async invalidate(path: string): Promise<void> {
    const prefix = cachedSha(path).slice(0, 32);
    let names: string[];
    try {
      names = await readdir(this.dirFor(path));
    } catch {
      return;
    }
    await Promise.all(names.filter((n) => n.startsWith(prefix)).map((n) => rm(join(this.dirFor(path), n), { force: true })));
  }
}

/**
 * Writes a thumbnail's cache file where `target` says, synchronously (in the worker that made it), whole or not at all;
 * the folder is made when missing. Throws what fs throws.
 */
export function writeCacheFileSync(
  target: CacheFileTarget,
  made: { widthPx: number; heightPx: number; madeFrom: string; rgbaHalf: ArrayBuffer },
): void {
  const pieces = encodeCacheFile({
    meta: { ...target.meta, widthPx: made.widthPx, heightPx: made.heightPx, madeFrom: made.madeFrom, format: CACHE_FORMAT },
    rgbaHalf: made.rgbaHalf,
  });
  try {
    writeFileAtomicallySync(target.file, pieces);
  } catch (error) {
    // the folder is not there yet (the first thumbnail in it, or the cache was cleared): make it, then once more
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(target.dir, { recursive: true });
    writeFileAtomicallySync(target.file, pieces);
  }
}

/** The cache file as its pieces, in order: written together (writev), the thumbnail is not copied into one buffer. */
export function encodeCacheFile(entry: CachedThumbnail): Buffer[] {
  const meta = Buffer.from(JSON.stringify(entry.meta), 'utf8');
  const payload = Buffer.from(entry.rgbaHalf);
  const head = Buffer.alloc(FIXED_BYTES);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(meta.length, MAGIC.length);
  head.writeUInt32LE(payload.length, MAGIC.length + 4);
  head.writeUInt32LE(crc32(payload, crc32(meta)), MAGIC.length + 8);
  return [head, meta, payload];
}

/** The entry, or null when the file is not a whole, intact cache file. */
export function parseCacheFile(bytes: Buffer): CachedThumbnail | null {
  if (bytes.length < FIXED_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  const metaBytes = bytes.readUInt32LE(MAGIC.length);
  const payloadBytes = bytes.readUInt32LE(MAGIC.length + 4);
  if (bytes.length !== FIXED_BYTES + metaBytes + payloadBytes) return null;
  const meta = bytes.subarray(FIXED_BYTES, FIXED_BYTES + metaBytes);
  const payload = bytes.subarray(FIXED_BYTES + metaBytes);
  if (crc32(payload, crc32(meta)) !== bytes.readUInt32LE(MAGIC.length + 8)) return null;
  let parsed: CachedThumbnailMeta;
  try {
    parsed = JSON.parse(meta.toString('utf8')) as CachedThumbnailMeta;
  } catch {
    return null;
  }
  if (payload.length !== parsed.widthPx * parsed.heightPx * 8) return null;
  // a fresh ArrayBuffer of exactly the payload (the Buffer may sit in a larger pooled one)
  const rgbaHalf = payload.buffer.slice(payload.byteOffset, payload.byteOffset + payload.length) as ArrayBuffer;
  return { meta: parsed, rgbaHalf };
}

// Thumbnails on disk in the user data folder: one file per (image path, thumbnail parameters), checked on read, replaced when the image changes.

import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

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

export class DiskCache {
  readonly stats: DiskCacheStats = { hits: 0, misses: 0, corrupt: 0, stale: 0, writes: 0, writeErrors: 0 };
  private readonly pendingWrites = new Set<Promise<void>>();
  private readonly madeDirs = new Set<string>();
  private tempCount = 0;

  /** `folder`: where the thumbnail files live, e.g. <user data>/thumbnails. */
  constructor(readonly folder: string) {}

  private dirFor(path: string): string {
    return join(this.folder, sha(path).slice(0, 2));
  }

  /** The cache file for an image and parameters: its name starts with the path's hash, so every file of one image can be found. */
  fileFor(path: string, params: string): string {
    const pathHash = sha(path).slice(0, 32);
    return join(this.dirFor(path), `${pathHash}-${sha(params).slice(0, 16)}.thumb`);
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

  /**
   * Writes through a temporary file and a rename, so a reader never sees half a file. The thumbnail's buffer is written
   * as it is, not copied: it must not be transferred elsewhere until the returned promise settles.
   */
  put(fresh: { meta: Omit<CachedThumbnailMeta, 'format'>; rgbaHalf: ArrayBuffer }): Promise<void> {
    const entry: CachedThumbnail = { meta: { ...fresh.meta, format: CACHE_FORMAT }, rgbaHalf: fresh.rgbaHalf };
    const write = (async () => {
      const file = this.fileFor(entry.meta.path, entry.meta.params);
      const dir = this.dirFor(entry.meta.path);
      // unique among this process's writes (the counter) and other processes' (the pid)
      const temp = `${file}.${process.pid}-${++this.tempCount}.tmp`;
      try {
        await this.writeIn(dir, temp, encodeCacheFile(entry));
        await rename(temp, file);
        this.stats.writes++;
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    })();
    const tracked = write
      .catch((error: unknown) => {
        this.stats.writeErrors++;
        throw error;
      })
      .finally(() => this.pendingWrites.delete(tracked));
    this.pendingWrites.add(tracked);
    return tracked;
  }

  /** Writes a new file in one of the cache's folders, making the folder only when it is not known to be there (once a
   * run: each write waiting on a folder check of its own held the thread pool the encoders and readers share). */
  private async writeIn(dir: string, file: string, pieces: Buffer[]): Promise<void> {
    if (!this.madeDirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.madeDirs.add(dir);
    }
    try {
      await writePieces(file, pieces);
    } catch (error) {
      // the folder went away meanwhile (the cache was cleared): make it again, once
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(dir, { recursive: true });
      await writePieces(file, pieces);
    }
  }

  /** Deletes every cached thumbnail of an image (it changed or went away). */
  async invalidate(path: string): Promise<void> {
    const prefix = sha(path).slice(0, 32);
    let names: string[];
    try {
      names = await readdir(this.dirFor(path));
    } catch {
      return;
    }
    await Promise.all(names.filter((n) => n.startsWith(prefix)).map((n) => rm(join(this.dirFor(path), n), { force: true })));
  }

  /** Waits for writes in flight (before exit, so the next run finds them). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.pendingWrites]);
  }
}

/** A new file of `pieces` one after the other. */
async function writePieces(file: string, pieces: Buffer[]): Promise<void> {
  const handle = await open(file, 'w');
  try {
    let rest = pieces;
    while (rest.length > 0) {
      let written = (await handle.writev(rest)).bytesWritten;
      // a short write leaves the rest of the pieces, the first of them cut where the write stopped
      const left: Buffer[] = [];
      for (const piece of rest) {
        if (written >= piece.length) written -= piece.length;
        else {
          left.push(piece.subarray(written));
          written = 0;
        }
      }
      rest = left;
    }
  } finally {
    await handle.close();
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

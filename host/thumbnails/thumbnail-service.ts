// The host's thumbnails: from the disk cache when it has them, else made on the pool (shared by key, prioritised by visibility).

import type { FileEntry, HostEvent, Priority, StageTimingsMs, Thumbnail, ThumbnailRequest } from '../../contract/host-api.js';
import type { DisplayParams } from '../../shaders/display-params.js';
import type { JobBroker } from '../decode/broker.js';
import { POOL_PRIORITY } from '../decode/broker.js';
import type { DecodePool, JobTimings } from '../decode/pool.js';
import type { DiskCache } from '../cache/disk-cache.js';
import type { HeaderCache } from '../cache/header-cache.js';
import { readSummary } from '../headers/summary.js';
import { embeddedPreview } from './embedded-preview.js';
import type { FileWriteError } from './files.js';
import type { ChunksThere, ThumbnailJobResult } from './job.js';
import { thumbnailOnPool } from './on-pool.js';
import { thumbnailParams, type ThumbnailDetail, type ThumbnailOutputOptions } from './params.js';
import { toneMapOnPool, type ToneMapped } from './tone-map-on-pool.js';
import { viewMemo } from './tone-map.js';

/** A file the library lists, by id; throws, saying why, for one that is gone, incomplete or has no readable header. */
export type FileOf = (fileId: string) => { entry: FileEntry; absPath: string };

export interface ThumbnailServiceParts {
  pool: DecodePool;
  broker: JobBroker;
  disk: DiskCache;
  headers: HeaderCache;
  fileOf: FileOf;
  emit: (event: HostEvent) => void;
  /** A file still being written: which of its chunks are there, as last walked (null: not walked). */
  chunksThere?: (absPath: string) => ChunksThere | null;
}

const ZERO_TIMINGS: Omit<StageTimingsMs, 'hostMs'> = { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, bytesRead: 0 };

export class ThumbnailService {
  /** Thumbnails made on the pool (not served from the disk cache). */
  made = 0;
  private visible = new Set<string>();
  private progress = { done: 0, total: 0 };
  private readonly cacheWriteWarned = new Set<string>();

  constructor(private readonly parts: ThumbnailServiceParts) {}

  /** The files on screen: their thumbnails go before the others', queued ones included. */
  setVisible(fileIds: readonly string[]): void {
    this.visible = new Set(fileIds);
    this.parts.broker.reprioritise((meta, priority) =>
      meta.kind === 'thumbnail' ? (this.visible.has(meta.fileId) ? 'thumbnail-visible' : 'thumbnail-hidden') : priority,
    );
  }

  async get(request: ThumbnailRequest, view?: DisplayParams, options: ThumbnailOutputOptions = {}): Promise<ThumbnailDetail> {
    const t0 = performance.now();
    if (!Number.isInteger(request.longSidePx) || request.longSidePx < 1 || request.longSidePx > 8192) {
      throw new Error(`thumbnail size ${request.longSidePx} is out of range: ask for a long side of 1 to 8192 pixels`);
    }
    const { entry, absPath } = this.parts.fileOf(request.fileId);
    if (request.embeddedPreview) return this.embeddedPreviewThumbnail(request, entry, absPath, t0);
    this.progress.total++;
    try {
      const params = thumbnailParams(request.longSidePx);
      // on a miss the job is submitted within this call, before the next request's lookup
      const cached = this.parts.disk.mayHave(absPath, params)
        ? await this.cachedThumbnail(request.fileId, entry, absPath, params, t0)
        : null;
      if (cached) return cached;
      const { result, timings } = await this.make(request, entry, absPath, params, view, options);
      this.made++;
      const cacheWrite = result.written?.cache;
      if (cacheWrite) {
        this.parts.disk.recordWrite(cacheWrite.error);
        if (cacheWrite.error) this.cacheWriteFailed(cacheWrite.error);
      }
      const { readMs, decompressMs, unpackMs, bytesRead } = result.timings;
      return {
        thumbnail: {
          fileId: request.fileId,
          widthPx: result.widthPx,
          heightPx: result.heightPx,
          rgbaHalf: result.rgbaHalf,
          source: result.source,
          timings: { readMs, decompressMs, unpackMs, queueMs: timings.queueMs, bytesRead, hostMs: performance.now() - t0 },
          ...(result.missing ? { missing: result.missing } : {}),
        },
        resizeMs: result.timings.resizeMs,
        ...(result.rgba8 ? { rgba8: new Uint8ClampedArray(result.rgba8), toneMapMs: result.timings.toneMapMs } : {}),
        ...(result.png ? { png: new Uint8Array(result.png), encodeMs: result.timings.encodeMs } : {}),
        ...(result.written?.png ? { pngWritten: result.written.png, writeMs: result.timings.writeMs } : {}),
        madeFrom: result.source,
      };
    } finally {
      this.progress.done++;
      this.parts.emit({ type: 'thumbnail-progress', done: this.progress.done, total: this.progress.total });
      if (this.progress.done >= this.progress.total) this.progress = { done: 0, total: 0 };
    }
  }

  /** A thumbnail's half RGBA through a view on a worker, ahead of decoding at `priority` (it finishes work already done). */
  toneMap(
    thumbnail: { rgbaHalf: ArrayBuffer; widthPx: number; heightPx: number },
    view: DisplayParams,
    priority: Priority,
    options: ThumbnailOutputOptions,
  ): Promise<ToneMapped> {
    return toneMapOnPool(
      this.parts.pool,
      thumbnail.rgbaHalf,
      thumbnail.widthPx,
      thumbnail.heightPx,
      view,
      POOL_PRIORITY[priority] - 0.5,
      options,
    );
  }

  /** The thumbnail job on the pool, shared with any request for the same file, size, view and output. */
  private make(
    request: ThumbnailRequest,
    entry: FileEntry,
    absPath: string,
    params: string,
    view: DisplayParams | undefined,
    options: ThumbnailOutputOptions,
  ): Promise<{ result: ThumbnailJobResult; timings: JobTimings }> {
    const { pool, broker, disk, headers } = this.parts;
    const priority =
      this.visible.size === 0 ? request.priority : this.visible.has(request.fileId) ? 'thumbnail-visible' : 'thumbnail-hidden';
    const png = Boolean(view && options.png);
    const pngPath = png ? options.pngPath : undefined;
    // a render's job is its chunks so far: never shared with a request made once the file is whole or given up on
    // (same size and time: a file cut short turns damaged unchanged, and its thumbnail must say what is missing)
    const renderingKey = entry.rendering ? `\0rendering:${entry.rendering.chunksPresent}` : '';
    const key = `thumb\0${absPath}\0${entry.sizeBytes}\0${entry.mtimeMs}\0${params}${renderingKey}${view ? `\0${JSON.stringify(view)}` : ''}${png ? `\0png\0${pngPath ?? ''}` : ''}`;
    const toneMap = view ? { params: view, memo: viewMemo(view) } : undefined;
    // the worker that makes the thumbnail writes its cache file (and PNG): no file I/O on this thread
    const files = {
      cache: disk.targetFor({ path: absPath, sizeBytes: entry.sizeBytes, mtimeMs: entry.mtimeMs, params }),
      ...(pngPath ? { pngPath } : {}),
    };
    // a render's tiles so far: level 0's make the thumbnail until the MIP level it would be made from is whole
    const there = entry.rendering ? this.parts.chunksThere?.(absPath) : null;
    const known = {
      headers: headers.partsOf(absPath, entry.sizeBytes, entry.mtimeMs),
      handoff: headers.handoffOf(absPath, entry.sizeBytes, entry.mtimeMs),
      ...(there ? { there } : {}),
    };
    return broker.run<ThumbnailJobResult>(
      key,
      { fileId: request.fileId, kind: 'thumbnail' },
      (poolPriority) =>
        thumbnailOnPool(pool, absPath, request.longSidePx, poolPriority, { ...known, ...(toneMap ? { view: toneMap } : {}), png, files }),
      priority,
      request.requestId,
    );
  }

  /** The thumbnail from the disk cache, when it holds one for this file as it is now and these parameters. */
  private async cachedThumbnail(
    fileId: string,
    entry: FileEntry,
    absPath: string,
    params: string,
    t0: number,
  ): Promise<ThumbnailDetail | null> {
    const cached = await this.parts.disk.get(absPath, entry.sizeBytes, entry.mtimeMs, params);
    if (!cached) return null;
    const readMs = performance.now() - t0;
    return {
      thumbnail: {
        fileId,
        widthPx: cached.meta.widthPx,
        heightPx: cached.meta.heightPx,
        rgbaHalf: cached.rgbaHalf,
        source: 'disk-cache',
        timings: { ...ZERO_TIMINGS, readMs, bytesRead: cached.rgbaHalf.byteLength, hostMs: performance.now() - t0 },
      },
      resizeMs: 0,
      madeFrom: cached.meta.madeFrom,
    };
  }

  /** The stand-in shown while a thumbnail is made: the real one when the disk cache has it, else the preview read with the header. */
  private async embeddedPreviewThumbnail(
    request: ThumbnailRequest,
    entry: FileEntry,
    absPath: string,
    t0: number,
  ): Promise<ThumbnailDetail> {
    const cached = await this.cachedThumbnail(request.fileId, entry, absPath, thumbnailParams(request.longSidePx), t0);
    if (cached) return cached;
    const read = await readSummary(absPath);
    const preview = read.kind === 'ok' ? embeddedPreview(read.parts) : null;
    if (!preview) throw new Error(`${entry.name} has no embedded preview image: ask for its thumbnail instead`);
    const readMs = performance.now() - t0;
    const thumbnail: Thumbnail = {
      fileId: request.fileId,
      ...preview,
      source: 'embedded-preview',
      timings: { ...ZERO_TIMINGS, readMs, hostMs: readMs },
    };
    return { thumbnail, resizeMs: 0, madeFrom: 'embedded-preview' };
  }

  /** A failed cache write (disk full, permissions) costs only a rebuild next time: say so once per cause, on stderr. */
  private cacheWriteFailed(error: FileWriteError): void {
    const { code } = error;
    if (this.cacheWriteWarned.has(code)) return;
    this.cacheWriteWarned.add(code);
    const reason = code === 'ENOSPC' ? 'the disk is full' : error.reason;
    console.warn(
      `exrview: thumbnail cache: cannot write to ${this.parts.disk.folder} (${reason}); thumbnails are still made, but not kept for next time`,
    );
  }
}

// The HostApi in plain Node: library (folders, watching), decode pool with shared prioritised jobs, RAM and disk caches, thumbnails, export.

import { existsSync, readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  DecodedImage,
  DecodeRequest,
  ExportRequest,
  ExportResult,
  FileEntry,
  FileHeader,
  FolderInfo,
  HostApi,
  HostEvent,
  HostInfo,
  PixelLease,
  PlaybackPlan,
  SequenceInfo,
  StageTimingsMs,
  Thumbnail,
  ThumbnailRequest,
  Priority,
} from '../contract/host-api.js';
import type { DisplayParams } from '../shaders/display-params.js';
import { DecodePool } from './decode/pool.js';
import { DecodedLevels, type LevelPlanes, type LevelRef } from './decode/levels.js';
import { PlaneMemory } from './decode/plane-memory.js';
import { hugePageAdvice } from './decode/huge-pages.js';
import { warmUpJobs } from './decode/warm-up-jobs.js';
import { DiskCache } from './cache/disk-cache.js';
import { HeaderCache } from './cache/header-cache.js';
import { exportImages, type ExportSources } from './export/export.js';
import { fsReason } from './fs-reason.js';
import { attributeValueText } from '../codec/index.js';
import { JobBroker, POOL_PRIORITY } from './decode/broker.js';
import { DEFAULT_LIBRARY_TIMING, Library } from './library/library.js';
import { embeddedPreview } from './thumbnails/embedded-preview.js';
import { readSummary } from './library/summary.js';
import { thumbnailOnPool } from './thumbnails/on-pool.js';
import { prepareToneMap, toneMapOnPool, type ToneMapped } from './thumbnails/tone-map-on-pool.js';
import { viewMemo } from './thumbnails/tone-map.js';
import { thumbnailParams, type ThumbnailDetail, type ThumbnailOutputOptions } from './thumbnails/params.js';
import type { FileWriteError } from './thumbnails/files.js';
import type { ThumbnailJobResult } from './thumbnails/job.js';
import { FrameRing, type FrameRingStats } from './playback/frame-ring.js';
import { frameBytes } from './playback/frame-bytes.js';

export interface HostOptions {
  /** Where the thumbnail cache lives (Electron: app.getPath('userData'); the command: ~/.cache/exrview). */
  userDataDir: string;
  /** RAM cache budget for decoded images; default a quarter of physical memory. */
  ramBudgetBytes?: number;
  /** Decode worker threads; default one per core. */
  workers?: number;
  /** The built worker (dist/decode-worker.mjs); found automatically when omitted. */
  workerPath?: string;
  mode?: 'electron' | 'browser';
  /** Decode the images next to the current one ahead of time (default on). */
  prefetch?: boolean;
  /** Byte budget of the frames a playing sequence decodes ahead; default half the RAM cache, at most 2 GiB. */
  playbackBudgetBytes?: number;
  /** Watcher timing (tests shorten it). */
  timing?: Partial<typeof DEFAULT_LIBRARY_TIMING>;
}

/** A HostApi that owns threads, watchers and files: close it when done. */
export interface Host extends HostApi, PixelLease {
  close(): Promise<void>;
  /**
   * Starts the decode workers now (they otherwise start with the first job) and warms their codecs; then, unless
   * `warmJobs` is false (a one-shot command), warms the main thread's side of decoding with a few small jobs
   * (warm-up-jobs.ts). Resolves when both are done.
   */
  startWorkers(options?: { warmJobs?: boolean }): Promise<void>;
  /**
   * getThumbnail with what the command's timing summary needs (resize time, level used, channels shown); with `view`,
   * a thumbnail made now also comes tone-mapped through it (detail.rgba8), by the worker that finished it, and with
   * `png` encoded there as well (detail.png, when the native kernels loaded), and written to `pngPath` when given
   * (detail.pngWritten says how that went; without a PNG nothing is written and the caller encodes).
   */
  getThumbnailDetailed(request: ThumbnailRequest, view?: DisplayParams, options?: ThumbnailOutputOptions): Promise<ThumbnailDetail>;
  /**
   * A thumbnail's half RGBA through a view to 8-bit RGBA (and with `png` its PNG, when the native kernels loaded,
   * written to `pngPath` when given), on a decode worker: ahead of decoding at `priority`, as it finishes work already done.
   */
  toneMapThumbnail(thumbnail: { rgbaHalf: ArrayBuffer; widthPx: number; heightPx: number }, view: DisplayParams, priority: Priority, options?: ThumbnailOutputOptions): Promise<ToneMapped>;
  /** Makes the view's tone-map table now, on this thread, rather than on the workers as thumbnails meet new values. */
  prepareToneMap(view: DisplayParams): void;
  readonly stats: HostStats;
}

export interface HostStats {
  ram: { hits: number; misses: number; sizeBytes: number; count: number; budgetBytes: number };
  disk: DiskCache['stats'];
  /** Level decodes (reads and decompressions), and unpacks of more channels from a level's decompressed chunks. */
  decodes: number;
  unpacks: number;
  /** Background passes that kept a previewed level's decompressed chunks for its other layers. */
  storeFills: number;
  /** Decoded-plane buffers reused, and newly allocated. */
  planeMemory: { reused: number; allocated: number; keptBytes: number };
  thumbnailsMade: number;
  prefetches: number;
  /** Decodes and thumbnails planned from a header the library had read (hits), or after reading it again (reads). */
  headers: { hits: number; reads: number; sizeBytes: number };
  /** The frames a playing sequence holds decoded ahead. */
  playback: FrameRingStats;
}

export function createHost(options: HostOptions): Host {
  return new NodeHost(options);
}

const ZERO_TIMINGS: Omit<StageTimingsMs, 'hostMs'> = { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, bytesRead: 0 };

class NodeHost implements Host {
  private readonly pool: DecodePool;
  private readonly broker: JobBroker;
  private readonly library: Library;
  private readonly levels: DecodedLevels;
  private readonly memory: PlaneMemory;
  private readonly disk: DiskCache;
  private readonly ring: FrameRing;
  /** Headers the library read, for planning decodes and thumbnails without reading them again. */
  private readonly headers = new HeaderCache();
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private readonly mode: 'electron' | 'browser';
  private readonly prefetchOn: boolean;
  private visible = new Set<string>();
  private progress = { done: 0, total: 0 };
  private counters = { thumbnailsMade: 0, prefetches: 0 };
  private closed = false;

  constructor(options: HostOptions) {
    this.mode = options.mode ?? 'electron';
    this.prefetchOn = options.prefetch ?? true;
    this.pool = new DecodePool({ ...(options.workers ? { workers: options.workers } : {}), ...(options.workerPath ? { workerPath: options.workerPath } : {}) });
    this.broker = new JobBroker();
    const ramBudgetBytes = options.ramBudgetBytes ?? Math.floor(totalmem() / 4);
    // buffers of images that left the RAM cache, kept for the next decode of the same size
    this.memory = new PlaneMemory({ keepBytes: Math.min(1 << 30, Math.floor(ramBudgetBytes / 4)), advise: hugePageAdvice });
    this.levels = new DecodedLevels(this.pool, this.broker, this.memory, ramBudgetBytes, this.headers);
    this.disk = new DiskCache(join(resolve(options.userDataDir), 'thumbnails'));
    this.ring = new FrameRing(
      {
        decode: async (fileId, part, channels, requestId, keep) => {
          // planes in header order, as every decodeImage hands them out (an unknown file or channel rejects)
          const level = this.levelOf(fileId, part, 0, 0, [...channels]);
          return this.levels.get(level.ref, level.channels, 'playback', requestId, true, keep);
        },
        cancel: (requestId) => this.broker.cancel(requestId),
        frameBytes: (fileId, part, channels) => {
          const file = this.library.file(fileId);
          return file?.entry.status === 'ok' ? frameBytes(file.entry.summary?.parts[part], channels) : null;
        },
      },
      options.playbackBudgetBytes ?? Math.min(2 * 2 ** 30, Math.floor(ramBudgetBytes / 2)),
    );
    this.library = new Library({
      ...DEFAULT_LIBRARY_TIMING,
      ...options.timing,
      onEvent: (event) => this.emit(event),
      onInvalidate: (absPath) => {
        this.headers.forget(absPath);
        this.levels.forget(absPath);
        void this.disk.invalidate(absPath);
      },
      onHeader: (absPath, header) => this.headers.put(absPath, header.sizeBytes, header.mtimeMs, header.parts, header.headerBytes, header.handoff),
      allowPath: async () => true,
      displayPath: (absPath) => absPath,
    });
  }

  get stats(): HostStats {
    return {
      ram: this.levels.cache,
      disk: { ...this.disk.stats },
      decodes: this.levels.decodes,
      unpacks: this.levels.unpacks,
      storeFills: this.levels.storeFills,
      planeMemory: { reused: this.memory.reused, allocated: this.memory.allocated, keptBytes: this.memory.keptBytes },
      ...this.counters,
      headers: { hits: this.headers.hits, reads: this.headers.reads, sizeBytes: this.headers.sizeBytes },
      playback: this.ring.stats,
    };
  }

  private emit(event: HostEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // one broken listener must not stop the others
      }
    }
  }

  onEvent(listener: (event: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async getInfo(): Promise<HostInfo> {
    return {
      mode: this.mode,
      version: packageVersion(),
      platform: process.platform,
      folders: this.library.folderInfos(),
      decodeWorkers: this.pool.size,
      ramCacheBudgetBytes: this.levels.cache.budgetBytes,
    };
  }

  async openFolder(path?: string, options?: { recursive?: boolean }): Promise<FolderInfo | null> {
    // no path: the folder picker, which only the Electron shell can show
    if (path === undefined) return null;
    const root = resolve(path);
    const { stat } = await import('node:fs/promises');
    const info = await stat(root).catch((error: NodeJS.ErrnoException) => {
      throw new Error(`cannot open ${root}: ${error.code === 'ENOENT' ? 'no such folder' : fsReason(error)}`);
    });
    if (!info.isDirectory()) throw new Error(`cannot open ${root}: it is a file, not a folder (open the folder that holds it)`);
    return this.library.openFolder(root, options?.recursive ?? false);
  }

  async closeFolder(folderId: string): Promise<void> {
    this.library.closeFolder(folderId);
  }

  async listFiles(folderId: string): Promise<FileEntry[]> {
    return this.library.listFiles(folderId);
  }

  async listSequences(folderId: string): Promise<SequenceInfo[]> {
    return this.library.listSequences(folderId);
  }

  setPlayback(plan: PlaybackPlan | null): void {
    this.ring.setPlan(plan);
  }

  private fileOf(fileId: string): { entry: FileEntry; absPath: string } {
    const file = this.library.file(fileId);
    if (!file) throw new Error(`unknown file "${fileId}": it was removed or its folder closed; list the folder again`);
    if (file.entry.status === 'incomplete') throw new Error(`${file.entry.name} is still being written: try again when it is complete`);
    if (file.entry.status === 'error') throw new Error(`${file.entry.name}: ${file.entry.error ?? 'cannot be read'}`);
    return file;
  }

  async getHeader(fileId: string): Promise<FileHeader> {
    const { absPath } = this.fileOf(fileId);
    const result = await readSummary(absPath);
    if (result.kind !== 'ok') throw new Error(`${absPath}: ${result.reason}`);
    return {
      fileId,
      version: 2,
      multipart: result.summary.multipart,
      parts: result.parts.map((p) => ({
        index: p.index,
        attributes: p.attributes.map((a) => ({ name: a.name, type: a.typeName, text: attributeValueText(a) })),
      })),
    };
  }

  async decodeImage(request: DecodeRequest): Promise<DecodedImage> {
    return (await this.decode(request, false)).image;
  }

  async decodeImageLease(request: DecodeRequest): Promise<{ image: DecodedImage; release(): void }> {
    return this.decode(request, true);
  }

  private async decode(request: DecodeRequest, lease: boolean): Promise<{ image: DecodedImage; release(): void }> {
    const t0 = performance.now();
    const lx = request.lx ?? 0;
    const ly = request.ly ?? lx;
    const { ref, channels } = this.levelOf(request.fileId, request.part, lx, ly, request.channels);
    // a frame of the playing sequence: from the frame ring, which decoded it ahead (a plain decodeImage, whose planes
    // may be read after any release, waits for the ring and then takes the level from the RAM cache as usual)
    const fromRing = lx === 0 && ly === 0 ? this.ring.take(request.fileId, request.part, channels) : null;
    if (fromRing && lease) {
      const got = await fromRing;
      return { image: { ...got.image, fileId: request.fileId, source: got.source, timings: { ...got.timings, hostMs: performance.now() - t0 } }, release: got.release };
    }
    if (fromRing) await fromRing.then((got) => got.release(), () => {});
    const got: LevelPlanes = await this.levels.get(ref, channels, request.priority, request.requestId, lease);
    return { image: { ...got.image, fileId: request.fileId, source: got.source, timings: { ...got.timings, hostMs: performance.now() - t0 } }, release: got.release };
  }

  /** The level a request names, and its channels in header order (every channel when none are named). */
  private levelOf(fileId: string, part: number, lx: number, ly: number, requested: string[] | undefined): { ref: LevelRef; channels: string[] } {
    const { entry, absPath } = this.fileOf(fileId);
    const partSummary = entry.summary?.parts[part];
    if (!partSummary) throw new Error(`${entry.name} has no part ${part} (it has ${entry.summary?.parts.length ?? 0})`);
    const all = partSummary.channels.map((c) => c.name);
    for (const name of requested ?? []) {
      if (!all.includes(name)) throw new Error(`${entry.name} part ${part} has no channel "${name}" (it has ${all.join(', ')})`);
    }
    const ref: LevelRef = {
      fileId,
      absPath,
      sizeBytes: entry.sizeBytes,
      mtimeMs: entry.mtimeMs,
      part,
      lx,
      ly,
      displayWindow: partSummary.displayWindow,
      deep: partSummary.type === 'deepscanline' || partSummary.type === 'deeptile',
      allChannels: all,
    };
    return { ref, channels: requested ? all.filter((c) => requested.includes(c)) : all };
  }

  private cacheWriteWarned = new Set<string>();

  /** A failed cache write (disk full, permissions) costs only a rebuild next time: say so once per cause, on stderr. */
  private cacheWriteFailed(error: FileWriteError): void {
    const { code } = error;
    if (this.cacheWriteWarned.has(code)) return;
    this.cacheWriteWarned.add(code);
    const reason = code === 'ENOSPC' ? 'the disk is full' : error.reason;
    console.warn(`exrview: thumbnail cache: cannot write to ${this.disk.folder} (${reason}); thumbnails are still made, but not kept for next time`);
  }

  async getThumbnail(request: ThumbnailRequest): Promise<Thumbnail> {
    return (await this.getThumbnailDetailed(request)).thumbnail;
  }

  async getThumbnailDetailed(request: ThumbnailRequest, view?: DisplayParams, options: ThumbnailOutputOptions = {}): Promise<ThumbnailDetail> {
    const t0 = performance.now();
    if (!Number.isInteger(request.longSidePx) || request.longSidePx < 1 || request.longSidePx > 8192) {
      throw new Error(`thumbnail size ${request.longSidePx} is out of range: ask for a long side of 1 to 8192 pixels`);
    }
    const { entry, absPath } = this.fileOf(request.fileId);
    if (request.embeddedPreview) return this.embeddedPreviewThumbnail(request, entry, absPath, t0);
    this.progress.total++;
    try {
      const params = thumbnailParams(request.longSidePx);
      // on a miss the job is submitted within this call, before the next request's lookup
      const cached = this.disk.mayHave(absPath, params) ? await this.cachedThumbnail(request.fileId, entry, absPath, params, t0) : null;
      if (cached) return cached;
      const priority = this.visible.size === 0 ? request.priority : this.visible.has(request.fileId) ? 'thumbnail-visible' : 'thumbnail-hidden';
      const png = Boolean(view && options.png);
      const pngPath = png ? options.pngPath : undefined;
      const key = `thumb\0${absPath}\0${entry.sizeBytes}\0${entry.mtimeMs}\0${params}${view ? `\0${JSON.stringify(view)}` : ''}${png ? `\0png\0${pngPath ?? ''}` : ''}`;
      const toneMap = view ? { params: view, memo: viewMemo(view) } : undefined;
      // the worker that makes the thumbnail writes its cache file (and PNG): no file I/O on this thread
      const files = { cache: this.disk.targetFor({ path: absPath, sizeBytes: entry.sizeBytes, mtimeMs: entry.mtimeMs, params }), ...(pngPath ? { pngPath } : {}) };
      const { result, timings } = await this.broker.run<ThumbnailJobResult>(
        key,
        { fileId: request.fileId, kind: 'thumbnail' },
        (poolPriority) =>
          thumbnailOnPool(this.pool, absPath, request.longSidePx, poolPriority, { headers: this.headers.partsOf(absPath, entry.sizeBytes, entry.mtimeMs), handoff: this.headers.handoffOf(absPath, entry.sizeBytes, entry.mtimeMs), ...(toneMap ? { view: toneMap } : {}), png, files }),
        priority,
        request.requestId,
      );
      this.counters.thumbnailsMade++;
      const cacheWrite = result.written?.cache;
      if (cacheWrite) {
        this.disk.recordWrite(cacheWrite.error);
        if (cacheWrite.error) this.cacheWriteFailed(cacheWrite.error);
      }
      return {
        thumbnail: {
          fileId: request.fileId,
          widthPx: result.widthPx,
          heightPx: result.heightPx,
          rgbaHalf: result.rgbaHalf,
          source: result.source,
          timings: {
            readMs: result.timings.readMs,
            decompressMs: result.timings.decompressMs,
            unpackMs: result.timings.unpackMs,
            queueMs: timings.queueMs,
            bytesRead: result.timings.bytesRead,
            hostMs: performance.now() - t0,
          },
        },
        resizeMs: result.timings.resizeMs,
        ...(result.rgba8 ? { rgba8: new Uint8ClampedArray(result.rgba8), toneMapMs: result.timings.toneMapMs } : {}),
        ...(result.png ? { png: new Uint8Array(result.png), encodeMs: result.timings.encodeMs } : {}),
        ...(result.written?.png ? { pngWritten: result.written.png, writeMs: result.timings.writeMs } : {}),
        madeFrom: result.source,
      };
    } finally {
      this.progress.done++;
      this.emit({ type: 'thumbnail-progress', done: this.progress.done, total: this.progress.total });
      if (this.progress.done >= this.progress.total) this.progress = { done: 0, total: 0 };
    }
  }

  /** The thumbnail from the disk cache, when it holds one for this file as it is now and these parameters. */
  private async cachedThumbnail(fileId: string, entry: FileEntry, absPath: string, params: string, t0: number): Promise<ThumbnailDetail | null> {
    const cached = await this.disk.get(absPath, entry.sizeBytes, entry.mtimeMs, params);
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
  private async embeddedPreviewThumbnail(request: ThumbnailRequest, entry: FileEntry, absPath: string, t0: number): Promise<ThumbnailDetail> {
    const cached = await this.cachedThumbnail(request.fileId, entry, absPath, thumbnailParams(request.longSidePx), t0);
    if (cached) return cached;
    const read = await readSummary(absPath);
    const preview = read.kind === 'ok' ? embeddedPreview(read.parts) : null;
    if (!preview) throw new Error(`${entry.name} has no embedded preview image: ask for its thumbnail instead`);
    const readMs = performance.now() - t0;
    const thumbnail: Thumbnail = { fileId: request.fileId, ...preview, source: 'embedded-preview', timings: { ...ZERO_TIMINGS, readMs, hostMs: readMs } };
    return { thumbnail, resizeMs: 0, madeFrom: 'embedded-preview' };
  }

  cancel(requestId: string): void {
    this.broker.cancel(requestId);
  }

  setVisible(fileIds: string[], currentFileId: string | null): void {
    this.visible = new Set(fileIds);
    this.broker.reprioritise((meta, priority) =>
      meta.kind === 'thumbnail' ? (this.visible.has(meta.fileId) ? 'thumbnail-visible' : 'thumbnail-hidden') : priority,
    );
    const wanted = new Set(currentFileId && this.prefetchOn ? this.library.neighbours(currentFileId) : []);
    // prefetches of images that are no longer next to the current one are dropped
    this.broker.cancelWhere((meta, priority) => priority === 'prefetch' && !wanted.has(meta.fileId) && meta.fileId !== currentFileId);
    for (const fileId of wanted) this.prefetch(fileId);
  }

  /**
   * Decodes ahead what a preview of this file will ask for: the first flat part's first layer (RGBA first). Its
   * chunks are decompressed once and kept, so whichever layer the preview shows is unpacked without a decode.
   */
  private prefetch(fileId: string): void {
    const file = this.library.file(fileId);
    if (!file || file.entry.status !== 'ok' || !file.entry.summary) return;
    const part = file.entry.summary.parts.find((p) => p.type === 'scanlineimage' || p.type === 'tiledimage');
    const layer = part?.layers[0];
    if (!part || !layer) return;
    const { ref, channels } = this.levelOf(fileId, part.index, 0, 0, layer.channels);
    if (this.levels.has(ref, channels) || this.levels.decoding(ref)) return;
    this.counters.prefetches++;
    this.levels.get(ref, channels, 'prefetch', null, true).then(
      (got) => got.release(),
      () => {
        // a prefetch that fails or is cancelled costs nothing: the preview request will say what went wrong
      },
    );
  }

  async exportImages(request: ExportRequest): Promise<ExportResult> {
    if (this.mode === 'browser' && request.outDir !== undefined) {
      throw new Error('browser mode cannot write files on this machine: leave out the export folder and the files are downloaded');
    }
    const sources: ExportSources = {
      file: (fileId) => {
        const { entry, absPath } = this.fileOf(fileId);
        return { entry, absPath };
      },
      decode: (fileId, part, channels) => this.decodeImage({ requestId: `export-${fileId}-${Math.random().toString(36).slice(2)}`, fileId, part, ...(channels ? { channels } : {}), priority: 'preview' }),
      thumbnail: (fileId, longSidePx) => this.getThumbnail({ requestId: `export-thumb-${fileId}-${Math.random().toString(36).slice(2)}`, fileId, longSidePx, priority: 'thumbnail-visible' }),
    };
    return exportImages(request, sources);
  }

  toneMapThumbnail(thumbnail: { rgbaHalf: ArrayBuffer; widthPx: number; heightPx: number }, view: DisplayParams, priority: Priority, options: ThumbnailOutputOptions = {}): Promise<ToneMapped> {
    return toneMapOnPool(this.pool, thumbnail.rgbaHalf, thumbnail.widthPx, thumbnail.heightPx, view, POOL_PRIORITY[priority] - 0.5, options);
  }

  prepareToneMap(view: DisplayParams): void {
    prepareToneMap(view);
  }

  async startWorkers(options: { warmJobs?: boolean } = {}): Promise<void> {
    await this.pool.start();
    if (options.warmJobs !== false && !this.closed) await warmUpJobs(this.pool, this.memory);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.ring.setPlan(null);
    this.library.close();
    await this.pool.close();
  }
}

declare const __filename: string | undefined;
let version: string | null = null;

/** The package's version, from package.json beside the sources or the bundle. */
function packageVersion(): string {
  if (version) return version;
  const here = typeof __filename === 'string' ? dirname(__filename) : dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, '..', '..', 'package.json'), join(here, '..', 'package.json'), join(here, '..', '..', '..', 'package.json')]) {
    if (!existsSync(candidate)) continue;
    try {
      const parsed = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (parsed.name === 'exrview' && parsed.version) return (version = parsed.version);
    } catch {
      // not ours: keep looking
    }
  }
  return (version = 'unknown');
}

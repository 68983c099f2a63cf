// The HostApi in plain Node: library (folders, watching), decode pool with shared prioritised jobs, RAM and disk caches, thumbnails, export.

import { existsSync, readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DecodedImage as CodecImage } from '../exr/index.js';
import type {
  BoxTuple,
  DecodedImage,
  DecodedPlane,
  DecodeRequest,
  ExportRequest,
  ExportResult,
  FileEntry,
  FileHeader,
  FolderInfo,
  HostApi,
  HostEvent,
  HostInfo,
  Priority,
  StageTimingsMs,
  Thumbnail,
  ThumbnailRequest,
} from './api.js';
import { DecodePool } from './decode/pool.js';
import type { DeepFlatJobResult } from './decode/deep-task.js';
import { DiskCache } from './cache/disk-cache.js';
import { exportImages, type ExportSources } from './export/export.js';
import { attributeValueText } from '../exr/attribute-text.js';
import { JobBroker, PARALLEL_DECODE } from './decode/broker.js';
import { scanlineLayout } from './decode/image-decode.js';
import { DEFAULT_LIBRARY_TIMING, Library } from './library/library.js';
import { RamCache } from './cache/ram-cache.js';
import { embeddedPreview } from './thumbnails/embedded-preview.js';
import { readSummary } from './library/summary.js';
import { thumbnailParams, type ThumbnailDetail } from './thumbnails/params.js';
import type { ThumbnailJobResult } from './thumbnails/job.js';

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
  /** Watcher timing (tests shorten it). */
  timing?: Partial<typeof DEFAULT_LIBRARY_TIMING>;
}

/** A HostApi that owns threads, watchers and files: close it when done. */
export interface Host extends HostApi {
  close(): Promise<void>;
  /** getThumbnail with what the command's timing summary needs (resize time, level used, channels shown). */
  getThumbnailDetailed(request: ThumbnailRequest): Promise<ThumbnailDetail>;
  readonly stats: HostStats;
}

export interface HostStats {
  ram: { hits: number; misses: number; sizeBytes: number; count: number; budgetBytes: number };
  disk: DiskCache['stats'];
  decodes: number;
  thumbnailsMade: number;
  prefetches: number;
}

export function createHost(options: HostOptions): Host {
  return new NodeHost(options);
}

type CachedImage = Omit<DecodedImage, 'fileId' | 'source' | 'timings'>;

const ZERO_TIMINGS: Omit<StageTimingsMs, 'hostMs'> = { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, bytesRead: 0 };

class NodeHost implements Host {
  private readonly pool: DecodePool;
  private readonly broker: JobBroker;
  private readonly library: Library;
  private readonly ram: RamCache<CachedImage>;
  private readonly disk: DiskCache;
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private readonly mode: 'electron' | 'browser';
  private readonly prefetchOn: boolean;
  private visible = new Set<string>();
  private progress = { done: 0, total: 0 };
  private counters = { decodes: 0, thumbnailsMade: 0, prefetches: 0 };
  private closed = false;

  constructor(options: HostOptions) {
    this.mode = options.mode ?? 'electron';
    this.prefetchOn = options.prefetch ?? true;
    this.pool = new DecodePool({ ...(options.workers ? { workers: options.workers } : {}), ...(options.workerPath ? { workerPath: options.workerPath } : {}) });
    this.broker = new JobBroker(this.pool);
    this.ram = new RamCache(options.ramBudgetBytes ?? Math.floor(totalmem() / 4));
    this.disk = new DiskCache(join(resolve(options.userDataDir), 'thumbnails'));
    this.library = new Library({
      ...DEFAULT_LIBRARY_TIMING,
      ...options.timing,
      onEvent: (event) => this.emit(event),
      onInvalidate: (absPath) => {
        this.ram.deletePrefix(`${absPath}\0`);
        void this.disk.invalidate(absPath);
      },
      allowPath: async () => true,
      displayPath: (absPath) => absPath,
    });
  }

  get stats(): HostStats {
    return {
      ram: { hits: this.ram.hits, misses: this.ram.misses, sizeBytes: this.ram.sizeBytes, count: this.ram.count, budgetBytes: this.ram.budgetBytes },
      disk: { ...this.disk.stats },
      ...this.counters,
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
      ramCacheBudgetBytes: this.ram.budgetBytes,
    };
  }

  async openFolder(path?: string, options?: { recursive?: boolean }): Promise<FolderInfo | null> {
    // no path: the folder picker, which only the Electron shell can show
    if (path === undefined) return null;
    const root = resolve(path);
    const { stat } = await import('node:fs/promises');
    const info = await stat(root).catch((error: NodeJS.ErrnoException) => {
      throw new Error(`cannot open ${root}: ${error.code === 'ENOENT' ? 'no such folder' : error.message.replace(/^[A-Z]+: /, '')}`);
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

  /** RAM cache key of one decode; every key of a file starts with its path (invalidation by prefix). */
  private decodeKey(absPath: string, entry: FileEntry, part: number, lx: number, ly: number, channels: string[] | null): string {
    return `${absPath}\0${entry.sizeBytes}\0${entry.mtimeMs}\0${part}\0${lx}\0${ly}\0${channels ? channels.join('\x01') : '*'}`;
  }

  async decodeImage(request: DecodeRequest): Promise<DecodedImage> {
    const t0 = performance.now();
    const { entry, absPath } = this.fileOf(request.fileId);
    const partSummary = entry.summary?.parts[request.part];
    if (!partSummary) throw new Error(`${entry.name} has no part ${request.part} (it has ${entry.summary?.parts.length ?? 0})`);
    const lx = request.lx ?? 0;
    const ly = request.ly ?? lx;
    const all = partSummary.channels.map((c) => c.name);
    for (const name of request.channels ?? []) {
      if (!all.includes(name)) throw new Error(`${entry.name} part ${request.part} has no channel "${name}" (it has ${all.join(', ')})`);
    }
    const wanted = request.channels && !(request.channels.length === all.length && all.every((c) => request.channels!.includes(c))) ? all.filter((c) => request.channels!.includes(c)) : null;
    const key = this.decodeKey(absPath, entry, request.part, lx, ly, wanted);
    const fullKey = this.decodeKey(absPath, entry, request.part, lx, ly, null);
    const cached = this.ram.get(key) ?? (wanted ? subsetOf(this.ram.get(fullKey), wanted) : undefined);
    if (cached) {
      return { ...cached, fileId: request.fileId, source: 'ram-cache', timings: { ...ZERO_TIMINGS, hostMs: performance.now() - t0 } };
    }
    const deep = partSummary.type === 'deepscanline' || partSummary.type === 'deeptile';
    const { image, timings } = await this.runDecode(key, request.fileId, absPath, partSummary.displayWindow, request.part, lx, ly, wanted, deep, request.priority, request.requestId);
    return { ...image, fileId: request.fileId, source: 'decode', timings: { ...timings, hostMs: performance.now() - t0 } };
  }

  private async runDecode(
    key: string,
    fileId: string,
    absPath: string,
    displayWindow: BoxTuple,
    part: number,
    lx: number,
    ly: number,
    channels: string[] | null,
    deep: boolean,
    priority: Priority,
    requestId: string | null,
  ): Promise<{ image: CachedImage; timings: Omit<StageTimingsMs, 'hostMs'> }> {
    // the image on screen is decoded by every worker at once (bands planned from the header we hold,
    // so they queue immediately); prefetches, and any decode with a single worker, keep one worker each
    const summary = this.library.file(fileId)?.entry.summary?.parts[part];
    const layout = !deep && priority === 'preview' && this.pool.size > 1 && lx === 0 && ly === 0 && summary ? scanlineLayout(summary, channels) : null;
    const args = { path: absPath, part, lx, ly, ...(channels ? { channels } : {}), ...(layout ? { layout } : {}) };
    const kind = deep ? 'deepFlat' : layout ? PARALLEL_DECODE : 'decode';
    const { result, timings } = await this.broker.run<CodecImage | DeepFlatJobResult>(key, { fileId, kind }, args, priority, requestId);
    // shared jobs hand every waiter the same result: convert and cache it once
    let image = this.ram.get(key);
    const codec = deep ? (result as DeepFlatJobResult).image : (result as CodecImage);
    if (!image) {
      this.counters.decodes++;
      image = fromCodec(codec, displayWindow, deep ? (result as DeepFlatJobResult).sampleCounts : null);
      this.ram.set(key, image, imageBytes(image));
    }
    return {
      image,
      timings: { readMs: codec.timings.readMs, decompressMs: codec.timings.decompressMs, unpackMs: codec.timings.unpackMs, queueMs: timings.queueMs, bytesRead: codec.timings.bytesRead },
    };
  }

  private cacheWriteWarned = new Set<string>();

  /** A failed cache write (disk full, permissions) costs only a rebuild next time: say so once per cause, on stderr. */
  private cacheWriteFailed(error: unknown): void {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    if (this.cacheWriteWarned.has(code)) return;
    this.cacheWriteWarned.add(code);
    const reason = code === 'ENOSPC' ? 'the disk is full' : (error as Error).message;
    console.warn(`exrview: thumbnail cache: cannot write to ${this.disk.folder} (${reason}); thumbnails are still made, but not kept for next time`);
  }

  async getThumbnail(request: ThumbnailRequest): Promise<Thumbnail> {
    return (await this.getThumbnailDetailed(request)).thumbnail;
  }

  async getThumbnailDetailed(request: ThumbnailRequest): Promise<ThumbnailDetail> {
    const t0 = performance.now();
    if (!Number.isInteger(request.longSidePx) || request.longSidePx < 1 || request.longSidePx > 8192) {
      throw new Error(`thumbnail size ${request.longSidePx} is out of range: ask for a long side of 1 to 8192 pixels`);
    }
    const { entry, absPath } = this.fileOf(request.fileId);
    if (request.embeddedPreview) return this.embeddedPreviewThumbnail(request, entry, absPath, t0);
    this.progress.total++;
    try {
      const params = thumbnailParams(request.longSidePx);
      const cached = await this.cachedThumbnail(request.fileId, entry, absPath, params, t0);
      if (cached) return cached;
      const priority = this.visible.size === 0 ? request.priority : this.visible.has(request.fileId) ? 'thumbnail-visible' : 'thumbnail-hidden';
      const key = `thumb\0${absPath}\0${entry.sizeBytes}\0${entry.mtimeMs}\0${params}`;
      const { result, timings } = await this.broker.run<ThumbnailJobResult>(key, { fileId: request.fileId, kind: 'thumbnail' }, { path: absPath, longSidePx: request.longSidePx }, priority, request.requestId);
      this.counters.thumbnailsMade++;
      // the cache write runs on; close() waits for it
      this.disk
        .put({
          meta: { path: absPath, sizeBytes: entry.sizeBytes, mtimeMs: entry.mtimeMs, params, widthPx: result.widthPx, heightPx: result.heightPx, madeFrom: result.source },
          rgbaHalf: result.rgbaHalf,
        })
        .catch((error: unknown) => this.cacheWriteFailed(error));
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

  /** Decodes what a preview of this file will ask for (first flat part, level 0, every channel) into the RAM cache. */
  private prefetch(fileId: string): void {
    const file = this.library.file(fileId);
    if (!file || file.entry.status !== 'ok' || !file.entry.summary) return;
    const part = file.entry.summary.parts.find((p) => p.type === 'scanlineimage' || p.type === 'tiledimage');
    if (!part) return;
    const key = this.decodeKey(file.absPath, file.entry, part.index, 0, 0, null);
    if (this.ram.has(key) || this.broker.has(key)) return;
    this.counters.prefetches++;
    this.runDecode(key, fileId, file.absPath, part.displayWindow, part.index, 0, 0, null, false, 'prefetch', null).catch(() => {
      // a prefetch that fails or is cancelled costs nothing: the preview request will say what went wrong
    });
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

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.library.close();
    await this.disk.flush();
    await this.pool.close();
  }
}

function exactBuffer(data: ArrayBufferView): ArrayBuffer {
  if (data.buffer instanceof SharedArrayBuffer) {
    // planes that several workers filled in place: a plain copy, so every transport can send it
    const copy = new ArrayBuffer(data.byteLength);
    new Uint8Array(copy).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    return copy;
  }
  const buffer = data.buffer as ArrayBuffer;
  return data.byteOffset === 0 && data.byteLength === buffer.byteLength ? buffer : buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
}

function fromCodec(image: CodecImage, displayWindow: BoxTuple, sampleCounts: Uint32Array | null): CachedImage {
  const planes: DecodedPlane[] = image.channels.map((c) => ({
    name: c.name,
    pixelType: c.pixelType,
    xSampling: c.xSampling,
    ySampling: c.ySampling,
    widthSamples: c.widthSamples,
    heightSamples: c.heightSamples,
    data: exactBuffer(c.data),
  }));
  const r = image.region;
  return {
    part: image.part,
    lx: image.lx,
    ly: image.ly,
    dataWindow: [r.xMin, r.yMin, r.xMax, r.yMax],
    displayWindow,
    widthPx: image.widthPx,
    heightPx: image.heightPx,
    planes,
    ...(sampleCounts ? { deepSampleCounts: exactBuffer(sampleCounts) } : {}),
  };
}

function imageBytes(image: CachedImage): number {
  return image.planes.reduce((sum, p) => sum + p.data.byteLength, 0) + (image.deepSampleCounts?.byteLength ?? 0);
}

function subsetOf(image: CachedImage | undefined, channels: string[]): CachedImage | undefined {
  if (!image) return undefined;
  return { ...image, planes: image.planes.filter((p) => channels.includes(p.name)) };
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

// The HostApi in plain Node: a façade over the library, decoded images, thumbnails and export, on one decode pool.

import { totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import type {
  DecodedImage,
  DecodeRequest,
  ExportRequest,
  ExportResult,
  FileEntry,
  FileHeader,
  FolderInfo,
  HostEvent,
  HostInfo,
  PlaybackPlan,
  SequenceInfo,
  Thumbnail,
  ThumbnailRequest,
  Priority,
  ColourConfigFiles,
  DeepSampleSet,
  DeepSamplesRequest,
  LevelStatistics,
  LevelStatisticsRequest,
} from '../contract/host-api.js';
import { decodeTier } from '../codec/index.js';
import type { DisplayParams } from '../shaders/display-params.js';
import { DecodePool } from './decode/pool.js';
import type { DeepSamplesTaskArgs, DeepSamplesTaskResult } from './decode/deep-samples-task.js';
import { DecodedLevels } from './decode/levels.js';
import { PlaneMemory } from './decode/plane-memory.js';
import { hugePageAdvice } from './decode/huge-pages.js';
import { JobBroker, POOL_PRIORITY } from './decode/broker.js';
import { warmUpJobs } from './worker/warm-up-jobs.js';
import { DiskCache } from './cache/disk-cache.js';
import { HeaderCache } from './cache/header-cache.js';
import { exportImages } from './export/export.js';
import { pageConfigs } from './export/ocio-view.js';
import { fsReason } from './io/fs-reason.js';
import { DEFAULT_LIBRARY_TIMING, Library } from './library/library.js';
import { ImageService } from './images/image-service.js';
import { LevelStatisticsService } from './images/level-stats.js';
import { ThumbnailService } from './thumbnails/thumbnail-service.js';
import { prepareToneMap, type ToneMapped } from './thumbnails/tone-map-on-pool.js';
import type { ThumbnailDetail, ThumbnailOutputOptions } from './thumbnails/params.js';
import { packageVersion } from './settings/app-paths.js';
import { ColourConfigs } from './colour/colour-configs.js';
import type { Host, HostOptions, HostStats } from './host-types.js';

export type { Host, HostOptions, HostStats } from './host-types.js';

export function createHost(options: HostOptions): Host {
  return new NodeHost(options);
}

/** The HostApi as a façade: each request handed to the part that serves it (library, images, thumbnails, export). */
class NodeHost implements Host {
  private readonly pool: DecodePool;
  private readonly broker = new JobBroker();
  private readonly memory: PlaneMemory;
  private readonly levels: DecodedLevels;
  private readonly disk: DiskCache;
  /** Headers the library read, for planning decodes and thumbnails without reading them again. */
  private readonly headers = new HeaderCache();
  private readonly library: Library;
  private readonly images: ImageService;
  private readonly levelStats: LevelStatisticsService;
  /** Bytes of decoded images the host keeps in RAM; also what one export may hold. */
  private readonly ramBudgetBytes: number;
  private readonly thumbnails: ThumbnailService;
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private readonly mode: 'electron' | 'browser';
  private readonly colourConfigs: ColourConfigs;
  private closed = false;

  constructor(options: HostOptions) {
    this.mode = options.mode ?? 'electron';
    // a config the page loaded from disk that is edited there: the page reads it again
    this.colourConfigs = new ColourConfigs(options.settingsDir, process.env, {
      onChanged: (path) => this.emit({ type: 'colour-config-changed', path }),
    });
    this.pool = new DecodePool({
      // prefetches and thumbnails wait while a picked image decodes: the click comes first
      backgroundFrom: POOL_PRIORITY.prefetch,
      ...(options.workers ? { workers: options.workers } : {}),
      ...(options.workerPath ? { workerPath: options.workerPath } : {}),
    });
    const ramBudgetBytes = options.ramBudgetBytes ?? Math.floor(totalmem() / 4);
    this.ramBudgetBytes = ramBudgetBytes;
    // buffers of images that left the RAM cache, kept for the next decode of the same size
    this.memory = new PlaneMemory({ keepBytes: Math.min(1 << 30, Math.floor(ramBudgetBytes / 4)), advise: hugePageAdvice });
    this.levels = new DecodedLevels(this.pool, this.broker, this.memory, ramBudgetBytes, this.headers);
    this.disk = new DiskCache(join(resolve(options.userDataDir), 'thumbnails'));
    this.library = new Library({
      ...DEFAULT_LIBRARY_TIMING,
      ...options.timing,
      onEvent: (event) => {
        if (event.type === 'files-added' || event.type === 'files-changed') this.images.expectPreviews(event.files);
        this.emit(event);
      },
      onInvalidate: (absPath) => {
        this.headers.forget(absPath);
        this.levels.forget(absPath);
        void this.disk.invalidate(absPath);
      },
      onHeader: (absPath, header) =>
        this.headers.put(absPath, header.sizeBytes, header.mtimeMs, header.parts, header.headerBytes, header.handoff),
      allowPath: async () => true,
      displayPath: (absPath) => absPath,
    });
    this.images = new ImageService(this.library, this.levels, this.broker, {
      playbackBudgetBytes: options.playbackBudgetBytes ?? Math.min(2 * 2 ** 30, Math.floor(ramBudgetBytes / 2)),
      prefetch: options.prefetch ?? true,
      planes: { memory: this.memory, poolIdle: () => this.pool.pending === 0 && this.pool.posted === 0 },
    });
    const { pool, broker, disk, headers } = this;
    this.levelStats = new LevelStatisticsService({
      pool,
      broker,
      headers,
      levelOf: (fileId, part, lx, ly, channels) => this.images.levelOf(fileId, part, lx, ly, channels),
    });
    this.thumbnails = new ThumbnailService({
      pool,
      broker,
      disk,
      headers,
      // a damaged file whose header reads gets a thumbnail of its readable chunks
      fileOf: (fileId) => this.images.readableFileOf(fileId),
      emit: (event) => this.emit(event),
      chunksThere: (absPath) => this.library.renderWalks.chunksThere(absPath),
    });
  }

  get stats(): HostStats {
    const { levels, memory, headers } = this;
    return {
      ram: levels.cache,
      disk: { ...this.disk.stats },
      decodes: levels.decodes,
      unpacks: levels.unpacks,
      storeFills: levels.storeFills,
      planeMemory: { reused: memory.reused, allocated: memory.allocated, keptBytes: memory.keptBytes },
      thumbnailsMade: this.thumbnails.made,
      prefetches: this.images.prefetches,
      headers: { hits: headers.hits, reads: headers.reads, sizeBytes: headers.sizeBytes },
      playback: this.images.playback,
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
      ...(process.env.OCIO ? { ocio: process.env.OCIO } : {}),
      recentColourConfigs: this.colourConfigs.recentConfigs,
      decodeTier: decodeTier(),
    };
  }

  /** Reads what it is given: which paths a page may name is the transport's to check (no path: no picker here). */
  async readColourConfig(path?: string): Promise<ColourConfigFiles | null> {
    return path === undefined ? null : this.colourConfigs.read(path);
  }

  async openFolder(path?: string, options?: { recursive?: boolean; progressive?: boolean }): Promise<FolderInfo | null> {
    // no path: the folder picker, which only the Electron shell can show
    if (path === undefined) return null;
    const root = resolve(path);
    const { stat } = await import('node:fs/promises');
    const info = await stat(root).catch((error: NodeJS.ErrnoException) => {
      throw new Error(`cannot open ${root}: ${error.code === 'ENOENT' ? 'no such folder' : fsReason(error)}`);
    });
    if (!info.isDirectory()) throw new Error(`cannot open ${root}: it is a file, not a folder (open the folder that holds it)`);
    const folder = await this.library.openFolder(root, options?.recursive ?? false, options?.progressive ?? false);
    this.images.expectPreviews(this.library.listFiles(folder.id), true);
    return folder;
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
    this.images.setPlayback(plan);
  }

  getHeader(fileId: string): Promise<FileHeader> {
    return this.images.header(fileId);
  }

  async decodeImage(request: DecodeRequest): Promise<DecodedImage> {
    return (await this.images.decode(request, false)).image;
  }

  decodeImageLease(request: DecodeRequest): Promise<{ image: DecodedImage; release(): void }> {
    return this.images.decode(request, true);
  }

  /** On the pool, ahead of prefetches: one pixel decodes only the chunk that holds it. */
  async deepSamples(request: DeepSamplesRequest): Promise<DeepSampleSet> {
    const { absPath } = this.images.readableFileOf(request.fileId);
    const { fileId, ...rest } = request;
    const args: DeepSamplesTaskArgs = { ...rest, path: absPath };
    const { result } = await this.pool.submit('deepSamples', args, POOL_PRIORITY.preview).promise;
    return { fileId, ...(result as DeepSamplesTaskResult) };
  }

  levelStatistics(request: LevelStatisticsRequest): Promise<LevelStatistics> {
    return this.levelStats.measure(request);
  }

  async getThumbnail(request: ThumbnailRequest): Promise<Thumbnail> {
    return (await this.thumbnails.get(request)).thumbnail;
  }

  getThumbnailDetailed(request: ThumbnailRequest, view?: DisplayParams, options: ThumbnailOutputOptions = {}): Promise<ThumbnailDetail> {
    return this.thumbnails.get(request, view, options);
  }

  cancel(requestId: string): void {
    this.broker.cancel(requestId);
  }

  setVisible(fileIds: string[], currentFileId: string | null): void {
    this.thumbnails.setVisible(fileIds);
    this.images.prefetchAround(currentFileId);
  }

  async exportImages(request: ExportRequest): Promise<ExportResult> {
    if (this.mode === 'browser' && request.outDir !== undefined) {
      throw new Error('browser mode cannot write files on this machine: leave out the export folder and the files are downloaded');
    }
    const id = (what: string, fileId: string): string => `${what}-${fileId}-${Math.random().toString(36).slice(2)}`;
    return exportImages(request, {
      // a damaged file: what of it is exported, and how that is said, is the export's to decide
      file: (fileId) => this.images.readableFileOf(fileId),
      decode: (fileId, part, channels, fit) =>
        this.decodeImage({
          requestId: id('export', fileId),
          fileId,
          part,
          ...(channels ? { channels } : {}),
          ...(fit ? { fitWithin: fit } : {}),
          priority: 'preview',
        }),
      // an export holds its decoded planes and working copies at once: at most the RAM cache's budget
      memoryBytes: this.ramBudgetBytes,
      thumbnail: (fileId, longSidePx) =>
        this.getThumbnail({ requestId: id('export-thumb', fileId), fileId, longSidePx, priority: 'thumbnail-visible' }),
      // an OCIO config by path only when this host read it for the page: the same files its preview was built from
      ocioConfigs: pageConfigs((path) => this.colourConfigs.configAt(path)),
    });
  }

  toneMapThumbnail(
    thumbnail: { rgbaHalf: ArrayBuffer; widthPx: number; heightPx: number },
    view: DisplayParams,
    priority: Priority,
    options: ThumbnailOutputOptions = {},
  ): Promise<ToneMapped> {
    return this.thumbnails.toneMap(thumbnail, view, priority, options);
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
    this.images.close();
    this.images.setPlayback(null);
    this.library.close();
    this.colourConfigs.close();
    await this.pool.close();
  }
}

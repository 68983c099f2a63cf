// What the Node host offers beyond HostApi (its options, its lifetime, its counters): the types host.ts implements.

import type { HostApi, PixelLease, Priority, ThumbnailRequest } from '../contract/host-api.js';
import type { DisplayParams } from '../shaders/display-params.js';
import type { DiskCache } from './cache/disk-cache.js';
import type { DEFAULT_LIBRARY_TIMING } from './library/library.js';
import type { FrameRingStats } from './playback/frame-ring.js';
import type { ThumbnailDetail, ThumbnailOutputOptions } from './thumbnails/params.js';
import type { ToneMapped } from './thumbnails/tone-map-on-pool.js';

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
  /** Where settings.json lives, for the recent OCIO configs; without it the list lasts as long as the host. */
  settingsDir?: string;
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
  toneMapThumbnail(
    thumbnail: { rgbaHalf: ArrayBuffer; widthPx: number; heightPx: number },
    view: DisplayParams,
    priority: Priority,
    options?: ThumbnailOutputOptions,
  ): Promise<ToneMapped>;
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

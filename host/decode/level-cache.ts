// Decoded levels held in RAM within a budget: pinned while read, leased out, and their memory recycled once out and unread.

import type { DecodedImage as CodecImage } from '../../codec/index.js';
import type { DecodedImage, DecodedPlane } from '../../contract/host-api.js';
import { RamCache } from '../cache/ram-cache.js';
import type { DeepFlatTaskResult } from './deep-task.js';
import type { LevelDecode } from './image-decode.js';
import { fileKeyPrefix, type LevelRef } from './level-ref.js';
import { bufferOf, missingOf, planeOf, type LevelImage, type LevelPlanes, type LevelTimings } from './level-planes.js';
import type { PlaneMemory } from './plane-memory.js';

export interface CachedLevel {
  key: string;
  image: Omit<LevelImage, 'planes'>;
  planes: Map<string, DecodedPlane>;
  /** The level's decompressed chunks, while they are kept. */
  chunkStore: SharedArrayBuffer | null;
  /**
   * The store's background fill: due once the preview's planes are sent (a request that needs the store starts it
   * sooner), running, or not kept (it would not fit the cache).
   */
  storeFill: 'none' | 'due' | 'running' | 'not-kept';
  /** Leases and jobs reading the level's memory now. */
  pins: number;
  /** Some planes went out without a lease: their memory is never reused (it may still be read). */
  handedOut: boolean;
  inCache: boolean;
  /**
   * A playback frame decoded while there was no time to keep it: it never enters the RAM cache, and its memory goes to
   * the next frame's decode once released (fresh memory costs as much as the decode on some machines).
   */
  transient: boolean;
}

export class LevelCache {
  private readonly ram: RamCache<CachedLevel>;
  /** Level decodes put in the cache (a decode shared by several requests counts once). */
  decodes = 0;

  constructor(
    private readonly memory: PlaneMemory,
    budgetBytes: number,
  ) {
    this.ram = new RamCache<CachedLevel>(budgetBytes, (level) => {
      level.inCache = false;
      this.recycle(level);
    });
  }

  get stats(): { hits: number; misses: number; sizeBytes: number; count: number; budgetBytes: number } {
    const { hits, misses, sizeBytes, count, budgetBytes } = this.ram;
    return { hits, misses, sizeBytes, count, budgetBytes };
  }

  /** The level under `key`, counted as a hit or a miss. */
  lookUp(key: string): CachedLevel | null {
    return this.ram.get(key) ?? null;
  }

  /** Whether the level under `key` holds every one of these channels (not counted as a hit or a miss). */
  has(key: string, channels: readonly string[]): boolean {
    const level = this.ram.peek(key);
    return !!level && channels.every((c) => level.planes.has(c));
  }

  /** Drops every level of a file (it changed on disk). */
  forget(absPath: string): void {
    this.ram.deletePrefix(fileKeyPrefix(absPath));
  }

  /** Whether the level would still fit the budget with `moreBytes` beside what it holds. */
  fits(level: CachedLevel, moreBytes: number): boolean {
    return levelBytes(level) + moreBytes <= this.ram.budgetBytes;
  }

  /** Puts a finished decode into the cache once (every waiter of a shared job sees the same result), and returns its level. */
  ingest(key: string, ref: LevelRef, result: LevelDecode | DeepFlatTaskResult, keep: boolean): CachedLevel {
    const known = ingested.get(result);
    if (known) return known;
    this.decodes++;
    const codec = ref.deep ? (result as DeepFlatTaskResult).image : (result as LevelDecode).image;
    const r = codec.region;
    const level: CachedLevel = this.ram.peek(key) ?? {
      key,
      image: {
        part: codec.part,
        lx: codec.lx,
        ly: codec.ly,
        dataWindow: [r.xMin, r.yMin, r.xMax, r.yMax],
        displayWindow: ref.displayWindow,
        widthPx: codec.widthPx,
        heightPx: codec.heightPx,
        ...(ref.deep ? { deepSampleCounts: bufferOf((result as DeepFlatTaskResult).sampleCounts) as ArrayBuffer } : {}),
        // the same chunks are missing from every channel set of the level (a chunk store holds them zeroed)
        ...(codec.missing ? { missing: missingOf(codec.missing) } : {}),
      },
      planes: new Map(),
      chunkStore: null,
      storeFill: 'none',
      pins: 0,
      handedOut: false,
      inCache: false,
      transient: !keep,
    };
    if (!ref.deep) level.chunkStore ??= (result as LevelDecode).chunkStore;
    ingested.set(result, level);
    this.addPlanes(level, codec);
    return level;
  }

  /** Adds the channels of a decode the level lacks; a level that no longer fits lets its chunk store go. */
  addPlanes(level: CachedLevel, codec: CodecImage): void {
    for (const c of codec.channels) if (!level.planes.has(c.name)) level.planes.set(c.name, planeOf(c));
    level.inCache = !level.transient && this.ram.set(level.key, level, levelBytes(level));
    if (!level.inCache) this.dropStore(level);
  }

  /** Keeps a filled chunk store with the level, or, when the cache filled up meanwhile, the planes without it. */
  keepStore(level: CachedLevel, store: SharedArrayBuffer): void {
    level.chunkStore = store;
    level.inCache = this.ram.set(level.key, level, levelBytes(level));
    if (!level.inCache) {
      // nothing has read the store yet
      level.chunkStore = null;
      level.storeFill = 'not-kept';
      this.memory.give(store);
      level.inCache = this.ram.set(level.key, level, levelBytes(level));
    }
  }

  /** Lets a level's chunk store go when the level does not fit the cache with it (another layer then needs a decode). */
  private dropStore(level: CachedLevel): void {
    if (!level.chunkStore || level.pins > 0) return;
    this.memory.give(level.chunkStore);
    level.chunkStore = null;
    level.storeFill = 'not-kept';
    level.inCache = !level.transient && this.ram.set(level.key, level, levelBytes(level));
  }

  /**
   * The level's planes of `channels`; `lease`: pinned until release() (then `released` is told which level's lease
   * ended), else handed out for good (their memory is never reused).
   */
  handOut(
    level: CachedLevel,
    channels: readonly string[],
    source: DecodedImage['source'],
    timings: LevelTimings,
    lease: boolean,
    released: (level: CachedLevel) => void,
  ): LevelPlanes {
    const planes = channels.map((c) => level.planes.get(c)!);
    if (lease) level.pins++;
    else level.handedOut = true;
    let done = !lease;
    return {
      image: { ...level.image, planes },
      source,
      timings,
      release: () => {
        if (done) return;
        done = true;
        this.unpin(level);
        released(level);
      },
    };
  }

  /** While pinned, what the level holds is not reused, even once it leaves the cache. */
  pin(level: CachedLevel): void {
    level.pins++;
  }

  unpin(level: CachedLevel): void {
    level.pins--;
    this.recycle(level);
  }

  /** A level out of the cache that no one reads any more gives its memory to the next decode. */
  private recycle(level: CachedLevel): void {
    if (level.inCache || level.pins > 0 || level.handedOut) return;
    for (const p of level.planes.values()) if (p.data instanceof SharedArrayBuffer) this.memory.give(p.data);
    if (level.chunkStore) this.memory.give(level.chunkStore);
    level.planes.clear();
    level.chunkStore = null;
    // so that it is never given twice
    level.handedOut = true;
  }
}

const ingested = new WeakMap<object, CachedLevel>();

function levelBytes(level: CachedLevel): number {
  let bytes = level.chunkStore?.byteLength ?? 0;
  for (const p of level.planes.values()) bytes += p.data.byteLength;
  return bytes + (level.image.deepSampleCounts?.byteLength ?? 0);
}

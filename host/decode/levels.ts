// Decoded levels in RAM and the requests that fill them: only the planes asked for are unpacked.
//
// A request names the channels it shows (a layer and its alpha). When it asks for fewer than all channels, the
// level's decompressed chunks are kept in RAM beside the planes (the level's chunk store), and a later request for
// other channels (a layer switch) is unpacked from them: no read, no decompression.
//
// A preview gets its planes first: its decode decompresses each chunk into a small reused buffer and unpacks only
// what is shown, and the chunk store is filled after, in the background, by a second pass. Filling the store inside
// the first pass would put the first touch of the whole decompressed image (every layer of a many-channel render) on
// the path from the click to the pixels, which costs more than decoding the layer shown. A prefetch, off that path, fills
// the store in its one pass. Memory of levels that leave the cache is handed to the next decode (plane-memory.ts)
// once no one reads it any more: requests that pass the planes on (the transports) lease them and release them when
// sent.

import {
  ExrError,
  missingRegions,
  type DecodedImage as CodecImage,
  type Box2i,
  type MissingChunks,
  type PartInfo,
  type StageTimings,
} from '../../codec/index.js';
import type { BoxTuple, DecodedImage, DecodedPlane, MissingRegions, Priority, StageTimingsMs } from '../../contract/host-api.js';
import { RamCache } from '../cache/ram-cache.js';
import type { JobBroker } from './broker.js';
import type { DeepFlatTaskResult } from './deep-task.js';
import { decodeLevel, type LevelDecode } from './image-decode.js';
import { cropLayout, levelLayout, type LevelLayout } from './layout.js';
import { decodeReducedPass, type ReducedPass } from './reduced-pass.js';
import type { PlaneMemory } from './plane-memory.js';
import type { DecodePool, JobHandle } from './pool.js';
import { HeaderCache } from '../cache/header-cache.js';
import type { HeaderHandoff } from '../headers/header-handoff.js';

/** One level of one file as it is on disk now. */
export interface LevelRef {
  fileId: string;
  absPath: string;
  sizeBytes: number;
  mtimeMs: number;
  part: number;
  lx: number;
  ly: number;
  displayWindow: BoxTuple;
  deep: boolean;
  /** Every channel of the part, header order. */
  allChannels: readonly string[];
}

export type LevelImage = Omit<DecodedImage, 'fileId' | 'source' | 'timings'>;

export interface LevelPlanes {
  image: LevelImage;
  source: DecodedImage['source'];
  timings: Omit<StageTimingsMs, 'hostMs'>;
  /** Ends a lease: the planes are not read any more, and their memory may be reused once the level leaves the cache. */
  release(): void;
}

interface CachedLevel {
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

const ZERO: Omit<StageTimingsMs, 'hostMs'> = { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, bytesRead: 0 };

export class DecodedLevels {
  private readonly ram: RamCache<CachedLevel>;
  /** Level decodes run (reads and decompressions), unpacks from chunk stores, and requests answered from RAM as they were. */
  decodes = 0;
  unpacks = 0;
  /** Background passes that kept a level's decompressed chunks after its preview went out. */
  storeFills = 0;
  /** Crops decoded (each its own job). */
  crops = 0;
  /** Reductions streamed (each its own job). */
  reductions = 0;
  /** Levels whose store fill waits for their preview's planes to be sent. */
  private readonly fillsOnRelease = new Map<CachedLevel, LevelRef>();

  constructor(
    private readonly pool: DecodePool,
    private readonly broker: JobBroker,
    private readonly memory: PlaneMemory,
    budgetBytes: number,
    private readonly headers: HeaderCache = new HeaderCache(),
  ) {
    this.ram = new RamCache<CachedLevel>(budgetBytes, (level) => {
      level.inCache = false;
      this.recycle(level);
    });
  }

  get cache(): { hits: number; misses: number; sizeBytes: number; count: number; budgetBytes: number } {
    return {
      hits: this.ram.hits,
      misses: this.ram.misses,
      sizeBytes: this.ram.sizeBytes,
      count: this.ram.count,
      budgetBytes: this.ram.budgetBytes,
    };
  }

  /**
   * The planes of `channels` (header order) of a level; `lease`: the caller releases them when done, so their memory
   * can be reused. Playback decodes keep no chunk store: a frame is shown once per loop, and the store of a
   * many-layer frame would take several times the budget of the frames ahead. `keep` false: a new decode is not kept
   * in the RAM cache (a transient level, see CachedLevel.transient); a level already there is handed out as usual.
   * Levels are decoded tolerantly: a preview (or its prefetch) of a damaged file gets the chunks that could be read,
   * with the others in the image's `missing`; any other request for such a level fails with the first chunk's reason.
   */
  async get(
    ref: LevelRef,
    channels: readonly string[],
    priority: Priority,
    requestId: string | null,
    lease: boolean,
    keep = true,
  ): Promise<LevelPlanes> {
    const chunks: ChunkKeeping = priority === 'playback' ? 'none' : priority === 'preview' ? 'after' : 'during';
    const key = levelKey(ref);
    let source: DecodedImage['source'] = 'ram-cache';
    let timings = ZERO;
    let level = this.ram.get(key) ?? null;
    // the level is pinned while this request works on it: what it holds cannot be reused under it
    let pinned: CachedLevel | null = null;
    const hold = (l: CachedLevel) => {
      if (pinned === l) return;
      if (pinned) this.unpin(pinned);
      l.pins++;
      pinned = l;
    };
    try {
      for (let round = 0; round < 3; round++) {
        if (level) hold(level);
        const damage = level?.image.missing;
        if (damage && priority !== 'preview' && priority !== 'prefetch') throw new ExrError('invalid', damage.reason);
        const missing = level ? channels.filter((c) => !level!.planes.has(c)) : channels;
        if (level && missing.length === 0) return this.handOut(level, channels, source, timings, lease);
        if (level && !level.chunkStore && (level.storeFill === 'running' || level.storeFill === 'due'))
          await this.fillStore(ref, level, priority, requestId);
        if (level?.chunkStore) {
          timings = await this.unpack(ref, level, missing, priority, requestId);
          continue;
        }
        // one decode per level at a time: a request for other channels joins it, then unpacks from its chunk store
        const run = await this.broker.run<LevelDecode | DeepFlatTaskResult>(
          `${key}\0decode`,
          { fileId: ref.fileId, kind: 'decode' },
          this.decodeStarter(ref, channels, chunks),
          priority,
          requestId,
        );
        level = this.ingest(key, ref, run.result, keep);
        if (chunks === 'after') this.storeFillDue(ref, level, lease);
        source = 'decode';
        const codec = ref.deep ? (run.result as DeepFlatTaskResult).image : (run.result as LevelDecode).image;
        timings = { ...stageMs(codec.timings), queueMs: run.timings.queueMs };
      }
      throw new Error(
        `the decoded image of ${ref.absPath} kept leaving the RAM cache while it was being made: close other images or raise the cache size`,
      );
    } finally {
      if (pinned) this.unpin(pinned);
    }
  }

  /**
   * A crop of a level (absolute box inside it): only the chunks it touches are read and decompressed, by every free
   * worker, into plane memory of the crop's size that release() gives back. Nothing is cached: the page keeps the crop
   * it shows, and a reduction streams bands through here without holding the level.
   */
  async crop(ref: LevelRef, channels: readonly string[], box: Box2i, priority: Priority, requestId: string | null): Promise<LevelPlanes> {
    if (ref.deep) throw new Error(`${ref.absPath}: a crop of a deep part cannot be decoded alone; decode the whole part`);
    const all = channels.length === ref.allChannels.length;
    const selected = all ? null : [...channels];
    const whole = await layoutOf(this.headers, ref, selected);
    const layout = cropLayout(whole, box);
    const run = await this.broker.run<LevelDecode>(
      // never shared: each waiter gives its planes back
      `${levelKey(ref)}\0crop\0${++this.crops}`,
      { fileId: ref.fileId, kind: 'crop' },
      (poolPriority) =>
        decodeLevel(this.pool, {
          path: ref.absPath,
          layout,
          handoff: handoffOf(this.headers, ref),
          channels: selected,
          priority: poolPriority,
          memory: this.memory,
          tolerant: true,
        }),
      priority,
      requestId,
    );
    const codec = run.result.image;
    let released = false;
    return {
      image: {
        part: ref.part,
        lx: ref.lx,
        ly: ref.ly,
        dataWindow: [box.xMin, box.yMin, box.xMax, box.yMax],
        displayWindow: ref.displayWindow,
        widthPx: codec.widthPx,
        heightPx: codec.heightPx,
        planes: codec.channels.map((c) => ({
          name: c.name,
          pixelType: c.pixelType,
          xSampling: c.xSampling,
          ySampling: c.ySampling,
          widthSamples: c.widthSamples,
          heightSamples: c.heightSamples,
          data: bufferOf(c.data),
        })),
        ...(codec.missing ? { missing: missingOf(codec.missing) } : {}),
      },
      source: 'decode',
      timings: { ...stageMs(codec.timings), queueMs: run.timings.queueMs },
      release: () => {
        if (released) return;
        released = true;
        for (const c of codec.channels) if (c.data.buffer instanceof SharedArrayBuffer) this.memory.give(c.data.buffer);
      },
    };
  }

  /**
   * Level 0 reduced by each of `factors` (finest first) in one pass on the pool: the workers decode and box-filter
   * it task by task (reduced-pass.ts), level 0 never held. Nothing is cached: the caller holds the levels.
   */
  async reduce(
    ref: LevelRef,
    channels: readonly string[],
    factors: readonly number[],
    priority: Priority,
    requestId: string | null,
  ): Promise<{ pass: ReducedPass; queueMs: number }> {
    if (ref.deep) throw new Error(`${ref.absPath}: a deep part cannot be reduced as it streams; decode the whole part`);
    const selected = channels.length === ref.allChannels.length ? null : [...channels];
    const layout = layoutOf(this.headers, ref, selected);
    const run = await this.broker.run<ReducedPass>(
      // never shared: each waiter holds its own levels
      `${levelKey(ref)}\0reduce\0${++this.reductions}`,
      { fileId: ref.fileId, kind: 'reduce' },
      (poolPriority) =>
        decodeReducedPass(this.pool, {
          path: ref.absPath,
          layout,
          channels: selected,
          factors,
          priority: poolPriority,
          handoff: handoffOf(this.headers, ref),
          tolerant: true,
        }),
      priority,
      requestId,
    );
    return { pass: run.result, queueMs: run.timings.queueMs };
  }

  /** Whether a request for these channels would be answered from RAM now. */
  has(ref: LevelRef, channels: readonly string[]): boolean {
    const level = this.ram.peek(levelKey(ref));
    return !!level && channels.every((c) => level.planes.has(c));
  }

  /** Whether a decode of this level is queued or running. */
  decoding(ref: LevelRef): boolean {
    return this.broker.has(`${levelKey(ref)}\0decode`);
  }

  /** Drops every level of a file (it changed on disk). */
  forget(absPath: string): void {
    this.ram.deletePrefix(`${absPath}\0`);
  }

  /**
   * How to start the level's decode on the pool: deep parts whole, flat levels in bands. The bands are planned from
   * the header, read meanwhile: the job takes its place in the queue at once.
   */
  private decodeStarter(ref: LevelRef, channels: readonly string[], chunks: ChunkKeeping): (poolPriority: number) => JobHandle<unknown> {
    const { absPath: path, part, lx, ly } = ref;
    const all = channels.length === ref.allChannels.length;
    if (ref.deep) {
      return (poolPriority) =>
        this.pool.submit('deepFlat', { path, part, lx, ly, ...(all ? {} : { channels: [...channels] }), tolerant: true }, poolPriority);
    }
    const selected = all ? null : [...channels];
    // fewer than all channels, off the click's path: keep the decompressed chunks for the others in this pass
    const keep = !all && chunks === 'during';
    return (poolPriority) =>
      decodeLevel(this.pool, {
        path,
        layout: layoutOf(this.headers, ref, selected),
        handoff: handoffOf(this.headers, ref),
        channels: selected,
        priority: poolPriority,
        memory: this.memory,
        ...(keep ? { chunks: 'keep' as const } : {}),
        tolerant: true,
      });
  }

  /**
   * After a preview of some channels: the level's decompressed chunks are kept by a background pass, which starts once
   * the leased planes are sent (so that it does not compete with their transfer), or now when they were handed out.
   */
  private storeFillDue(ref: LevelRef, level: CachedLevel, lease: boolean): void {
    if (ref.deep || level.chunkStore || level.storeFill !== 'none' || level.planes.size === ref.allChannels.length) return;
    level.storeFill = 'due';
    if (!lease) this.startStoreFill(ref, level);
    else this.fillsOnRelease.set(level, ref);
  }

  private startStoreFill(ref: LevelRef, level: CachedLevel): void {
    if (level.storeFill !== 'due') return;
    this.fillStore(ref, level, 'prefetch', null).catch(() => {
      // cancelled (another image is on screen) or failed: a layer switch decodes instead, and says what went wrong
    });
  }

  /**
   * Fills the level's chunk store with a pass that decompresses every chunk and unpacks nothing; a request that needs
   * the store joins the pass (raising its priority). Skipped when the store would not fit the cache beside the planes.
   */
  private async fillStore(ref: LevelRef, level: CachedLevel, priority: Priority, requestId: string | null): Promise<void> {
    // running from now on, so that a request made meanwhile waits for this pass instead of decoding
    level.storeFill = 'running';
    level.pins++;
    try {
      const layout = await layoutOf(this.headers, ref, []);
      if (levelBytes(level) + layout.chunkStoreBytes > this.ram.budgetBytes) {
        level.storeFill = 'not-kept';
        return;
      }
      const run = await this.broker.run<LevelDecode>(
        `${level.key}\0store`,
        { fileId: ref.fileId, kind: 'store' },
        (poolPriority) =>
          decodeLevel(this.pool, {
            path: ref.absPath,
            layout,
            handoff: handoffOf(this.headers, ref),
            channels: [],
            priority: poolPriority,
            memory: this.memory,
            chunks: 'keep',
            // the chunks the level's decode could not read are zeroed in the store too
            tolerant: true,
          }),
        priority,
        requestId,
      );
      const store = run.result.chunkStore!;
      if (level.chunkStore === store) return; // another waiter of the same pass kept it
      if (level.chunkStore || !level.inCache) {
        // the level left the cache meanwhile: nothing will read this store
        if (!stored.has(store)) this.memory.give(store);
        stored.add(store);
        return;
      }
      stored.add(store);
      this.storeFills++;
      level.chunkStore = store;
      level.inCache = this.ram.set(level.key, level, levelBytes(level));
      if (!level.inCache) {
        // the cache filled up meanwhile: keep the planes, not the store (nothing has read it yet)
        level.chunkStore = null;
        level.storeFill = 'not-kept';
        this.memory.give(store);
        level.inCache = this.ram.set(level.key, level, levelBytes(level));
      }
    } finally {
      if (level.storeFill === 'running') level.storeFill = 'none';
      this.unpin(level);
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

  /** Unpacks more channels of a cached level from its chunk store. */
  private async unpack(
    ref: LevelRef,
    level: CachedLevel,
    missing: readonly string[],
    priority: Priority,
    requestId: string | null,
  ): Promise<Omit<StageTimingsMs, 'hostMs'>> {
    const store = level.chunkStore!;
    const selected = ref.allChannels.filter((c) => missing.includes(c));
    const layout = layoutOf(this.headers, ref, selected);
    const run = await this.broker.run<LevelDecode>(
      `${level.key}\0unpack\0${selected.join('\x01')}`,
      { fileId: ref.fileId, kind: 'unpack' },
      (poolPriority) =>
        decodeLevel(this.pool, {
          path: ref.absPath,
          layout,
          handoff: handoffOf(this.headers, ref),
          channels: selected,
          priority: poolPriority,
          memory: this.memory,
          chunks: { store },
        }),
      priority,
      requestId,
    );
    if (!level.planes.has(selected[0]!)) {
      this.unpacks++;
      this.addPlanes(level, run.result.image);
    }
    return { ...stageMs(run.result.image.timings), queueMs: run.timings.queueMs };
  }

  /** Puts a finished decode into the cache once (every waiter of a shared job sees the same result), and returns its level. */
  private ingest(key: string, ref: LevelRef, result: LevelDecode | DeepFlatTaskResult, keep: boolean): CachedLevel {
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

  private addPlanes(level: CachedLevel, codec: CodecImage): void {
    for (const c of codec.channels) {
      if (level.planes.has(c.name)) continue;
      level.planes.set(c.name, {
        name: c.name,
        pixelType: c.pixelType,
        xSampling: c.xSampling,
        ySampling: c.ySampling,
        widthSamples: c.widthSamples,
        heightSamples: c.heightSamples,
        data: bufferOf(c.data),
      });
    }
    level.inCache = !level.transient && this.ram.set(level.key, level, levelBytes(level));
    if (!level.inCache) this.dropStore(level);
  }

  private handOut(
    level: CachedLevel,
    channels: readonly string[],
    source: DecodedImage['source'],
    timings: Omit<StageTimingsMs, 'hostMs'>,
    lease: boolean,
  ): LevelPlanes {
    const planes = channels.map((c) => level.planes.get(c)!);
    if (lease) level.pins++;
    else level.handedOut = true;
    let released = !lease;
    return {
      image: { ...level.image, planes },
      source,
      timings,
      release: () => {
        if (released) return;
        released = true;
        this.unpin(level);
        const ref = this.fillsOnRelease.get(level);
        if (ref) {
          this.fillsOnRelease.delete(level);
          this.startStoreFill(ref, level);
        }
      },
    };
  }

  private unpin(level: CachedLevel): void {
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
/** Chunk stores a fill pass delivered (each waiter of the pass sees the same one): given back or kept once. */
const stored = new WeakSet<SharedArrayBuffer>();

/** When a decode of some channels keeps the level's decompressed chunks: not at all, in its own pass, or in a second pass after. */
type ChunkKeeping = 'none' | 'during' | 'after';

/** The level's layout for these channels, from the file's header (kept since the library read it, else read now: a
 * few KB; the planes' geometry is in no summary). */
function layoutOf(headers: HeaderCache, ref: LevelRef, channels: string[] | null): LevelLayout | Promise<LevelLayout> {
  const parts = headers.partsOf(ref.absPath, ref.sizeBytes, ref.mtimeMs);
  const layout = (all: PartInfo[]) => {
    const info = all[ref.part];
    if (!info) throw new Error(`${ref.absPath} has no part ${ref.part} (it has ${all.length})`);
    return levelLayout(info, ref.lx, ref.ly, channels);
  };
  return Array.isArray(parts) ? layout(parts) : parts.then(layout);
}

/** The main thread's parse of the file for the workers, where the header cache holds one (else they parse it). */
function handoffOf(headers: HeaderCache, ref: LevelRef): HeaderHandoff | null {
  return headers.handoffOf(ref.absPath, ref.sizeBytes, ref.mtimeMs);
}

/** Every key of a file starts with its path (forget() drops them by prefix); size and mtime tell one version from the next. */
function levelKey(ref: LevelRef): string {
  return `${ref.absPath}\0${ref.sizeBytes}\0${ref.mtimeMs}\0${ref.part}\0${ref.lx}\0${ref.ly}`;
}

function levelBytes(level: CachedLevel): number {
  let bytes = level.chunkStore?.byteLength ?? 0;
  for (const p of level.planes.values()) bytes += p.data.byteLength;
  return bytes + (level.image.deepSampleCounts?.byteLength ?? 0);
}

/** A tolerant decode's failed chunks as the renderer is told of them: the boxes they cover and the first reason. */
export function missingOf(missing: MissingChunks): MissingRegions {
  return {
    regions: missingRegions(missing.failures).map((b): BoxTuple => [b.xMin, b.yMin, b.xMax, b.yMax]),
    reason: missing.failures[0]!.reason,
    chunksRead: missing.chunksRead,
    chunksTotal: missing.chunksTotal,
    // chunks not written yet are told apart from damage (the renderer says "rendering…", not "damaged")
    ...(missing.incomplete ? { incomplete: { ...missing.incomplete } } : {}),
  };
}

function stageMs(t: StageTimings): Omit<StageTimingsMs, 'hostMs' | 'queueMs'> {
  return { readMs: t.readMs, decompressMs: t.decompressMs, unpackMs: t.unpackMs, bytesRead: t.bytesRead };
}

/**
 * The buffer behind a plane: planes own theirs. A shared plane from the pool is the start of its buffer, which may be
 * longer (PlaneMemory's size classes: the plane's own bytes are planeByteLength's); a worker's transferred one is exact.
 */
function bufferOf(data: ArrayBufferView): ArrayBuffer | SharedArrayBuffer {
  const buffer = data.buffer;
  if (data.byteOffset === 0 && (data.byteLength === buffer.byteLength || buffer instanceof SharedArrayBuffer)) return buffer;
  return buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
}

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

import { ExrError, type Box2i } from '../../codec/index.js';
import type { DecodedImage, Priority } from '../../contract/host-api.js';
import { HeaderCache } from '../cache/header-cache.js';
import type { JobBroker } from './broker.js';
import type { DeepFlatTaskResult } from './deep-task.js';
import { decodeLevel, type LevelDecode } from './image-decode.js';
import { LevelCache, type CachedLevel } from './level-cache.js';
import { NO_STAGES, timingsOf, type LevelPlanes, type LevelTimings } from './level-planes.js';
import { handoffOf, layoutOf, levelKey, selectedChannels, type LevelRef } from './level-ref.js';
import { LevelStreams } from './level-streams.js';
import type { PlaneMemory } from './plane-memory.js';
import type { DecodePool, JobHandle } from './pool.js';
import type { ReducedPass } from './reduced-pass.js';

export type { LevelRef } from './level-ref.js';
export { missingOf, type LevelImage, type LevelPlanes } from './level-planes.js';

export class DecodedLevels {
  private readonly levels: LevelCache;
  private readonly streams: LevelStreams;
  /** Unpacks from chunk stores. */
  unpacks = 0;
  /** Background passes that kept a level's decompressed chunks after its preview went out. */
  storeFills = 0;
  /** Levels whose store fill waits for their preview's planes to be sent. */
  private readonly fillsOnRelease = new Map<CachedLevel, LevelRef>();

  constructor(
    private readonly pool: DecodePool,
    private readonly broker: JobBroker,
    private readonly memory: PlaneMemory,
    budgetBytes: number,
    private readonly headers: HeaderCache = new HeaderCache(),
  ) {
    this.levels = new LevelCache(memory, budgetBytes);
    this.streams = new LevelStreams(pool, broker, memory, headers);
  }

  get cache(): { hits: number; misses: number; sizeBytes: number; count: number; budgetBytes: number } {
    return this.levels.stats;
  }

  /** Level decodes run (reads and decompressions). */
  get decodes(): number {
    return this.levels.decodes;
  }

  /** Crops decoded (each its own job). */
  get crops(): number {
    return this.streams.crops;
  }

  /** Reductions streamed (each its own job). */
  get reductions(): number {
    return this.streams.reductions;
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
    let timings = NO_STAGES;
    let level = this.levels.lookUp(key);
    // the level is pinned while this request works on it: what it holds cannot be reused under it
    let pinned: CachedLevel | null = null;
    const hold = (l: CachedLevel) => {
      if (pinned === l) return;
      if (pinned) this.levels.unpin(pinned);
      this.levels.pin(l);
      pinned = l;
    };
    try {
      for (let round = 0; round < 3; round++) {
        if (level) hold(level);
        const damage = level?.image.missing;
        if (damage && priority !== 'preview' && priority !== 'prefetch') throw new ExrError('invalid', damage.reason);
        const missing = level ? channels.filter((c) => !level!.planes.has(c)) : channels;
        if (level && missing.length === 0) return this.levels.handOut(level, channels, source, timings, lease, (l) => this.sent(l));
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
        level = this.levels.ingest(key, ref, run.result, keep);
        if (chunks === 'after') this.storeFillDue(ref, level, lease);
        source = 'decode';
        const codec = ref.deep ? (run.result as DeepFlatTaskResult).image : (run.result as LevelDecode).image;
        timings = timingsOf(codec.timings, run.timings.queueMs);
      }
      throw new Error(
        `the decoded image of ${ref.absPath} kept leaving the RAM cache while it was being made: close other images or raise the cache size`,
      );
    } finally {
      if (pinned) this.levels.unpin(pinned);
    }
  }

  /** A crop of a level, decoded alone and not cached (LevelStreams.crop). */
  crop(ref: LevelRef, channels: readonly string[], box: Box2i, priority: Priority, requestId: string | null): Promise<LevelPlanes> {
    return this.streams.crop(ref, channels, box, priority, requestId);
  }

  /** Level 0 reduced by each of `factors` in one pass on the pool, not cached (LevelStreams.reduce). */
  reduce(
    ref: LevelRef,
    channels: readonly string[],
    factors: readonly number[],
    priority: Priority,
    requestId: string | null,
  ): Promise<{ pass: ReducedPass; queueMs: number }> {
    return this.streams.reduce(ref, channels, factors, priority, requestId);
  }

  /** Whether a request for these channels would be answered from RAM now. */
  has(ref: LevelRef, channels: readonly string[]): boolean {
    return this.levels.has(levelKey(ref), channels);
  }

  /** Whether a decode of this level is queued or running. */
  decoding(ref: LevelRef): boolean {
    return this.broker.has(`${levelKey(ref)}\0decode`);
  }

  /** Drops every level of a file (it changed on disk). */
  forget(absPath: string): void {
    this.levels.forget(absPath);
  }

  /**
   * How to start the level's decode on the pool: deep parts whole, flat levels in bands. The bands are planned from
   * the header, read meanwhile: the job takes its place in the queue at once.
   */
  private decodeStarter(ref: LevelRef, channels: readonly string[], chunks: ChunkKeeping): (poolPriority: number) => JobHandle<unknown> {
    const { absPath: path, part, lx, ly } = ref;
    const selected = selectedChannels(ref, channels);
    if (ref.deep) {
      return (poolPriority) =>
        this.pool.submit('deepFlat', { path, part, lx, ly, ...(selected ? { channels: selected } : {}), tolerant: true }, poolPriority);
    }
    // fewer than all channels, off the click's path: keep the decompressed chunks for the others in this pass
    const keep = selected !== null && chunks === 'during';
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

  /** A lease of the level's planes ended: the store fill waiting for it starts. */
  private sent(level: CachedLevel): void {
    const ref = this.fillsOnRelease.get(level);
    if (!ref) return;
    this.fillsOnRelease.delete(level);
    this.startStoreFill(ref, level);
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
    this.levels.pin(level);
    try {
      const layout = await layoutOf(this.headers, ref, []);
      if (!this.levels.fits(level, layout.chunkStoreBytes)) {
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
      this.levels.keepStore(level, store);
    } finally {
      if (level.storeFill === 'running') level.storeFill = 'none';
      this.levels.unpin(level);
    }
  }

  /** Unpacks more channels of a cached level from its chunk store. */
  private async unpack(
    ref: LevelRef,
    level: CachedLevel,
    missing: readonly string[],
    priority: Priority,
    requestId: string | null,
  ): Promise<LevelTimings> {
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
      this.levels.addPlanes(level, run.result.image);
    }
    return timingsOf(run.result.image.timings, run.timings.queueMs);
  }
}

/** Chunk stores a fill pass delivered (each waiter of the pass sees the same one): given back or kept once. */
const stored = new WeakSet<SharedArrayBuffer>();

/** When a decode of some channels keeps the level's decompressed chunks: not at all, in its own pass, or in a second pass after. */
type ChunkKeeping = 'none' | 'during' | 'after';

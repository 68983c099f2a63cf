// Parts of a level decoded on the pool and handed out without caching: crops of it, and level 0 reduced as it streams.

import type { Box2i } from '../../codec/index.js';
import type { Priority } from '../../contract/host-api.js';
import type { HeaderCache } from '../cache/header-cache.js';
import type { JobBroker } from './broker.js';
import { decodeLevel, type LevelDecode } from './image-decode.js';
import { cropLayout } from './layout.js';
import { handoffOf, layoutOf, levelKey, selectedChannels, type LevelRef } from './level-ref.js';
import { missingOf, planeOf, timingsOf, type LevelPlanes } from './level-planes.js';
import type { PlaneMemory } from './plane-memory.js';
import type { DecodePool } from './pool.js';
import { decodeReducedPass, type ReducedPass } from './reduced-pass.js';

export class LevelStreams {
  /** Crops decoded (each its own job). */
  crops = 0;
  /** Reductions streamed (each its own job). */
  reductions = 0;

  constructor(
    private readonly pool: DecodePool,
    private readonly broker: JobBroker,
    private readonly memory: PlaneMemory,
    private readonly headers: HeaderCache,
  ) {}

  /**
   * A crop of a level (absolute box inside it): only the chunks it touches are read and decompressed, by every free
   * worker, into plane memory of the crop's size that release() gives back. Nothing is cached: the page keeps the crop
   * it shows, and a reduction streams bands through here without holding the level.
   */
  async crop(ref: LevelRef, channels: readonly string[], box: Box2i, priority: Priority, requestId: string | null): Promise<LevelPlanes> {
    if (ref.deep) throw new Error(`${ref.absPath}: a crop of a deep part cannot be decoded alone; decode the whole part`);
    const selected = selectedChannels(ref, channels);
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
        planes: codec.channels.map(planeOf),
        ...(codec.missing ? { missing: missingOf(codec.missing) } : {}),
      },
      source: 'decode',
      timings: timingsOf(codec.timings, run.timings.queueMs),
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
    const selected = selectedChannels(ref, channels);
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
}

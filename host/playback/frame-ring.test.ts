import { describe, expect, it } from 'vitest';
import type { FitWithin } from '../../contract/host-api.js';
import type { LevelPlanes } from '../decode/levels.js';
import { FrameRing, type FrameSource } from './frame-ring.js';

const MB = 1 << 20;

/** Decodes that finish when the test says so; leases counted. */
class FakeSource implements FrameSource {
  readonly started: string[] = [];
  /** Per decode started, whether the ring asked for the frame to be kept. */
  readonly keeps: boolean[] = [];
  /** Per decode started, the page limits it was asked to fit. */
  readonly fits: (FitWithin | undefined)[] = [];
  readonly cancelled: string[] = [];
  leases = 0;
  private pending = new Map<string, { fileId: string; resolve: (p: LevelPlanes) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly bytes = 10 * MB,
    private readonly damaged = new Set<string>(),
    /** Frames are this many px a side: reduced by the power of two that fits a page's maxSidePx. */
    private readonly sidePx = 1024,
  ) {}

  decode(
    fileId: string,
    _part: number,
    _channels: readonly string[],
    requestId: string,
    keep: boolean,
    fitWithin?: FitWithin,
  ): Promise<LevelPlanes> {
    this.started.push(fileId);
    this.keeps.push(keep);
    this.fits.push(fitWithin);
    return new Promise((resolve, reject) => this.pending.set(requestId, { fileId, resolve, reject }));
  }
  cancel(requestId: string): void {
    const p = this.pending.get(requestId);
    if (!p) return;
    this.cancelled.push(p.fileId);
    this.pending.delete(requestId);
    p.reject(new Error(`cancelled: ${requestId}`));
  }
  frameBytes(fileId: string, _part: number, _channels: readonly string[], factor: number): number | null {
    return fileId === 'unlisted' ? null : this.bytes / (factor * factor);
  }
  factor(_fileId: string, _part: number, fitWithin?: FitWithin): number {
    let factor = 1;
    while (fitWithin && this.sidePx / factor > fitWithin.maxSidePx) factor *= 2;
    return factor;
  }
  /** Finishes every decode started so far. */
  async finishAll(): Promise<void> {
    for (const [id, p] of [...this.pending]) {
      this.pending.delete(id);
      if (this.damaged.has(p.fileId)) p.reject(new Error(`${p.fileId}: ZIP data is damaged`));
      else {
        this.leases++;
        let released = false;
        p.resolve({
          image: { part: 0, lx: 0, ly: 0, dataWindow: [0, 0, 0, 0], displayWindow: [0, 0, 0, 0], widthPx: 1, heightPx: 1, planes: [] },
          source: 'decode',
          timings: { readMs: 1, decompressMs: 2, unpackMs: 3, queueMs: 0, bytesRead: 4 },
          release: () => {
            if (!released) this.leases--;
            released = true;
          },
        });
      }
    }
    await new Promise((r) => setImmediate(r));
  }
  get running(): number {
    return this.pending.size;
  }
  /** Finishes decodes until none runs (the ring starts more as earlier ones finish). */
  async finishEvery(): Promise<void> {
    while (this.pending.size) await this.finishAll();
  }
}

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `f${from + i}`);
const plan = (fileIds: string[]) => ({ fileIds, part: 0, channels: ['R', 'G', 'B', 'A'] });

describe('frame ring', () => {
  it('decodes ahead, in play order, only as many frames as the byte budget holds', async () => {
    const source = new FakeSource(10 * MB);
    const ring = new FrameRing(source, 45 * MB);
    ring.setPlan(plan(ids(1, 48)));
    expect(source.started).toEqual(['f1', 'f2', 'f3', 'f4']);
    await source.finishAll();
    expect(ring.stats).toMatchObject({ frames: 4, bytes: 40 * MB, decoding: 0 });
    expect(source.leases).toBe(4);
  });

  it('hands out a frame, moves on past it and decodes the next one; the lease ends with the last reader', async () => {
    const source = new FakeSource(10 * MB);
    const ring = new FrameRing(source, 30 * MB);
    ring.setPlan(plan(ids(1, 48)));
    await source.finishAll();
    const got = await ring.take('f1', 0, ['R', 'G', 'B', 'A'])!;
    // f1 left the window (f4 came in) but is still being read
    expect(source.started).toEqual(['f1', 'f2', 'f3', 'f4']);
    expect(source.leases).toBe(3);
    await source.finishAll();
    expect(source.leases).toBe(4);
    got.release();
    expect(source.leases).toBe(3);
    expect(ring.holds('f1')).toBe(false);
    expect(ring.stats.served).toBe(1);
  });

  it("decodes a frame over the plan's page limits once, reduced, and serves it to requests with the same limits", async () => {
    // 4096 px frames of 64 MB whole; the page shows 2048 px at most: each comes as its half level, 16 MB
    const source = new FakeSource(64 * MB, new Set(), 4096);
    const ring = new FrameRing(source, 40 * MB);
    const page = { maxSidePx: 2048, maxPixels: 1 << 24 };
    ring.setPlan({ ...plan(ids(1, 48)), fitWithin: page });
    // the budget counts reduced frames: two of them fit where no whole one would
    expect(source.started).toEqual(['f1', 'f2']);
    expect(source.fits).toEqual([page, page]);
    await source.finishAll();
    expect(ring.stats).toMatchObject({ frames: 2, bytes: 32 * MB });
    for (const fileId of ['f1', 'f2']) (await ring.take(fileId, 0, ['R', 'G', 'B', 'A'], page)!).release();
    await source.finishEvery();
    // every frame decoded once, each served to the page from the ring
    expect(new Set(source.started).size).toBe(source.started.length);
    expect(ring.stats.served).toBe(2);
    // a request with other limits (another size) is not the ring's: it decodes its own, and the cursor moves on past it
    const started = source.started.length;
    expect(ring.take('f3', 0, ['R', 'G', 'B', 'A'], { maxSidePx: 1024, maxPixels: 1 << 24 })).toBeNull();
    expect(ring.take('f4', 0, ['R', 'G', 'B', 'A'])).toBeNull();
    expect(ring.stats.served).toBe(2);
    expect(source.started.length).toBeGreaterThan(started);
    // new limits: nothing decoded at the old ones is kept
    ring.setPlan({ ...plan(ids(5, 48)), fitWithin: { maxSidePx: 1024, maxPixels: 1 << 24 } });
    await source.finishEvery();
    expect(ring.stats.frames).toBeGreaterThan(0);
    expect(ring.stats.bytes, 'every frame held is at the new size').toBe(ring.stats.frames * 4 * MB);
  });

  it('cancels the decodes of frames the user jumped away from, and lets go of held ones', async () => {
    const source = new FakeSource(10 * MB);
    const ring = new FrameRing(source, 40 * MB);
    ring.setPlan(plan(ids(1, 48)));
    await source.finishAll();
    ring.take('f1', 0, ['R', 'G', 'B', 'A'])!.then((p) => p.release());
    await new Promise((r) => setImmediate(r));
    // f2..f5 held or decoding; the user jumps to 30
    ring.setPlan(plan(ids(30, 48)));
    expect(source.cancelled).toEqual(['f5']);
    expect(source.leases).toBe(0);
    expect(source.started.slice(-4)).toEqual(['f30', 'f31', 'f32', 'f33']);
    expect(ring.stats.cancelled).toBe(1);
  });

  it('skips ahead when the player skipped frames: what it passed over is let go', async () => {
    const source = new FakeSource(10 * MB);
    const ring = new FrameRing(source, 40 * MB);
    ring.setPlan(plan(ids(1, 48)));
    const third = ring.take('f3', 0, ['R', 'G', 'B', 'A']);
    expect(source.cancelled).toEqual(['f1', 'f2']);
    await source.finishAll();
    (await third!).release();
    expect(source.started).toEqual(['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7']);
  });

  it('keeps each frame once in a loop that fits the budget: the second loop needs no decode', async () => {
    const source = new FakeSource(10 * MB);
    const ring = new FrameRing(source, 100 * MB);
    const loop = ids(1, 5);
    ring.setPlan(plan([...loop, ...loop, ...loop]));
    await source.finishEvery();
    for (const id of [...loop, ...loop]) (await ring.take(id, 0, ['R', 'G', 'B', 'A'])!).release();
    expect(source.started).toEqual(loop);
  });

  it('decodes a few frames at a time, the next ones first, and starts another as each finishes', async () => {
    const source = new FakeSource(10 * MB);
    const ring = new FrameRing(source, 1000 * MB, { maxDecoding: 2 });
    ring.setPlan(plan(ids(1, 10)));
    expect(source.started).toEqual(['f1', 'f2']);
    await source.finishAll();
    expect(source.started).toEqual(['f1', 'f2', 'f3', 'f4']);
    // a jump: only what was decoding is cancelled, not the whole budget's worth
    ring.setPlan(plan(ids(8, 10)));
    expect(source.cancelled).toEqual(['f3', 'f4']);
    expect(source.started.slice(4)).toEqual(['f8', 'f9']);
  });

  it('holds at most maxAheadFrames ahead of the cursor, whatever the budget', async () => {
    const source = new FakeSource(10 * MB);
    const ring = new FrameRing(source, 1000 * MB, { maxDecoding: 100, maxAheadFrames: 5 });
    ring.setPlan(plan(ids(1, 30)));
    await source.finishEvery();
    expect(source.started).toEqual(ids(1, 5));
    (await ring.take('f1', 0, ['R', 'G', 'B', 'A'])!).release();
    await source.finishEvery();
    expect(source.started).toEqual(ids(1, 6));
    expect(ring.stats.frames).toBe(5);
  });

  it('decodes a frame to be kept only while enough frames are ready ahead; behind, into recycled memory', async () => {
    const source = new FakeSource(10 * MB);
    const ring = new FrameRing(source, 1000 * MB, { maxDecoding: 2, maxAheadFrames: 6, keepLeadFrames: 2 });
    ring.setPlan(plan(ids(1, 20)));
    // nothing ready: the first two are not kept
    expect(source.keeps).toEqual([false, false]);
    // as each finishes the next starts: f3 with one frame ready, f4 with two
    await source.finishAll();
    expect(source.started).toEqual(ids(1, 4));
    expect(source.keeps).toEqual([false, false, false, true]);
    // the player takes both ready frames: behind again, f5 (one ready) is not kept, f6 (two ready) is
    for (const id of ['f1', 'f2']) (await ring.take(id, 0, ['R', 'G', 'B', 'A'])!).release();
    await source.finishAll();
    expect(source.started).toEqual(ids(1, 6));
    expect(source.keeps.slice(4)).toEqual([false, true]);
    expect(ring.stats.kept).toBe(source.keeps.filter(Boolean).length);
  });

  it('answers a damaged frame with its error, and does not hold it', async () => {
    const source = new FakeSource(10 * MB, new Set(['f2']));
    const ring = new FrameRing(source, 40 * MB);
    ring.setPlan(plan(ids(1, 10)));
    await source.finishAll();
    await expect(ring.take('f2', 0, ['R', 'G', 'B', 'A'])).rejects.toThrow(/damaged/);
    expect(ring.stats.failed).toBe(1);
  });

  it('has nothing for other channels, another part or frames outside the plan; null stops it', async () => {
    const source = new FakeSource(10 * MB);
    const ring = new FrameRing(source, 40 * MB);
    ring.setPlan(plan(['unlisted', ...ids(1, 3)]));
    await source.finishAll();
    expect(ring.take('f1', 0, ['R'])).toBeNull();
    expect(ring.take('f1', 1, ['R', 'G', 'B', 'A'])).toBeNull();
    expect(ring.take('f9', 0, ['R', 'G', 'B', 'A'])).toBeNull();
    ring.setPlan(null);
    expect(source.leases).toBe(0);
    expect(ring.stats.frames).toBe(0);
  });
});

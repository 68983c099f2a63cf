import { describe, expect, it } from 'vitest';
import type { LevelPlanes } from '../decode/levels.js';
import { FrameRing, type FrameSource } from './frame-ring.js';

const MB = 1 << 20;

/** Decodes that finish when the test says so; leases counted. */
class FakeSource implements FrameSource {
  readonly started: string[] = [];
  /** Per decode started, whether the ring asked for the frame to be kept. */
  readonly keeps: boolean[] = [];
  readonly cancelled: string[] = [];
  leases = 0;
  private pending = new Map<string, { fileId: string; resolve: (p: LevelPlanes) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly bytes = 10 * MB,
    private readonly damaged = new Set<string>(),
  ) {}

  decode(fileId: string, _part: number, _channels: readonly string[], requestId: string, keep: boolean): Promise<LevelPlanes> {
    this.started.push(fileId);
    this.keeps.push(keep);
    return new Promise((resolve, reject) => this.pending.set(requestId, { fileId, resolve, reject }));
  }
  cancel(requestId: string): void {
    const p = this.pending.get(requestId);
    if (!p) return;
    this.cancelled.push(p.fileId);
    this.pending.delete(requestId);
    p.reject(new Error(`cancelled: ${requestId}`));
  }
  frameBytes(fileId: string): number | null {
    return fileId === 'unlisted' ? null : this.bytes;
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

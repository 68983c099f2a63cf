import { describe, expect, it } from 'vitest';
import { timelineFrames, type ClockSpec } from './clock.js';
import { FramePipeline } from './pipeline.js';
import { Sim, type SimOptions } from '../../testing/renderer/playback-sim.js';

// The stall of issue "A viewer artists can trust" item 3: a 30-frame sequence whose frames take longer to arrive than
// the pipeline's two-second look-ahead stopped advancing for good, with nothing in flight.
const FRAMES = timelineFrames(1001, 1030);
const spec = (over: Partial<ClockSpec> = {}): ClockSpec => ({
  frames: FRAMES,
  fps: 24,
  mode: 'loop',
  direction: 1,
  startFrame: 1001,
  ...over,
});

function setup(opts: SimOptions, prerollMs = 1000, maxLoads = 3, slots = 4) {
  const sim = new Sim(opts);
  const pipeline = new FramePipeline(
    sim.io,
    (f) => `f${f}`,
    () => sim.now,
    { slots, maxLoads, prerollMs },
  );
  return { sim, pipeline };
}

/**
 * Plays for `ms`: when each frame was presented, the longest time without a new frame from the `settledAfter`-th one
 * on, and how many ticks found nothing in flight or ready while the clock ran.
 */
async function playWatching(sim: Sim, pipeline: FramePipeline<string>, ms: number, settledAfter = 3) {
  const presentedMs: number[] = [];
  let idleTicks = 0;
  await sim.run(pipeline, ms, 1000 / 60, () => {
    while (presentedMs.length < sim.presented.length) presentedMs.push(sim.now);
    const f = pipeline.inFlight;
    if (pipeline.playing && pipeline.clockStartMs !== null && f.loading + f.uploading + f.ready === 0) idleTicks++;
  });
  const after = [...presentedMs.slice(settledAfter - 1), sim.now];
  const longestGapMs = Math.max(...after.slice(1).map((t, i) => t - after[i]!));
  return { settledMs: presentedMs[settledAfter - 1] ?? Infinity, longestGapMs, idleTicks, shown: presentedMs.length };
}

describe('a player that cannot stall', () => {
  it('keeps showing frames when each takes longer than the look-ahead to arrive (loads side by side)', async () => {
    // 2.5 s a frame, three at once: about 1.2 frames a second can be had
    const { sim, pipeline } = setup({ decodeMs: 2500, uploadMs: 5, parallel: true });
    pipeline.start(spec());
    const w = await playWatching(sim, pipeline, 30_000);
    expect(w.idleTicks, 'ticks with nothing in flight or ready').toBe(0);
    expect(w.shown).toBeGreaterThan(15);
    expect(w.settledMs).toBeLessThan(4 * 2500);
    // three loads under way at once: a frame about every 2.5 / 3 s
    expect(w.longestGapMs).toBeLessThan(2500);
  });

  it('keeps showing frames from a slow disk: one read at a time, three queued, each waiting behind the others', async () => {
    // 800 ms a read: a load queued third waits 2.4 s, past the look-ahead
    const { sim, pipeline } = setup({ decodeMs: 20, uploadMs: 5, diskMs: () => 800 });
    pipeline.start(spec());
    const w = await playWatching(sim, pipeline, 30_000);
    expect(w.idleTicks, 'ticks with nothing in flight or ready').toBe(0);
    expect(w.shown).toBeGreaterThan(20);
    // loads given up at the start (the pre-roll's, and those placed on too small an estimate) keep the disk busy a while
    expect(w.settledMs).toBeLessThan(4 * 3 * 800);
    // then a frame every read or so (one may be dropped while the estimate settles)
    expect(w.longestGapMs).toBeLessThan(3 * 800);
  });

  it('keeps showing frames when the latency varies from frame to frame, far above and below the look-ahead', async () => {
    const latencies = [300, 4000, 900, 6000, 150, 2500, 3100, 700];
    const { sim, pipeline } = setup({ decodeMs: 0, uploadMs: 5, parallel: true, loadMs: (n) => latencies[n % latencies.length]! });
    pipeline.start(spec());
    const w = await playWatching(sim, pipeline, 40_000);
    expect(w.idleTicks, 'ticks with nothing in flight or ready').toBe(0);
    expect(w.shown).toBeGreaterThan(10);
    expect(w.settledMs).toBeLessThan(4 * 6000);
    expect(w.longestGapMs).toBeLessThan(2 * 6000);
  });

  it('tells its listener whenever a count changes, dropped and skipped steps included, so the player bar and Diagnostics agree', async () => {
    const { sim, pipeline } = setup({ decodeMs: 2500, uploadMs: 5, parallel: true });
    let seen = pipeline.summary();
    pipeline.onChange = () => {
      seen = pipeline.summary();
    };
    pipeline.start(spec());
    await sim.run(pipeline, 12_000, 1000 / 60, () => {
      // what a listener last saw is what the pipeline counts now: the bar (which listens) and Diagnostics (which polls) agree
      const now = pipeline.summary();
      expect(seen?.dropped).toBe(now?.dropped);
      expect(seen?.achievedFps).toBe(now?.achievedFps);
      expect(seen?.recentFps).toBe(now?.recentFps);
    });
    expect(pipeline.summary()!.dropped).toBeGreaterThan(100);
  });
});

describe('the first seconds of play', () => {
  // the e2e's case (e2e/playback-no-stall.spec.ts): each load held 1-1.6 s, then decoded; 4 fps, so the two-second
  // look-ahead is 8 frames. Once the first frame after Play is on screen, the picture never stays put for 2 s.
  const held = [1200, 1500, 1000, 1600, 1300];
  for (const decodeMs of [100, 300, 500])
    for (const tickMs of [1000 / 60, 100, 250])
      it(`moves on within 2 s of the first frame shown (decode ${decodeMs} ms, a tick every ${Math.round(tickMs)} ms)`, async () => {
        const sim = new Sim({ decodeMs: 0, uploadMs: 20, parallel: true, loadMs: (n) => held[(n - 1) % held.length]! + decodeMs });
        const pipeline = new FramePipeline(
          sim.io,
          (f) => `f${f}`,
          () => sim.now,
          { slots: 8, maxLoads: 3, prerollMs: 1000 },
        );
        pipeline.start(spec({ fps: 4 }));
        const presentedMs: number[] = [];
        await sim.run(pipeline, 30_000, tickMs, () => {
          while (presentedMs.length < sim.presented.length) presentedMs.push(sim.now);
        });
        const after = [...presentedMs, sim.now];
        const gaps = after.slice(1).map((t, i) => Math.round(t - after[i]!));
        expect(presentedMs.length).toBeGreaterThan(20);
        expect(Math.max(...gaps), `gaps between frames shown (ms): ${gaps.join(' ')}`).toBeLessThanOrEqual(2000);
      });
});

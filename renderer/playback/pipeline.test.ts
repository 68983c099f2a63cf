import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timelineFrames, type ClockSpec } from './clock.js';
import { FramePipeline } from './pipeline.js';
import { planSpacing } from './lookahead.js';
import { Sim } from '../../testing/renderer/playback-sim.js';

const FRAMES = timelineFrames(1001, 1048);
const fileOf =
  (missing: Set<number> = new Set()) =>
  (f: number) =>
    missing.has(f) ? null : `f${f}`;
const spec = (over: Partial<ClockSpec> = {}): ClockSpec => ({
  frames: FRAMES,
  fps: 24,
  mode: 'loop',
  direction: 1,
  startFrame: 1001,
  ...over,
});

function setup(opts: ConstructorParameters<typeof Sim>[0], missing?: Set<number>, slots = 4, prerollMs = 0, maxLoads = 2) {
  const sim = new Sim(opts);
  const pipeline = new FramePipeline(sim.io, fileOf(missing), () => sim.now, { slots, maxLoads, prerollMs });
  return { sim, pipeline };
}

describe('frame pipeline', () => {
  it('plays every frame at the frame rate when frames arrive in time', async () => {
    const { sim, pipeline } = setup({ decodeMs: 10, uploadMs: 3 });
    pipeline.start(spec());
    await sim.run(pipeline, 4000);
    const s = pipeline.timeline.summary(sim.now);
    // the first frame takes its load to arrive; every other one is on time
    expect(s.dropped).toBeLessThanOrEqual(1);
    expect(s.achievedFps).toBeGreaterThan(23.5);
    expect(sim.presented.slice(0, 5)).toEqual(expect.arrayContaining([1002, 1003, 1004]));
    // in order, looping past the end
    const shown = pipeline.timeline.records.filter((r) => r.outcome === 'shown').map((r) => r.frame);
    expect(shown.slice(45, 52)).toEqual([1046, 1047, 1048, 1001, 1002, 1003, 1004].slice(0, shown.slice(45, 52).length));
  });

  it('shows a frame that missed its step when it comes, while nothing newer has come; its step stays dropped', async () => {
    // one load at a time, 60 ms each at 24 fps: each frame comes a little after its step; none in time
    const { sim, pipeline } = setup({ decodeMs: 60, uploadMs: 3 }, undefined, 4, 0, 1);
    pipeline.start(spec({ fps: 24 }));
    const shownAtMs: number[] = [];
    await sim.run(pipeline, 1800, 1000 / 60, () => {
      while (shownAtMs.length < sim.presented.length) shownAtMs.push(sim.now);
    });
    const s = pipeline.timeline.summary(sim.now);
    expect(s.shownLate).toBeGreaterThan(0);
    // counted as dropped (not shown in its step), and each was on screen
    expect(s.dropped).toBeGreaterThanOrEqual(s.shownLate);
    expect(sim.presented.length).toBe(s.shown + s.shownLate);
    // the picture moves on at about every load
    const gaps = shownAtMs.slice(1).map((t, i) => t - shownAtMs[i]!);
    expect(Math.max(...gaps)).toBeLessThan(4 * 63);
    // never back in time: each frame shown is later in the sequence than the one before (43 steps of 48 frames)
    for (let i = 1; i < sim.presented.length; i++) expect(sim.presented[i]!).toBeGreaterThan(sim.presented[i - 1]!);
  });

  it('with a pre-roll, a cold start buffers until loads keep pace instead of dropping its first frames', async () => {
    // loads side by side (a host decoding ahead on every core), the first six cold
    const cold = { decodeMs: 10, uploadMs: 3, coldLoads: 6, coldMs: 150, parallel: true };
    const plain = setup(cold);
    plain.pipeline.start(spec());
    await plain.sim.run(plain.pipeline, 3000);
    expect(
      plain.pipeline.timeline.summary(plain.sim.now).dropped + plain.pipeline.timeline.summary(plain.sim.now).skipped,
      'no pre-roll: the cold start drops',
    ).toBeGreaterThan(3);

    const { sim, pipeline } = setup(cold, undefined, 4, 1000);
    pipeline.start(spec());
    expect(pipeline.clockStartMs).toBeNull();
    await sim.run(pipeline, 3000);
    const s = pipeline.timeline.summary(sim.now);
    expect(pipeline.prerollMs).toBeGreaterThan(150);
    expect(pipeline.prerollMs).toBeLessThanOrEqual(1000 + 17);
    expect(pipeline.clockStartMs).toBe(pipeline.prerollMs);
    expect(
      s.dropped + s.skipped,
      JSON.stringify({
        pre: pipeline.prerollMs,
        recs: pipeline.timeline.records.slice(0, 30).map((r) => `${r.step}:${r.frame}:${r.outcome}`),
      }),
    ).toBe(0);
    const shown = pipeline.timeline.records.filter((r) => r.outcome === 'shown').map((r) => r.frame);
    expect(shown.slice(0, 4)).toEqual([1001, 1002, 1003, 1004]);
  });

  it('a pre-roll gives up waiting after its time when loads never keep pace, and plays (thinning) from there', async () => {
    const { sim, pipeline } = setup({ decodeMs: 100, uploadMs: 3 }, undefined, 4, 500);
    pipeline.start(spec());
    await sim.run(pipeline, 2000);
    expect(pipeline.prerollMs).toBeGreaterThanOrEqual(500);
    expect(pipeline.prerollMs).toBeLessThan(500 + 17 + 1);
    expect(pipeline.timeline.records.filter((r) => r.outcome === 'shown').length).toBeGreaterThan(5);
  });

  it('after a pre-roll that ran out of time, frames that arrive faster than the rate are all shown, none skipped', async () => {
    // the 2-core case: loads served one after another at 28 ms a frame (the host's throughput, above 24 fps), so each
    // load waits behind the others and its own latency (about three services) never falls within a frame's time: the
    // pre-roll runs to its limit. The loads then in flight were asked for long before the clock started; their
    // request-to-pixels times are not what a frame costs, and must not make the clock skip frames it will have
    const { sim, pipeline } = setup({ decodeMs: 28, uploadMs: 3, coldLoads: 4, coldMs: 150 }, undefined, 4, 1000, 3);
    pipeline.start(spec());
    await sim.run(pipeline, 5000);
    expect(pipeline.prerollMs).toBeGreaterThanOrEqual(1000);
    const s = pipeline.timeline.summary(sim.now);
    const recs = pipeline.timeline.records.slice(0, 30).map((r) => `${r.step}:${r.outcome}`);
    expect(s.skipped + s.dropped, JSON.stringify(recs)).toBe(0);
    expect(s.achievedFps).toBeGreaterThan(23.5);
  });

  it('plans every frame during the pre-roll, however slow the cold loads are', async () => {
    // cold loads of 200 ms (five frame times): a plan made on them would ask the host for every fifth frame, and the
    // frames it had started would be thrown away once the clock runs and the plan comes back to every frame
    const { sim, pipeline } = setup({ decodeMs: 20, uploadMs: 3, coldLoads: 8, coldMs: 200 }, undefined, 4, 1000, 3);
    pipeline.start(spec());
    await sim.run(pipeline, 900);
    expect(pipeline.clockStartMs).toBeNull();
    for (const plan of sim.plans)
      expect(plan.slice(0, 4).map((id) => Number(id.slice(1)))).toEqual([0, 1, 2, 3].map((k) => Number(plan[0]!.slice(1)) + k));
  });

  it('keeps one plan while the service time wobbles around the frame time, rather than cancelling decodes at each change', async () => {
    // 36-52 ms a frame, one after another, around the 41.7 ms of 24 fps: the host at its limit on a shared machine
    const { sim, pipeline } = setup({ decodeMs: 40, uploadMs: 2, jitterMs: [-4, 12, 2, -2, 10, 4, -4, 8] }, undefined, 6, 0, 3);
    pipeline.start(spec());
    await sim.run(pipeline, 6000);
    const spacings = sim.plans.filter((p) => p.length > 1).map((p) => Number(p[1]!.slice(1)) - Number(p[0]!.slice(1)));
    expect(new Set(spacings), JSON.stringify(spacings)).toEqual(new Set([1]));
    expect(sim.cancelled.length).toBeLessThan(10);
    // frames that cannot be had in time are skipped one by one: more shown than every other frame would give
    expect(pipeline.timeline.summary(sim.now).achievedFps).toBeGreaterThan(17);
  });

  it('drops frames rather than stalls when they arrive slower than the rate, and asks only for frames it can show', async () => {
    // 70 ms a frame: at most ~14 of 24 frames a second can be had
    const { sim, pipeline } = setup({ decodeMs: 70, uploadMs: 3 });
    pipeline.start(spec());
    await sim.run(pipeline, 6000);
    const s = pipeline.timeline.summary(sim.now);
    expect(s.achievedFps).toBeGreaterThan(10);
    expect(s.achievedFps).toBeLessThan(15);
    expect(s.dropped).toBeGreaterThan(40);
    // the clock never waited: every step of 6 s was settled
    expect(s.shown + s.dropped).toBeGreaterThanOrEqual(143);
    // little work wasted: nearly every frame decoded was shown
    expect(sim.started.length).toBeLessThan(s.shown * 1.25 + 4);
    // the host was told the thinned plan: every other frame
    const last = sim.plans[sim.plans.length - 1]!;
    const gaps = last
      .slice(0, 6)
      .map((id, i, a) => (i ? Number(id.slice(1)) - Number(a[i - 1]!.slice(1)) : 0))
      .slice(1);
    expect(gaps.every((g) => g === 2 || g === -46)).toBe(true);
  });

  it('on a display slower than the rate, shows the newest ready frame at each refresh rather than dropping them all', async () => {
    // a 10 Hz display (a software GPU, a busy main thread) under a 24 fps clock: each tick passes 2-3 steps
    const { sim, pipeline } = setup({ decodeMs: 5, uploadMs: 2 });
    pipeline.start(spec());
    await sim.run(pipeline, 3000, 100);
    const s = pipeline.timeline.summary(sim.now);
    // one frame per refresh, in order
    expect(s.achievedFps).toBeGreaterThan(8);
    expect(s.achievedFps).toBeLessThan(10.5);
    const shown = pipeline.timeline.records.filter((r) => r.outcome === 'shown').map((r) => r.frame);
    expect(shown.slice(1, 12).every((f, i) => f > shown[i]!)).toBe(true);
    expect(s.dropped).toBeGreaterThan(30);
  });

  it('learns from loads it had to drop: when every frame takes longer than its step, it thins rather than shows nothing', async () => {
    // each frame 400 ms from request to pixels, two at once: 5 fps can be had of 24; nothing would arrive on time if
    // the pipeline kept asking for the next frames and dropping them unfinished
    const { sim, pipeline } = setup({ decodeMs: 400, uploadMs: 3, parallel: true });
    pipeline.start(spec());
    await sim.run(pipeline, 8000);
    const s = pipeline.timeline.summary(sim.now);
    expect(s.achievedFps).toBeGreaterThan(2.5);
    // most loads started were shown, not cancelled half done
    expect(sim.cancelled.length).toBeLessThan(s.shown * 2);
  });

  it('marks a damaged frame and plays on', async () => {
    const { sim, pipeline } = setup({ decodeMs: 10, uploadMs: 3, damaged: new Set(['f1005']) });
    pipeline.start(spec());
    await sim.run(pipeline, 1000);
    const s = pipeline.timeline.summary(sim.now);
    expect(s.damaged).toBe(1);
    expect(s.damagedFrames).toEqual([1005]);
    const rec = pipeline.timeline.records.find((r) => r.frame === 1005)!;
    expect(rec.outcome).toBe('damaged');
    expect(rec.reason).toMatch(/damaged/);
    expect(pipeline.timeline.records.filter((r) => r.frame > 1005 && r.outcome === 'shown').length).toBeGreaterThan(15);
  });

  it('holds the last image through missing frames, which take their time and are not drops', async () => {
    const { sim, pipeline } = setup({ decodeMs: 10, uploadMs: 3 }, new Set([1010, 1011, 1012]));
    pipeline.start(spec());
    await sim.run(pipeline, 1000);
    const s = pipeline.timeline.summary(sim.now);
    expect(s.missing).toBe(3);
    expect(s.dropped).toBeLessThanOrEqual(1);
    expect(sim.started).not.toContain('f1011');
  });

  it('cancels what is in flight on stop, and gives back every loaded frame', async () => {
    const { sim, pipeline } = setup({ decodeMs: 30, uploadMs: 3 });
    pipeline.start(spec());
    await sim.run(pipeline, 500);
    pipeline.stop();
    expect(sim.cancelled.length).toBeGreaterThan(0);
    await sim.run(pipeline, 500);
    // every load that came back was released (uploaded or dropped), none kept
    expect(sim.released.length).toBe(sim.loadsResolved - 0);
    expect(pipeline.inFlight).toEqual({ loading: 0, uploading: 0, ready: 0 });
    expect(sim.plans[sim.plans.length - 1]).toEqual([]);
  });

  it('never uploads into the slot on screen, nor into more slots than it has', async () => {
    const { sim, pipeline } = setup({ decodeMs: 2, uploadMs: 30 }, undefined, 3);
    pipeline.start(spec());
    await sim.run(pipeline, 1500);
    expect(sim.uploadsIntoShown).toBe(0);
    expect(sim.maxUploadsRunning).toBeLessThanOrEqual(3);
    expect(pipeline.timeline.summary(sim.now).shown).toBeGreaterThan(20);
  });

  it('scrubs: shows frames as they arrive while the slider moves, then the last one asked for', async () => {
    const { sim, pipeline } = setup({ decodeMs: 40, uploadMs: 3 });
    for (const f of [1001, 1005, 1010, 1020, 1030]) {
      pipeline.seek(f);
      await sim.run(pipeline, 17);
    }
    await sim.run(pipeline, 500);
    expect(pipeline.presented).toEqual({ frame: 1030, kind: 'shown', reason: '' });
    // one load at a time: the positions passed over while a load ran were not all loaded
    expect(sim.started.length).toBeLessThan(5);
    expect(sim.presented[sim.presented.length - 1]).toBe(1030);
  });

  it('plays from the frame on screen without loading it again', async () => {
    const { sim, pipeline } = setup({ decodeMs: 10, uploadMs: 3 });
    pipeline.seek(1020);
    await sim.run(pipeline, 200);
    const before = sim.started.length;
    pipeline.start(spec({ startFrame: 1020, mode: 'once' }));
    await sim.run(pipeline, 2000);
    expect(sim.started.slice(before)).not.toContain('f1020');
    expect(pipeline.playing).toBe(false);
    expect(pipeline.presented?.frame).toBe(1048);
  });

  it('plays on after its slots went with the GPU device: nothing goes up until slots are back, then frames come again', async () => {
    const { sim, pipeline } = setup({ decodeMs: 10, uploadMs: 3 });
    const upload = sim.io.upload;
    let uploads = 0;
    sim.io.upload = (...args) => (uploads++, upload(...args));
    pipeline.start(spec());
    await sim.run(pipeline, 1000);
    expect(pipeline.inFlight.ready + pipeline.inFlight.uploading).toBeGreaterThan(0);
    const shownBefore = sim.presented.length;
    const lastBefore = sim.presented[shownBefore - 1]!;

    pipeline.slotsLost();
    // what the lost slots held is gone: those frames are loaded again when their steps are still ahead
    expect(pipeline.inFlight.ready + pipeline.inFlight.uploading).toBe(0);
    const uploadsAtLoss = uploads;
    await sim.run(pipeline, 300);
    expect(uploads, 'nothing goes into slots while the device is away').toBe(uploadsAtLoss);
    expect(sim.presented.length).toBe(shownBefore);
    expect(pipeline.playing).toBe(true);
    // loads went on meanwhile: frames wait in memory for the new slots
    expect(pipeline.inFlight.loading).toBeGreaterThan(0);

    pipeline.slotsBack();
    await sim.run(pipeline, 1000);
    expect(uploads).toBeGreaterThan(uploadsAtLoss);
    const after = sim.presented.slice(shownBefore);
    expect(after.length, 'playing went on at about the frame rate').toBeGreaterThan(20);
    // the clock ran through the loss: the next frame shown is later than the last before it, and in order after that
    expect(after[0]!).toBeGreaterThan(lastBefore);
    for (let i = 1; i < after.length; i++) expect(after[i]!).toBe(after[i - 1]! === 1048 ? 1001 : after[i - 1]! + 1);
    const s = pipeline.timeline.summary(sim.now);
    expect(s.damaged, 'a lost device is no damaged frame').toBe(0);
    // the steps of the 300 ms the device was away (24 fps) and about one to get going again
    expect(s.dropped + s.skipped).toBeGreaterThanOrEqual(5);
    expect(s.dropped + s.skipped).toBeLessThanOrEqual(12);
  });

  it('never stalls: after any mix of plays, stops, seeks and device losses, the frame asked for last is shown once the loads settle', async () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('seek' as const),
        frame: fc.integer({ min: 1001, max: 1048 }),
        waitMs: fc.integer({ min: 0, max: 120 }),
      }),
      fc.record({ kind: fc.constant('play' as const), fps: fc.constantFrom(4, 24, 240), waitMs: fc.integer({ min: 0, max: 600 }) }),
      fc.record({ kind: fc.constant('stop' as const), waitMs: fc.integer({ min: 0, max: 60 }) }),
      // the GPU device lost: the slots are back after `waitMs`
      fc.record({ kind: fc.constant('lose' as const), waitMs: fc.integer({ min: 0, max: 300 }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 14 }),
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        fc.integer({ min: 1001, max: 1048 }),
        async (ops, slots, decodeMs, uploadMs, parallel, target) => {
          const { sim, pipeline } = setup({ decodeMs, uploadMs, parallel }, undefined, slots);
          for (const o of ops) {
            if (o.kind === 'seek') pipeline.seek(o.frame);
            else if (o.kind === 'play') pipeline.start(spec({ fps: o.fps, startFrame: pipeline.presented?.frame ?? 1001 }));
            else if (o.kind === 'stop') pipeline.stop();
            else pipeline.slotsLost();
            await sim.run(pipeline, o.waitMs);
            if (o.kind === 'lose') pipeline.slotsBack();
          }
          pipeline.seek(target);
          await sim.run(pipeline, 3000);
          expect(pipeline.presented).toEqual({ frame: target, kind: 'shown', reason: '' });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('plan spacing', () => {
  const frameMs = 1000 / 24;
  it('is every frame while nothing is measured, and the frames a service covers once it is', () => {
    expect(planSpacing(null, NaN, frameMs)).toBe(1);
    expect(planSpacing(2, NaN, frameMs)).toBe(1);
    expect(planSpacing(null, 30, frameMs)).toBe(1);
    expect(planSpacing(null, 70, frameMs)).toBe(2);
    expect(planSpacing(null, 130, frameMs)).toBe(4);
  });
  it('grows only once the service is a quarter over what it allows, and shrinks as soon as the smaller one fits', () => {
    expect(planSpacing(1, frameMs * 1.2, frameMs)).toBe(1);
    expect(planSpacing(1, frameMs * 1.3, frameMs)).toBe(2);
    expect(planSpacing(2, frameMs * 1.15, frameMs)).toBe(2);
    expect(planSpacing(2, frameMs * 1.05, frameMs)).toBe(1);
    expect(planSpacing(2, frameMs * 2.4, frameMs)).toBe(2);
    expect(planSpacing(2, frameMs * 2.6, frameMs)).toBe(3);
  });
  it('never leaves 1 to n or n to 1 and back on the same service time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.double({ min: 1, max: 400, noNaN: true }), (current, serviceMs) => {
        const next = planSpacing(current, serviceMs, frameMs);
        expect(planSpacing(next, serviceMs, frameMs)).toBe(next);
      }),
    );
  });
});

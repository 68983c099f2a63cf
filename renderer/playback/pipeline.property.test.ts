import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dueMs, frameAtStep, stepAt, timelineFrames, type ClockSpec, type LoopMode } from './clock.js';
import { FramePipeline } from './pipeline.js';
import { Sim } from '../../testing/renderer/playback-sim.js';

// Whatever the disk and decode latency (far above the look-ahead, varying per frame) and whatever the user does (play,
// seek, stop, step, any loop mode): while playing the picture moves on within a time bounded by the latency, something
// is always on its way, no request is lost, stopping stops requests, and the counts add up and reach the listener.

const op = fc.oneof(
  fc.record({
    kind: fc.constant('play' as const),
    fps: fc.constantFrom(4, 24, 60, 240),
    mode: fc.constantFrom<LoopMode>('loop', 'ping-pong', 'once'),
    direction: fc.constantFrom<1 | -1>(1, -1),
    waitMs: fc.integer({ min: 0, max: 15_000 }),
  }),
  fc.record({
    kind: fc.constant('seek' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    waitMs: fc.integer({ min: 0, max: 1500 }),
  }),
  fc.record({ kind: fc.constant('step' as const), delta: fc.constantFrom<1 | -1>(1, -1), waitMs: fc.integer({ min: 0, max: 500 }) }),
  fc.record({ kind: fc.constant('stop' as const), waitMs: fc.integer({ min: 0, max: 1500 }) }),
);

const host = fc.record({
  parallel: fc.boolean(),
  decodeMs: fc.array(fc.integer({ min: 1, max: 6000 }), { minLength: 1, maxLength: 6 }),
  diskMs: fc.option(fc.array(fc.integer({ min: 0, max: 1500 }), { minLength: 1, maxLength: 4 }), { nil: undefined }),
  uploadMs: fc.integer({ min: 1, max: 40 }),
  slots: fc.integer({ min: 2, max: 6 }),
  maxLoads: fc.integer({ min: 1, max: 4 }),
  prerollMs: fc.constantFrom(0, 1000),
  frameCount: fc.integer({ min: 1, max: 30 }),
});

describe('frame pipeline, any latency and any use', () => {
  it('always has a frame on its way, moves on within a bounded time, loses nothing, stops when stopped, and counts consistently', async () => {
    await fc.assert(
      fc.asyncProperty(host, fc.array(op, { minLength: 1, maxLength: 6 }), async (h, ops) => {
        const at = (list: number[], n: number): number => list[n % list.length]!;
        const sim = new Sim({
          decodeMs: 0,
          uploadMs: h.uploadMs,
          parallel: h.parallel,
          loadMs: (n) => at(h.decodeMs, n),
          ...(h.diskMs ? { diskMs: (n: number) => at(h.diskMs!, n) } : {}),
        });
        const frames = timelineFrames(1001, 1000 + h.frameCount);
        const pipeline = new FramePipeline(
          sim.io,
          (f) => `f${f}`,
          () => sim.now,
          { slots: h.slots, maxLoads: h.maxLoads, prerollMs: h.prerollMs },
        );
        // the worst time one load can take: behind every other load asked for, one after another, disk and decode
        const worstLoadMs = (h.maxLoads + 1) * (Math.max(...h.decodeMs) + Math.max(0, ...(h.diskMs ?? [0]))) + h.uploadMs;
        const boundMs = 6 * worstLoadMs + h.prerollMs + 1000;
        let seen = pipeline.summary();
        pipeline.onChange = () => {
          seen = pipeline.summary();
        };

        let spec: ClockSpec | null = null;
        let lastMoveMs = 0;
        let presents = 0;
        const check = (): void => {
          if (sim.presented.length !== presents) {
            presents = sim.presented.length;
            lastMoveMs = sim.now;
          }
          // the listener (the player bar) saw what the pipeline counts now (what Diagnostics reads)
          expect(seen).toBe(pipeline.summary());
          const t0 = pipeline.clockStartMs;
          if (!pipeline.playing || t0 === null || !spec) return;
          const s = stepAt(spec, sim.now - t0);
          // every step before the one due now is settled, one way or another
          const c = pipeline.summary();
          const settled = c.shown + c.dropped + c.missing + c.damaged;
          expect(settled).toBeGreaterThanOrEqual(s);
          expect(settled).toBeLessThanOrEqual(s + 1);
          // a 'once' playback in its last frame time has nothing left to ask for
          const ending = spec.mode === 'once' && frameAtStep(spec, s + 1) === null;
          if (ending) return;
          const f = pipeline.inFlight;
          expect(f.loading + f.uploading + f.ready, 'something on its way while playing').toBeGreaterThan(0);
          // a 'once' playback may end before a slow frame can arrive; until then, frames keep being shown
          const endsMs = spec.mode === 'once' ? t0 + dueMs(spec, onceSteps(spec)) : Infinity;
          if (endsMs > lastMoveMs + boundMs) expect(sim.now - lastMoveMs, 'time since the picture last moved').toBeLessThanOrEqual(boundMs);
        };

        for (const o of ops) {
          const frame = pipeline.presented?.frame ?? 1001;
          // Stop ends a playback; paused, the frame a seek asked for still comes
          const stopsPlayback = o.kind === 'stop' && pipeline.playing;
          if (o.kind === 'play') {
            spec = { frames, fps: o.fps, mode: o.mode, direction: o.direction, startFrame: frame };
            pipeline.start(spec);
            lastMoveMs = sim.now;
          } else if (o.kind === 'seek') pipeline.seek(frames[Math.min(frames.length - 1, Math.floor(o.at * frames.length))]!);
          else if (o.kind === 'step') pipeline.seek(frames[(frames.indexOf(frame) + o.delta + frames.length) % frames.length]!);
          else pipeline.stop();
          const startedBefore = sim.started.length;
          await sim.run(pipeline, o.waitMs, 1000 / 60, check);
          if (stopsPlayback) expect(sim.started.length, 'no load asked for after Stop').toBe(startedBefore);
          if (!pipeline.playing) spec = null;
        }

        // stopped and settled: every load came back or was cancelled, every pixel buffer went back once, nothing is held
        // (paused, the frame asked for last still comes: Stop ends playback, not a seek)
        const wasPlaying = pipeline.playing;
        pipeline.stop();
        const startedAtStop = sim.started.length;
        while (sim.pending) await sim.run(pipeline, 1000);
        if (wasPlaying) expect(sim.started.length, 'no load asked for after Stop').toBe(startedAtStop);
        expect(sim.settledTags.length).toBe(sim.startedTags.length);
        expect(sim.released.length).toBe(sim.loadsResolved);
        expect(pipeline.inFlight).toEqual({ loading: 0, uploading: 0, ready: 0 });
        expect(sim.plans[sim.plans.length - 1] ?? []).toEqual([]);
      }),
      { numRuns: 80 },
    );
  });
});

/** Steps of a 'once' playback from its start frame to its end. */
function onceSteps(spec: ClockSpec): number {
  let s = 0;
  while (frameAtStep(spec, s + 1) !== null) s++;
  return s + 1;
}

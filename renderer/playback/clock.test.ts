import { describe, expect, it } from 'vitest';
import { dueMs, frameAtStep, snapFrame, stepAt, timelineFrames, type ClockSpec } from './clock.js';

const spec = (over: Partial<ClockSpec> = {}): ClockSpec => ({
  frames: timelineFrames(1, 5),
  fps: 24,
  mode: 'loop',
  direction: 1,
  startFrame: 1,
  ...over,
});
const run = (s: ClockSpec, steps: number) => Array.from({ length: steps }, (_, k) => frameAtStep(s, k));

describe('playback clock', () => {
  it('loops forwards and backwards from the start frame', () => {
    expect(run(spec({ startFrame: 3 }), 7)).toEqual([3, 4, 5, 1, 2, 3, 4]);
    expect(run(spec({ startFrame: 2, direction: -1 }), 7)).toEqual([2, 1, 5, 4, 3, 2, 1]);
  });

  it('ping-pongs between in and out, each end shown once per turn', () => {
    expect(run(spec({ mode: 'ping-pong' }), 10)).toEqual([1, 2, 3, 4, 5, 4, 3, 2, 1, 2]);
    expect(run(spec({ mode: 'ping-pong', startFrame: 4, direction: -1 }), 6)).toEqual([4, 3, 2, 1, 2, 3]);
    expect(run(spec({ mode: 'ping-pong', frames: [7] }), 3)).toEqual([7, 7, 7]);
  });

  it('plays once and then has no frame', () => {
    expect(run(spec({ mode: 'once', startFrame: 4 }), 3)).toEqual([4, 5, null]);
    expect(run(spec({ mode: 'once', startFrame: 2, direction: -1 }), 3)).toEqual([2, 1, null]);
  });

  it('plays between in and out points on a timeline with gaps and steps', () => {
    const frames = timelineFrames(1001, 1048).filter((f) => f >= 1010 && f <= 1013);
    expect(run(spec({ frames, startFrame: 1012 }), 5)).toEqual([1012, 1013, 1010, 1011, 1012]);
    expect(timelineFrames(10, 20, 2)).toEqual([10, 12, 14, 16, 18, 20]);
    expect(snapFrame([10, 12, 14], 13.2)).toBe(14);
  });

  it('maps time to steps without drift: a late tick lands on the frame that is due', () => {
    const s = spec({ fps: 24 });
    expect(stepAt(s, 0)).toBe(0);
    expect(stepAt(s, 41.6)).toBe(0);
    expect(stepAt(s, 41.7)).toBe(1);
    expect(stepAt(s, 1000)).toBe(24);
    expect(stepAt(s, 60_000)).toBe(1440);
    expect(dueMs(s, 1440)).toBeCloseTo(60_000, 6);
    expect(stepAt(spec({ fps: 23.976 }), dueMs(spec({ fps: 23.976 }), 1000))).toBe(1000);
  });
});

// Playback time: which frame is due at which step, for loop, ping-pong and once, forwards or backwards, between in and out.
//
// A step is one frame interval (1000 / fps ms) since play started; the frame at a step follows from the mode alone, so
// the player never accumulates drift and a late tick lands on the frame that is due, not the one after the last shown.

export type LoopMode = 'loop' | 'ping-pong' | 'once';

export interface ClockSpec {
  /** The sequence's frame numbers between in and out, ascending (missing ones included: they take their time too). */
  frames: readonly number[];
  fps: number;
  mode: LoopMode;
  /** 1 forwards, -1 backwards. */
  direction: 1 | -1;
  /** The frame shown at step 0. */
  startFrame: number;
}

/** Every `step`-th frame number from first to last: the timeline of a sequence, gaps included. */
export function timelineFrames(firstFrame: number, lastFrame: number, step = 1): number[] {
  const out: number[] = [];
  for (let f = firstFrame; f <= lastFrame; f += Math.max(1, step)) out.push(f);
  return out;
}

export function frameMs(fps: number): number {
  return 1000 / fps;
}

/** The frame due at step `s` (s >= 0), or null once a 'once' playback has run off its end. */
export function frameAtStep(spec: ClockSpec, s: number): number | null {
  const n = spec.frames.length;
  if (n === 0) return null;
  const i0 = Math.max(0, indexOf(spec.frames, spec.startFrame));
  const dir = spec.direction;
  let index: number;
  if (spec.mode === 'once') {
    index = i0 + dir * s;
    if (index < 0 || index >= n) return null;
  } else if (spec.mode === 'loop' || n === 1) {
    index = mod(i0 + dir * s, n);
  } else {
    // ping-pong: in → out → in …, one period of 2(n-1) steps; backwards starts on the way down
    const period = 2 * (n - 1);
    const phase0 = dir === 1 ? i0 : mod(period - i0, period);
    const p = mod(phase0 + s, period);
    index = p < n ? p : period - p;
  }
  return spec.frames[index]!;
}

/** The step due at `elapsedMs` after play started. */
export function stepAt(spec: Pick<ClockSpec, 'fps'>, elapsedMs: number): number {
  return Math.max(0, Math.floor((elapsedMs * spec.fps) / 1000 + 1e-9));
}

/** When step `s` is due, in ms after play started. */
export function dueMs(spec: Pick<ClockSpec, 'fps'>, s: number): number {
  return (s * 1000) / spec.fps;
}

/** The nearest timeline frame to `frame` (a scrub lands on a frame that exists in the timeline). */
export function snapFrame(frames: readonly number[], frame: number): number {
  if (frames.length === 0) return frame;
  let best = frames[0]!;
  for (const f of frames) if (Math.abs(f - frame) < Math.abs(best - frame)) best = f;
  return best;
}

function indexOf(frames: readonly number[], frame: number): number {
  // ascending: binary search
  let lo = 0;
  let hi = frames.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = frames[mid]!;
    if (v === frame) return mid;
    if (v < frame) lo = mid + 1;
    else hi = mid - 1;
  }
  return Math.min(lo, frames.length - 1);
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}

// Which steps to ask for next, and the plan the host decodes ahead. A frame is asked for only if it can be ready
// before its step passes; the steps looked at start from the first one the next load can reach in time, however far
// the latency puts it, so that a playing pipeline always has a next request and its estimates keep being measured.
import { dueMs, frameAtStep, type ClockSpec } from './clock.js';

/** The frames last sent to the host: every `spacing`-th step from `from`, `length` steps in all. */
export interface Plan {
  from: number;
  spacing: number;
  length: number;
}

export interface LookaheadInput {
  spec: ClockSpec;
  /** When step 0 was due. */
  t0: number;
  nowMs: number;
  /** The step due now, and the last step settled. */
  step: number;
  resolved: number;
  /** Play is buffering (the clock held at step 0): every frame from the start is wanted, however slow. */
  buffering: boolean;
  planned: Plan | null;
  /** Whether a step already has its job. */
  taken: (step: number) => boolean;
  fileOf: (frame: number) => string | null;
  /** Expected ms until the k-th load from now is ready. */
  expectedMs: (k: number) => number;
  /** Loads asked for and not yet uploading. */
  queued: number;
  /** How many loads may start now. */
  room: number;
}

export interface LoadPick {
  step: number;
  frame: number;
  fileId: string;
}

export function lookaheadSteps(fps: number): number {
  return Math.max(8, Math.ceil(fps * 2));
}

export function stepsToLoad(a: LookaheadInput): LoadPick[] {
  const picks: LoadPick[] = [];
  if (a.room <= 0) return picks;
  const { spec, planned } = a;
  const first = Math.max(a.step, a.resolved + 1);
  const from = a.buffering ? first : Math.max(first, reachableStep(a, a.queued + 1));
  const last = from + lookaheadSteps(spec.fps) + (planned?.spacing ?? 1);
  let queued = a.queued;
  for (let u = from; u <= last && picks.length < a.room; u++) {
    if (a.taken(u)) continue;
    const frame = frameAtStep(spec, u);
    if (frame === null) break;
    const fileId = a.fileOf(frame);
    if (fileId === null) continue;
    // thinned: only the steps of the plan the host decodes ahead, so that what is asked for is what it has started
    if (planned && planned.spacing > 1 && u >= planned.from && (u - planned.from) % planned.spacing !== 0) continue;
    // a frame that cannot arrive before its step passes is not asked for (it will be counted as skipped)
    if (!a.buffering && a.t0 + dueMs(spec, u + 1) < a.nowMs + a.expectedMs(queued + 1)) continue;
    picks.push({ step: u, frame, fileId });
    queued++;
  }
  // a 'once' playback whose remaining frames all come too late: its last frame is still the one that may be shown
  if (!picks.length && spec.mode === 'once') {
    const end = lastStep(spec, first, from);
    const frame = end === null ? null : frameAtStep(spec, end);
    const fileId = frame === null ? null : a.fileOf(frame);
    if (end !== null && fileId !== null && !a.taken(end)) picks.push({ step: end, frame: frame!, fileId });
  }
  return picks;
}

/** The first step the k-th load from now can be ready for (a step or two early: the caller checks each step itself). */
function reachableStep(a: LookaheadInput, k: number): number {
  const readyIn = a.nowMs + a.expectedMs(k) - a.t0;
  return Math.max(0, Math.ceil((readyIn * a.spec.fps) / 1000) - 2);
}

/** The last step of a 'once' playback at or before `to`, not before `from`; null when it ended before `from`. */
function lastStep(spec: ClockSpec, from: number, to: number): number | null {
  let lo = from,
    hi = to;
  if (frameAtStep(spec, lo) === null) return null;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (frameAtStep(spec, mid) === null) hi = mid - 1;
    else lo = mid;
  }
  return lo;
}

/**
 * The plan to send the host once the steps after `step` up to `furthest` have their jobs, at the spacing the service
 * time gives; null when the last plan still holds (the same spacing, not yet half used).
 */
export function nextPlan(
  spec: ClockSpec,
  step: number,
  furthest: number,
  last: Plan | null,
  serviceMs: number,
  planFrames: number,
  fileOf: (frame: number) => string | null,
): { plan: Plan; fileIds: string[] } | null {
  const spacing = planSpacing(last?.spacing ?? null, serviceMs, 1000 / spec.fps);
  let from = Math.max(step + 1, furthest + 1);
  // the same spacing goes on on the same grid of steps: a new plan then holds what the last one had started
  if (last && last.spacing === spacing && spacing > 1 && from > last.from)
    from = last.from + Math.ceil((from - last.from) / spacing) * spacing;
  if (last && last.spacing === spacing && from < last.from + last.length / 2) return null;
  const fileIds: string[] = [];
  for (let k = 0; fileIds.length < planFrames && k < planFrames * spacing * 2; k++) {
    const frame = frameAtStep(spec, from + k * spacing);
    if (frame === null) break;
    const id = fileOf(frame);
    if (id !== null) fileIds.push(id);
  }
  return { plan: { from, spacing, length: planFrames * spacing }, fileIds };
}

/**
 * The spacing of the frames asked for: every frame while a load's service fits a frame's time, else every k-th frame
 * so that k frame times cover one service. Every frame while nothing is measured, and during the pre-roll (its cold
 * loads say nothing of what comes next). With hysteresis: a new plan cancels the host's decodes of the frames the old
 * one had and the new one lacks, and a service time that wobbles around a boundary (a host at its limit, a shared
 * machine) would flip the plan at every load, throwing away decodes just when time is short. So the spacing grows only
 * once the service is a quarter over what the current one allows; below that, frames the fill cannot have in time are
 * skipped one by one, which shows more of them than every other frame would.
 */
export function planSpacing(current: number | null, serviceMs: number, frameIntervalMs: number): number {
  if (Number.isNaN(serviceMs)) return 1;
  const wanted = Math.max(1, Math.ceil(serviceMs / frameIntervalMs - 0.1));
  if (current === null) return wanted;
  if (wanted > current) return serviceMs > current * frameIntervalMs * 1.25 ? wanted : current;
  return wanted;
}

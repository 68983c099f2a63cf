// OCIO's legacy GPU fallback for ops the WGSL generator does not know: a run of them baked into a 3D LUT on a log
// shaper by running the CPU applyOps on its lattice, so a new op kind works on the GPU the day its CPU code lands.
import { applyOps } from '../processor.js';
import type { LogOp, Lut3DOp, Op } from '../ops/op.js';

/** Lattice points per axis of a baked LUT (65³ RGBA float32: 4.4 MB). */
export const BAKE_SIZE = 65;
/** The shaper's log2 range: scene-linear 2^-14 to 2^16 (a little above half-float's largest value). */
const SHAPER_MIN_EV = -14;
const SHAPER_MAX_EV = 16;
/** Below 2^(min + 2) the shaper is a straight line (OCIO's LogCamera toe), so 0 and small negatives have lattice points. */
const SHAPER_BREAK_EV = SHAPER_MIN_EV + 2;

/** The shaper as a LogCamera op (base 2): log2(x) from SHAPER_MIN_EV to SHAPER_MAX_EV onto [0, 1], linear below the break. */
export function bakeShaper(direction: 'forward' | 'inverse'): LogOp {
  const span = SHAPER_MAX_EV - SHAPER_MIN_EV;
  const channel = [1 / span, -SHAPER_MIN_EV / span, 1, 0, 2 ** SHAPER_BREAK_EV];
  return { type: 'log', direction, base: 2, camera: true, params: [channel, [...channel], [...channel]] };
}

/** The smallest lattice an inverse 3D LUT is baked on, whatever its table's size. */
const MIN_BAKE_SIZE = 17;

/** Lattice size for runs with an ACES 2.0 fixed function, whose CPU apply costs 15–150 µs a pixel (33³: 36k pixels). */
export const COSTLY_BAKE_SIZE = 33;

/**
 * The lattice a run is baked on: smaller where the CPU code is too slow to run 65³ times while a view is picked. An
 * inverse 3D LUT (its exact CPU inverse costs 0.1–0.4 ms a pixel) is baked at its own table's size.
 */
export function bakeSizeOf(run: readonly Op[]): number {
  const first = run[0];
  if (first?.type === 'lut3d' && first.direction === 'inverse') return Math.max(MIN_BAKE_SIZE, Math.min(first.size, BAKE_SIZE));
  const costly = run.some((op) => op.type === 'fixedFunction' && op.style.startsWith('ACES_') && op.style.endsWith('20'));
  return costly ? COSTLY_BAKE_SIZE : BAKE_SIZE;
}

/**
 * `run` (ops applied in order) as [shaper, 3D LUT]: the run evaluated on the CPU at every lattice point. A run that
 * opens with a 3D LUT (an inverse one: its input is clamped to [0, 1]³) is baked on the unit cube with no shaper,
 * as OCIO bakes an inverse 3D LUT for its GPU path.
 */
export function bakeOps(run: readonly Op[], size = bakeSizeOf(run)): Op[] {
  const n = size;
  const unitCube = run[0]?.type === 'lut3d';
  const lattice = new Float32Array(n * n * n * 4);
  for (let r = 0; r < n; r++)
    for (let g = 0; g < n; g++)
      for (let b = 0; b < n; b++) lattice.set([r / (n - 1), g / (n - 1), b / (n - 1), 1], ((r * n + g) * n + b) * 4);
  if (!unitCube) applyOps([bakeShaper('inverse')], lattice);
  applyOps(run, lattice);
  const values = new Float32Array(n * n * n * 3);
  for (let i = 0; i < n * n * n; i++) values.set(lattice.subarray(i * 4, i * 4 + 3), i * 3);
  const lut: Lut3DOp = { type: 'lut3d', direction: 'forward', size: n, values, interpolation: 'tetrahedral', source: 'baked' };
  return unitCube ? [lut] : [bakeShaper('forward'), lut];
}

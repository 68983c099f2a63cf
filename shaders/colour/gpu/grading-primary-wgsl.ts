// GradingPrimary as WGSL: the CPU op's float32 steps (offset, scale about a pivot, power, saturation, clamp) with its values as literals.
import type { GradingPrimaryOp } from '../ops/op.js';
import { prepareGradingPrimary } from '../ops/grading-primary.js';

type Lit = (v: number) => string;
const f = Math.fround;

/** The op as a WGSL block on `c`, or '' where OCIO bypasses it (identity values, no saturation and no clamp). */
export function gradingPrimaryWgsl(op: GradingPrimaryOp, lit: Lit): string {
  const p = prepareGradingPrimary(op);
  const vec3 = (v: number[]): string => `vec3f(${v.map(lit).join(', ')})`;
  const inv = op.direction === 'inverse';
  const powerIdentity = p.power.every((x) => x === 1);
  const [lo, hi] = [f(op.clampBlack), f(op.clampWhite)];
  const clamped = Number.isFinite(lo) || Number.isFinite(hi);
  const identity = powerIdentity && p.offset.every((o) => o === 0) && p.scale.every((s) => s === 1);
  const sat = f(op.saturation);
  if (sat === 1 && !clamped && identity) return '';

  // a zero offset or unit scale is no step (about the pivot, the CPU's round trip moves a value by an ulp of the pivot at most)
  const offset = p.offset.every((o) => o === 0) ? '' : `v = v + ${vec3(p.offset)};`;
  const scale = p.scale.every((s) => s === 1)
    ? ''
    : op.style === 'linear'
      ? `v = v * ${vec3(p.scale)};`
      : `v = (v - ${lit(p.pivot)}) * ${vec3(p.scale)} + ${lit(p.pivot)};`;
  const range = f(f(op.pivotWhite) - f(op.pivotBlack));
  const black = lit(f(op.pivotBlack));
  const power = powerIdentity
    ? ''
    : op.style === 'linear'
      ? `v = ocioSsePow(abs(v / ${lit(p.pivot)}), ${vec3(p.power)}) * select(vec3f(${lit(p.pivot)}), vec3f(${lit(-p.pivot)}), v < vec3f(0.0));`
      : `{ let d = v - ${black}; v = ocioSsePow(abs(d) / ${lit(range)}, ${vec3(p.power)}) * sign(d) * ${lit(range)} + ${black}; }`;
  // OCIO skips saturation at 1 (and at 0 when inverting, where it has no inverse)
  const saturation =
    sat === 1 || (inv && sat === 0) ? '' : `{ let luma = dot(v, OCIO_LUMA); v = luma + ${lit(inv ? f(1 / sat) : sat)} * (v - luma); }`;
  // as the CPU's SSE min/max: a NaN takes the lower bound; an infinite bound (no clamp that side) is no step
  const clamp = [
    Number.isFinite(lo) ? `v = select(vec3f(${lit(lo)}), v, v > vec3f(${lit(lo)}));` : '',
    Number.isFinite(hi) ? `v = select(vec3f(${lit(hi)}), v, v < vec3f(${lit(hi)}));` : '',
  ];
  const steps = inv ? [...clamp, saturation, power, scale, offset] : [offset, scale, power, saturation, ...clamp];
  return `{\n    ${['var v = c.xyz;', ...steps.filter((s) => s !== ''), 'c = vec4f(v, c.w);'].join('\n    ')}\n  }`;
}

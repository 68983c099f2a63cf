// The expressions the GPU is checked against the CPU reference with, and how close each must be: exact where WGSL
// rounds correctly (+ - *, comparisons, select, min/max, floor, abs), a few ULPs where it allows them (/ is 2.5 ULP,
// a fused multiply-add may round once), relative where it bounds error by the argument (exp, log, pow, sqrt).

export type Tolerance = 'exact' | 'ulps' | 'relative';

export const EXPRESSION_CASES: { text: string; tolerance: Tolerance }[] = [
  { text: 'diffuse + spec', tolerance: 'exact' },
  { text: 'diffuse - spec * 2', tolerance: 'ulps' },
  { text: 'diffuse * spec', tolerance: 'exact' },
  { text: 'diffuse / spec', tolerance: 'ulps' },
  { text: '-diffuse', tolerance: 'exact' },
  { text: 'vec3(diffuse.R < spec.R, diffuse.G <= spec.G, diffuse.B > spec.B)', tolerance: 'exact' },
  { text: 'vec3(diffuse.R >= spec.R, diffuse.G == spec.G, diffuse.B != spec.B)', tolerance: 'exact' },
  { text: 'diffuse == diffuse', tolerance: 'exact' },
  { text: 'abs(diffuse) + floor(spec)', tolerance: 'exact' },
  { text: 'min(diffuse, spec)', tolerance: 'exact' },
  { text: 'max(diffuse, depth)', tolerance: 'exact' },
  { text: 'clamp(diffuse, spec.R, 1)', tolerance: 'exact' },
  { text: 'select(diffuse > spec, diffuse, spec)', tolerance: 'exact' },
  { text: 'select(depth, diffuse, -1)', tolerance: 'exact' },
  { text: 'sqrt(diffuse)', tolerance: 'relative' },
  { text: 'exp(diffuse.R / 1000)', tolerance: 'relative' },
  { text: 'exp(diffuse)', tolerance: 'relative' },
  { text: 'log(diffuse)', tolerance: 'relative' },
  { text: 'pow(diffuse, 2)', tolerance: 'relative' },
  { text: 'pow(diffuse, 3)', tolerance: 'relative' },
  { text: 'pow(diffuse, spec.R)', tolerance: 'relative' },
  { text: 'pow(abs(diffuse), 0.4545)', tolerance: 'relative' },
  { text: 'lerp(diffuse, spec, 0.25)', tolerance: 'ulps' },
  { text: 'mix(diffuse, spec, mask)', tolerance: 'ulps' },
  { text: 'luminance(diffuse)', tolerance: 'ulps' },
  { text: 'dot(diffuse, spec)', tolerance: 'ulps' },
  { text: 'vec4(diffuse.R, spec.G, depth, id.count)', tolerance: 'exact' },
  { text: 'rgb(vec4(diffuse.R, spec.G, depth, mask)) * 0.5', tolerance: 'exact' },
  { text: 'mask * 2 + id.count', tolerance: 'ulps' },
  { text: 'nan + diffuse', tolerance: 'exact' },
  { text: 'inf * diffuse - inf', tolerance: 'exact' },
  { text: 'diffuse + spec + depth - (mask * 0.5) + pi', tolerance: 'ulps' },
  { text: 'select(luminance(diffuse) > 1, clamp(diffuse, 0, 1), max(spec, 0))', tolerance: 'ulps' },
];

/** Extra float planes x0..x11, so that one expression reads more planes than WebGPU's default 16 sampled textures. */
export const EXTRA_PLANES = Array.from({ length: 12 }, (_, k) => `x${k}`);

/**
 * How planes are read: a 2×2-subsampled plane (`sub.Y`) read directly, and 21 planes (past the default limit of 16)
 * where the last ones, half, uint and subsampled among them, are packed into scratch first.
 */
export const PLANE_READ_CASES: { text: string; tolerance: Tolerance }[] = [
  { text: 'vec3(sub.Y + diffuse.R, sub.Y, max(sub.Y, mask))', tolerance: 'exact' },
  { text: `vec4(${EXTRA_PLANES.join(' + ')}, diffuse.R + spec.G, depth.Z + mask.Y, id.count + sub.Y)`, tolerance: 'exact' },
];

const ULPS = 3;
/** exp and pow are within 3 + 2|x| ULPs in WGSL (of exp2(y log2 x) for pow); log within 2^-21 absolute near 1. */
const RELATIVE = 2 ** -15;
const LOG_ABSOLUTE = 2 ** -21;
const MIN_NORMAL = 2 ** -126;

/** A float32's position on the number line in ULPs (monotonic; -0 and +0 the same). */
function ordinal(x: number): number {
  const bits = new Int32Array(new Float32Array([x]).buffer)[0]!;
  return bits < 0 ? -(bits & 0x7fffffff) : bits;
}

/**
 * How far the GPU's value is from the CPU's, and whether beyond `tolerance`. NaN must meet NaN and an infinity the same
 * infinity; subnormal results count as 0 (a GPU may flush them).
 */
export function valueDistance(cpu: number, gpu: number, tolerance: Tolerance): { distance: number; outside: boolean } {
  const flush = (x: number): number => (Math.abs(x) < MIN_NORMAL ? 0 : x);
  const c = flush(cpu),
    g = flush(gpu);
  if (Number.isNaN(c) || Number.isNaN(g))
    return { distance: Number.isNaN(c) && Number.isNaN(g) ? 0 : Infinity, outside: Number.isNaN(c) !== Number.isNaN(g) };
  if (!Number.isFinite(c) || !Number.isFinite(g)) {
    // past float32's range the result may round to the largest finite value or overflow: both are the same overflow
    const big = (x: number): boolean => Math.abs(x) >= 3.4e38;
    const same = c === g || (tolerance !== 'exact' && big(c) && big(g) && Math.sign(c) === Math.sign(g));
    return { distance: same ? 0 : Infinity, outside: !same };
  }
  if (tolerance === 'relative') {
    const d = Math.abs(c - g) / Math.max(Math.abs(c), MIN_NORMAL);
    return { distance: d, outside: d > RELATIVE && Math.abs(c - g) > LOG_ABSOLUTE && Math.abs(ordinal(c) - ordinal(g)) > ULPS };
  }
  const ulps = Math.abs(ordinal(c) - ordinal(g));
  return { distance: ulps, outside: ulps > (tolerance === 'exact' ? 0 : ULPS) };
}

// Compare modes and tev's difference metrics: names, shader codes and the per-value definitions the CPU reference uses.

export const COMPARE_MODES = [
  'off',
  'flip',
  'wipe',
  'side-by-side',
  'error',
  'absolute-error',
  'squared-error',
  'relative-absolute-error',
  'relative-squared-error',
] as const;
export type CompareMode = (typeof COMPARE_MODES)[number];
export const DIFFERENCE_MODES = ['error', 'absolute-error', 'squared-error', 'relative-absolute-error', 'relative-squared-error'] as const;
export type DifferenceMode = (typeof DIFFERENCE_MODES)[number];

export const COMPARE_MODE_LABELS: Record<CompareMode, string> = {
  off: 'Off',
  flip: 'A/B flip',
  wipe: 'Wipe',
  'side-by-side': 'Side by side',
  error: 'Error',
  'absolute-error': 'Absolute error',
  'squared-error': 'Squared error',
  'relative-absolute-error': 'Relative absolute error',
  'relative-squared-error': 'Relative squared error',
};

export function isDifference(m: CompareMode): m is DifferenceMode {
  return (DIFFERENCE_MODES as readonly string[]).includes(m);
}

/** tev's regulariser of the relative metrics (its shader adds 0.01 to the reference, or to its square). */
export const RELATIVE_EPSILON = 0.01;

/**
 * One value of a difference image, A the current image and B the reference, as tev defines them:
 * error A−B, absolute |A−B|, squared (A−B)², relative absolute |A−B|/(B+0.01), relative squared (A−B)²/(B²+0.01).
 */
export function differenceValue(mode: DifferenceMode, a: number, b: number): number {
  const d = a - b;
  switch (mode) {
    case 'error':
      return d;
    case 'absolute-error':
      return Math.abs(d);
    case 'squared-error':
      return d * d;
    case 'relative-absolute-error':
      return Math.abs(d) / (b + RELATIVE_EPSILON);
    case 'relative-squared-error':
      return (d * d) / (b * b + RELATIVE_EPSILON);
  }
}

/** What a canvas pixel shows, as compare.wgsl's `mode` word: A, B, split (wipe and side by side), or a metric. */
export const SHOW_A = 0;
export const SHOW_B = 1;
export const SHOW_SPLIT = 2;
export const SHOW_METRIC_BASE = 3;

export function differenceCode(m: DifferenceMode): number {
  return DIFFERENCE_MODES.indexOf(m);
}

/** Which values a statistics pass reduces: A, B, or a difference image (stats.wgsl's `valueMode`). */
export type StatsSource = { kind: 'a' } | { kind: 'b' } | { kind: 'difference'; mode: DifferenceMode };
export function statsSourceCode(s: StatsSource): number {
  return s.kind === 'a' ? 0 : s.kind === 'b' ? 1 : 2 + differenceCode(s.mode);
}

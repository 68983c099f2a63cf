// Numbers as WGSL float literals that read back as the same f32.

export const F32_MAX = 3.4028234663852886e38;

/** A float literal WGSL reads back as the same f32 (the shortest decimal of the f32); infinities clamp to the f32 range. */
export function lit(v: number): string {
  const x = Math.fround(Math.max(-F32_MAX, Math.min(F32_MAX, Number.isNaN(v) ? 0 : v)));
  let s = String(x);
  if (!/[.e]/.test(s)) s += '.0';
  return x < 0 || Object.is(x, -0) ? `(${s})` : s;
}

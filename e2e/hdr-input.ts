// Deterministic random HDR RGBA for the shader tests: mostly log-uniform over ±2^±12, plus negatives, zeros, huge values, NaN and ±Inf.

export function randomHdr(n: number, seed: number, hugeMax = 3e38): number[] {
  let s = seed >>> 0;
  const rnd = (): number => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const out: number[] = [];
  for (let i = 0; i < n * 4; i++) {
    const k = rnd();
    let v: number;
    if (k < 0.02) v = NaN;
    else if (k < 0.03) v = Infinity;
    else if (k < 0.04) v = -Infinity;
    else if (k < 0.06) v = 0;
    else if (k < 0.08) v = (rnd() < 0.5 ? -1 : 1) * hugeMax * rnd();
    else if (k < 0.18) v = -Math.pow(2, rnd() * 8 - 6);
    else v = Math.pow(2, rnd() * 24 - 12);
    out.push(Math.fround(v));
  }
  return out;
}

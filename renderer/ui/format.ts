// Number formatting for the inspector panels: finite values to 5 significant digits, NaN/Inf and counts as words.
export function fmtValue(v: number): string {
  if (Number.isNaN(v)) return '—';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '−Inf';
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e5 || a < 1e-4)) return v.toExponential(4);
  return String(Number(v.toPrecision(5)));
}

export function fmtCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function fmtDb(v: number): string {
  return Number.isNaN(v) ? '—' : v === Infinity ? '∞ (identical)' : `${v.toFixed(2)} dB`;
}

// Units for the diagnostics panel: durations in ms, sizes in MB, rates in MB/s or GB/s (never a rate rounded to zero).

/** Not a figure yet (NaN, null, undefined, ±Infinity). */
const unknown = (v: number | null | undefined): v is null | undefined => v === null || v === undefined || !Number.isFinite(v);

/** A duration: more decimals the shorter it is, so that sub-millisecond GPU passes do not read as 0. */
export function fmtMs(ms: number | null | undefined): string {
  if (unknown(ms)) return 'n/a';
  if (ms === 0) return '0 ms';
  const a = Math.abs(ms);
  if (a < 0.001) return '<0.001 ms';
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  return `${ms.toFixed(digits)} ms`;
}

/** A size in MB (decimal, as the rates are), to 0.01 MB; three significant digits where that would read as 0. */
export function fmtMB(bytes: number | null | undefined): string {
  if (unknown(bytes)) return 'n/a';
  const mb = bytes / 1e6;
  if (mb === 0) return '0 MB';
  return `${Math.abs(mb) >= 0.01 ? mb.toFixed(2) : Number(mb.toPrecision(3))} MB`;
}

/** Three significant digits, without exponent notation for the values a rate takes. */
const sig3 = (v: number): string => (v >= 100 ? v.toFixed(0) : String(Number(v.toPrecision(3))));

/** A transfer rate from bytes per second: GB/s from 1 GB/s up, MB/s below; 'n/a' when unknown. */
export function fmtRate(bytesPerSecond: number | null | undefined): string {
  if (unknown(bytesPerSecond) || bytesPerSecond < 0) return 'n/a';
  if (bytesPerSecond === 0) return '0 MB/s';
  if (bytesPerSecond >= 1e9) return `${sig3(bytesPerSecond / 1e9)} GB/s`;
  const mbps = bytesPerSecond / 1e6;
  return mbps < 0.01 ? '<0.01 MB/s' : `${sig3(mbps)} MB/s`;
}

/** The rate of moving `bytes` in `ms`; 'n/a' when either is unknown or the time is not positive. */
export function fmtRateOf(bytes: number | null | undefined, ms: number | null | undefined): string {
  if (unknown(bytes) || unknown(ms) || ms <= 0) return 'n/a';
  return fmtRate(bytes / (ms / 1e3));
}

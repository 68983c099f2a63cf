// Formatting for the panels and the status line: finite values to 5 significant digits, NaN/Inf and counts as words; names shortened in the middle.
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

/**
 * `name` in at most `maxChars` characters, cut in the middle so that what tells names apart stays: the start (the shot)
 * and the end (version, frame, extension), e.g. "shot_14_b…_v003.exr". The end keeps a little more than the start.
 */
export function middleEllipsis(name: string, maxChars: number): string {
  const chars = [...name];
  if (chars.length <= maxChars) return name;
  if (maxChars <= 1) return '…';
  const keep = maxChars - 1;
  const head = Math.floor(keep / 2);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (keep - head)).join('')}`;
}

/** The status line's zoom, screen px per image px in per cent of CSS px; "—" with no image on screen to be zoomed. */
export function fmtZoom(zoom: number, devicePixelRatio: number, imageOnScreen: boolean): string {
  return imageOnScreen ? `${Math.round((zoom * 100) / (devicePixelRatio || 1))} %` : '—';
}

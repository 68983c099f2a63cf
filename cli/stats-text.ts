// `exrview stats FILE` without --json: each part's windows and a table of its channels' statistics, aligned for reading.

import type { ChannelStats, FileStats, PartStats } from '../codec/index.js';

/** A number as a person reads it: six significant digits, exponent form only for the very large or small. */
export function readableNumber(v: number | null | undefined): string {
  if (v === null || v === undefined) return 'none';
  if (v === 0) return '0';
  const abs = Math.abs(v);
  if (abs >= 1e6 || abs < 1e-4) return v.toExponential(4).replace(/\.?0+e/, 'e');
  return String(Number(v.toPrecision(6)));
}

type Align = 'left' | 'right';

/** Rows of cells in columns as wide as their widest cell, two spaces apart; trailing blanks trimmed. */
export function alignColumns(rows: string[][], align: readonly Align[], indent = '  '): string[] {
  const widths = align.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  return rows.map(
    (row) =>
      indent +
      row
        .map((cell, c) => (align[c] === 'right' ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
        .join('  ')
        .trimEnd(),
  );
}

const box = ([x0, y0, x1, y1]: readonly number[]) => `(${x0}, ${y0}) - (${x1}, ${y1})`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function partLines(part: PartStats, index: number): string[] {
  const [x0, y0, x1, y1] = part.dataWindow;
  const deep = part.type === 'deepscanline' || part.type === 'deeptile';
  const lines = [
    `part ${index}${part.name ? ` "${part.name}"` : ''}: ${part.type}, ${part.compression} compression`,
    `  data window ${box(part.dataWindow)}, ${x1 - x0 + 1} x ${y1 - y0 + 1} pixels; display window ${box(part.displayWindow)}`,
  ];
  if (part.channels.length === 0) return [...lines, '  no channels'];
  // subsampled channels (luma/chroma files) are rare: the column appears only where one is
  const sampled = part.channels.some((c) => c.xSampling !== 1 || c.ySampling !== 1);
  const sampling = (c: ChannelStats) => (sampled ? [`${c.xSampling} x ${c.ySampling}`] : []);
  const header = ['channel', 'type', ...(sampled ? ['sampling'] : []), ...(deep ? [] : ['min', 'max', 'mean', 'NaN', 'Inf'])];
  const align: Align[] = ['left', 'left', ...(sampled ? ['left' as const] : []), ...(deep ? [] : Array<Align>(5).fill('right'))];
  const rows = part.channels.map((c) => [
    c.name,
    c.pixelType,
    ...sampling(c),
    ...(deep
      ? []
      : [readableNumber(c.min), readableNumber(c.max), readableNumber(c.mean), String(c.nanCount ?? 0), String(c.infCount ?? 0)]),
  ]);
  lines.push(...alignColumns([header, ...rows], align));
  if (deep) lines.push('  (deep part: its samples are not summarised)');
  return lines;
}

/** The file, then each part: its type, compression and windows, and one aligned row per channel. */
export function statsText(file: string, stats: FileStats): string {
  const channels = stats.parts.reduce((n, p) => n + p.channels.length, 0);
  const incomplete = stats.incomplete
    ? `; incomplete: ${stats.incomplete.chunksPresent} of ${stats.incomplete.chunksTotal} chunks, the statistics are of those`
    : '';
  const lines = [`${file}: ${plural(stats.parts.length, 'part')}, ${plural(channels, 'channel')}${incomplete}`];
  stats.parts.forEach((part, i) => lines.push('', ...partLines(part, i)));
  lines.push('', 'min, max and mean are over finite values ("none" when there are none); NaN and Inf are counted apart.');
  return lines.join('\n') + '\n';
}

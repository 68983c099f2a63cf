// What `exrview thumbs` says when it is done: how many it wrote and how fast, by stage, and how many files failed.

export interface Totals {
  readMs: number;
  decompressMs: number;
  unpackMs: number;
  resizeMs: number;
  queueMs: number;
  toneMapMs: number;
  /** sharp, on this thread's behalf (JPEG; PNG without the native kernels, or from the GPU path). */
  encodeMs: number;
  /** PNG encoded by the workers that made the thumbnails. */
  workerEncodeMs: number;
  /** Files written here (sharp's output). */
  writeMs: number;
  /** Files written by the workers (their PNGs). */
  workerWriteMs: number;
  /** GPU path: planes sent to the GPU process, made, read back (wall, per image, summed). */
  gpuMs: number;
  bytesRead: number;
  sources: Map<string, number>;
}

export function emptyTotals(): Totals {
  return {
    readMs: 0,
    decompressMs: 0,
    unpackMs: 0,
    resizeMs: 0,
    queueMs: 0,
    toneMapMs: 0,
    encodeMs: 0,
    workerEncodeMs: 0,
    writeMs: 0,
    workerWriteMs: 0,
    gpuMs: 0,
    bytesRead: 0,
    sources: new Map(),
  };
}

/** "1 thumbnail", "2 thumbnails". */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export const ms = (v: number): string => `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`;

/** Where a stage ran: on the workers, on this thread, or both. */
function whereNote(onWorkersMs: number, hereMs: number, here: string): string {
  if (onWorkersMs > 0 && hereMs > 0) return `${ms(onWorkersMs)} on the workers and ${ms(hereMs)} ${here}`;
  return onWorkersMs > 0 ? `${ms(onWorkersMs)} (on the workers)` : `${ms(hereMs)} (${here})`;
}

/** The timing summary: its first line starts "wrote N thumbnails in T ms" (bench/thumbs-vs-decode.mjs reads it). */
export function timingSummary(made: number, thumbsMs: number, totalMs: number, t: Totals, pathNote: string, workers: number): string {
  const sources = [...t.sources.entries()].map(([k, n]) => `${n} ${k}`).join(', ') || 'none';
  const stages = [
    `read ${ms(t.readMs)} (${(t.bytesRead / 1e6).toFixed(1)} MB)`,
    `decompress ${ms(t.decompressMs)}`,
    `unpack ${ms(t.unpackMs)}`,
    `resize ${ms(t.resizeMs)}`,
    `queue ${ms(t.queueMs)}`,
  ];
  const output = [
    `tone-map ${ms(t.toneMapMs)} (on the workers)`,
    `encode ${whereNote(t.workerEncodeMs, t.encodeMs, 'with sharp')}`,
    `write ${whereNote(t.workerWriteMs, t.writeMs, 'here')}`,
  ];
  const lines = [
    `wrote ${plural(made, 'thumbnail')} in ${ms(thumbsMs)} (${ms(totalMs)} with start-up and folder scan); ` +
      `path: ${pathNote}, ${plural(workers, 'worker')}`,
    `  from: ${sources}`,
    `  stages (summed over workers): ${stages.join(', ')}`,
    ...(t.gpuMs > 0 ? [`  GPU path (send planes, upload, assemble, MIP, tone-map, read back): ${ms(t.gpuMs)}`] : []),
    `  output: ${output.join(', ')}`,
  ];
  return lines.join('\n') + '\n';
}

/**
 * After failures or damaged files, how many were written (how many of those with damage) and how many failed of each
 * kind ("wrote 12 thumbnails, 1 with damage (…); 2 files could not be read (listed above)"); null when all went well.
 */
export function failureSummary(made: number, unreadFiles: number, unwrittenThumbnails: number, damagedFiles = 0): string | null {
  if (unreadFiles === 0 && unwrittenThumbnails === 0 && damagedFiles === 0) return null;
  const kinds = [
    ...(unreadFiles > 0 ? [`${plural(unreadFiles, 'file')} could not be read`] : []),
    ...(unwrittenThumbnails > 0 ? [`${plural(unwrittenThumbnails, 'thumbnail')} could not be written`] : []),
  ];
  const written = `wrote ${plural(made, 'thumbnail')}`;
  if (damagedFiles === 0) return `${written}; ${kinds.join(' and ')} (listed above)`;
  const withDamage = `${written}, ${damagedFiles} with damage (the chunks that could not be read hatched`;
  return kinds.length ? `${withDamage}); ${kinds.join(' and ')} (listed above)` : `${withDamage}; listed above)`;
}

/** A damaged file's line: its thumbnail was written from the chunks that could be read. */
export function damageNote(missing: { chunksRead: number; chunksTotal: number; reason: string }): string {
  const lost = missing.chunksTotal - missing.chunksRead;
  return (
    `written with damage: ${lost} of ${missing.chunksTotal} chunks could not be read and are hatched in the thumbnail ` +
    `(${missing.reason}); copy or render the file again to see all of it`
  );
}

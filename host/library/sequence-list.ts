// A folder's sequences as the HostApi lists them: detected from its entries, each with its frames, gaps, damage and rate.

import type { FileEntry, SequenceInfo } from '../../contract/host-api.js';
import { detectSequences } from './sequences.js';

export interface SequenceListInput {
  folderId: string;
  entries: Iterable<FileEntry>;
  /** The id a pattern keeps for this host session. */
  idOf(pattern: string): string;
  /** A file's `framesPerSecond` attribute as read with its header, if it has one. */
  framesPerSecondOf(fileId: string): number | null;
}

export function listSequences(input: SequenceListInput): SequenceInfo[] {
  const { sequences } = detectSequences([...input.entries], (f) =>
    f.summary ? (f.summary.parts[0]?.displayWindow.join(',') ?? null) : null,
  );
  return sequences.map((q): SequenceInfo => {
    const firstOk = q.frames.find((f) => f.file.status === 'ok' && f.file.summary)?.file;
    let sizeBytes = 0;
    let mtimeMs = 0;
    for (const { file } of q.frames) {
      sizeBytes += file.sizeBytes;
      mtimeMs = Math.max(mtimeMs, file.mtimeMs);
    }
    return {
      id: input.idOf(q.pattern),
      folderId: input.folderId,
      relativePattern: q.pattern,
      name: q.name,
      padding: q.padding,
      firstFrame: q.firstFrame,
      lastFrame: q.lastFrame,
      step: q.step,
      frames: q.frames.map((f) => ({ frame: f.frame, fileId: f.file.id, status: f.file.status })),
      missingFrames: q.missingFrames,
      damagedFrames: q.frames.filter((f) => f.file.status !== 'ok').map((f) => f.frame),
      framesPerSecond: firstOk ? input.framesPerSecondOf(firstOk.id) : null,
      widthPx: firstOk?.summary?.widthPx ?? 0,
      heightPx: firstOk?.summary?.heightPx ?? 0,
      sizeBytes,
      mtimeMs,
    };
  });
}

/** A `framesPerSecond` rational as a number; null when it is absent or not a positive rate. */
export function framesPerSecondValue(attribute: { type: string; value: unknown } | undefined): number | null {
  if (!attribute || attribute.type !== 'rational') return null;
  const { numerator, denominator } = attribute.value as { numerator: number; denominator: number };
  const fps = numerator / denominator;
  return Number.isFinite(fps) && fps > 0 && fps <= 1000 ? fps : null;
}

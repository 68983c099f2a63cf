// What the grid shows: single files as they are, and each frame sequence as one item with its range and a filmstrip. Pure.
import type { FileEntry, SequenceInfo } from '../host-client/api-types.js';
import { visibleFiles, type LibrarySlice } from './store.js';

export interface GridItem {
  /** The file shown when the item is picked (a sequence's first readable frame): selection works on these ids. */
  id: string;
  label: string;
  /** The tooltip: the path, or the sequence's range, gaps and damaged frames. */
  title: string;
  bad: boolean;
  /** Frames whose thumbnails make the filmstrip (one file for a single image). */
  strip: string[];
  sequence: SequenceInfo | null;
}

/** Frames in a filmstrip thumbnail: first, middle and last. */
export const STRIP_FRAMES = 3;

/** The first readable frame: the one a sequence item stands for. */
export function sequenceFileId(q: SequenceInfo): string {
  return (q.frames.find((f) => f.status === 'ok') ?? q.frames[0]!).fileId;
}

export function frameRangeLabel(q: SequenceInfo): string {
  return `${q.firstFrame}-${q.lastFrame}`;
}

/** Items in the grid's order: each sequence where its first file sorts, filtered and sorted as the files are. */
export function gridItems(lib: LibrarySlice): GridItem[] {
  const seqOf = new Map<string, SequenceInfo>();
  for (const q of lib.sequences) for (const f of q.frames) seqOf.set(f.fileId, q);
  const out: GridItem[] = [];
  const placed = new Set<string>();
  for (const f of visibleFiles(lib)) {
    const q = seqOf.get(f.id);
    if (!q) {
      out.push(fileItem(f));
      continue;
    }
    if (placed.has(q.id)) continue;
    placed.add(q.id);
    out.push(sequenceItem(q));
  }
  return out;
}

function fileItem(f: FileEntry): GridItem {
  return { id: f.id, label: f.name, title: f.error ?? f.relativePath, bad: f.status !== 'ok', strip: [f.id], sequence: null };
}

function sequenceItem(q: SequenceInfo): GridItem {
  const ok = q.frames.filter((f) => f.status === 'ok');
  const from = ok.length ? ok : q.frames;
  const picks = from.length <= STRIP_FRAMES ? from : [from[0]!, from[Math.floor(from.length / 2)]!, from[from.length - 1]!];
  const notes = [
    `${q.relativePattern}: frames ${frameRangeLabel(q)}${q.step > 1 ? ` every ${q.step}` : ''}, ${q.frames.length} files`,
    q.missingFrames.length ? `missing ${q.missingFrames.length}: ${short(q.missingFrames)}` : '',
    q.damagedFrames.length ? `damaged: ${short(q.damagedFrames)}` : '',
  ].filter(Boolean);
  return {
    id: sequenceFileId(q),
    label: `${q.name} ${frameRangeLabel(q)}`,
    title: notes.join('; '),
    bad: false,
    strip: picks.map((f) => f.fileId),
    sequence: q,
  };
}

function short(frames: readonly number[]): string {
  return frames.length > 8 ? `${frames.slice(0, 8).join(', ')} …` : frames.join(', ');
}

/** The sequence a file belongs to, if any. */
export function sequenceOf(lib: LibrarySlice, fileId: string | null): SequenceInfo | null {
  if (fileId === null) return null;
  return lib.sequences.find((q) => q.frames.some((f) => f.fileId === fileId)) ?? null;
}

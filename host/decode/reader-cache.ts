// A worker's open files: header and offset tables parsed once per file, not once per band of chunks, and not at all
// where the main thread hands its parse over (header-handoff.ts).
//
// A file is reopened when its size, mtime or inode changed (it was rewritten), and closed when idle for a
// moment, so a file the user deletes or replaces is never held open for long (Windows refuses to delete open files).

import { statSync } from 'node:fs';
import { ExrReader, openFileSource, refreshParsed, type FileSource } from '../../codec/index.js';
import { takeHandoff, type HeaderHandoff } from '../headers/header-handoff.js';

interface OpenFile {
  reader: ExrReader;
  source: FileSource;
  sizeBytes: number;
  mtimeMs: number;
  inode: number;
  lastUsedMs: number;
}

const MAX_OPEN_FILES = 8;
const IDLE_CLOSE_MS = 2000;

const open = new Map<string, OpenFile>();
let sweeper: ReturnType<typeof setInterval> | null = null;

/** Bytes and time read from disk by one use of a reader. */
export interface ReadFigures {
  bytesRead: number;
  readMs: number;
}

/** How this thread's files were opened (tests). */
export interface ReaderCacheCounts {
  /** Files opened from the main thread's parse. */
  handedOver: number;
  /** Files parsed here: no handoff came, or the file changed since the main thread read it. */
  parsed: number;
  /** Files still being written, grown since they were open here: walked on, not parsed again. */
  refreshed: number;
}

export const readerCacheCounts: ReaderCacheCounts = { handedOver: 0, parsed: 0, refreshed: 0 };

/**
 * Runs `use` with the file's reader; the read figures are those of this use alone. `handoff`: the main thread's parse of
 * the file, used where the file is not open here yet and is still the version it read.
 */
export function withReader<T>(
  path: string,
  use: (reader: ExrReader) => T,
  handoff?: HeaderHandoff | null,
): { value: T; read: ReadFigures } {
  const file = openFile(path, handoff ?? null);
  const before = { ...file.source.stats };
  const value = use(file.reader);
  file.lastUsedMs = performance.now();
  return { value, read: { bytesRead: file.source.stats.bytesRead - before.bytesRead, readMs: file.source.stats.readMs - before.readMs } };
}

function openFile(path: string, handoff: HeaderHandoff | null): OpenFile {
  const held = open.get(path);
  // a file still being written, grown since: its walk goes on from where it stopped (refreshParsed), not from the start
  let grown: ExrReader['parsed'] | null = null;
  if (held) {
    const now = statSync(path, { throwIfNoEntry: false });
    if (now && held.sizeBytes === now.size && held.mtimeMs === now.mtimeMs && held.inode === now.ino) {
      // most recently used last: the first entry is the one to close when full
      open.delete(path);
      open.set(path, held);
      return held;
    }
    if (now && held.inode === now.ino && held.reader.parsed.walk) grown = held.reader.parsed;
    close(path);
  }
  const source = openFileSource(path);
  let reader: ExrReader;
  try {
    const parsed = handoff && takeHandoff(handoff, { sizeBytes: source.sizeBytes, ...source.identity });
    if (parsed) readerCacheCounts.handedOver++;
    else if (grown) readerCacheCounts.refreshed++;
    else readerCacheCounts.parsed++;
    reader = parsed
      ? ExrReader.fromParsed(source, parsed)
      : grown
        ? ExrReader.fromParsed(source, refreshParsed(source, grown))
        : ExrReader.open(source);
  } catch (error) {
    source.close();
    throw error;
  }
  // the descriptor's own identity (its fstat): a file replaced after this open is told apart by the next stat
  const file: OpenFile = {
    reader,
    source,
    sizeBytes: source.sizeBytes,
    mtimeMs: source.identity.mtimeMs,
    inode: source.identity.inode,
    lastUsedMs: performance.now(),
  };
  open.set(path, file);
  while (open.size > MAX_OPEN_FILES) close(open.keys().next().value!);
  sweeper ??= setInterval(sweep, IDLE_CLOSE_MS).unref();
  return file;
}

function close(path: string): void {
  const file = open.get(path);
  if (!file) return;
  open.delete(path);
  file.source.close();
}

function sweep(): void {
  const now = performance.now();
  for (const [path, file] of open) if (now - file.lastUsedMs > IDLE_CLOSE_MS) close(path);
  if (open.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = null;
  }
}

/** Closes every file (tests; a worker about to exit). */
export function closeAllReaders(): void {
  for (const path of [...open.keys()]) close(path);
}

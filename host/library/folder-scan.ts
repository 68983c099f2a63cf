// How a folder's headers are read when it opens: in name order, a few at once, and for a progressive open the files
// after the first screen's announced in batches.
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { FileEntry, FolderInfo } from '../../contract/host-api.js';
import { fsReason } from '../io/fs-reason.js';

/** Headers read at once while scanning a folder (they are small reads; this keeps the disk queue short). */
export const SCAN_CONCURRENCY = 8;
/**
 * A progressive open of a big folder returns once this many files, the first in name order, are read: the first screen
 * of thumbnails waits for these, not for every header. The rest follow as 'files-added' events.
 */
export const FIRST_FILES = 256;
/** The rest of a progressive open reaches the page in batches at most this often (each re-sorts the page's listing). */
const SCAN_BATCH_MS = 250;

/** A name the library lists: `.exr` in any case, not hidden. */
export const isExrName = (name: string): boolean => /\.exr$/i.test(name) && !name.startsWith('.');

/**
 * The EXR files under `dir` (and its subfolders not hidden, when the folder is recursive). A folder that cannot be read
 * fails the open when it is the folder's root (`root`, by default `dir`), and is passed over below it.
 */
export async function findExrFiles(dir: string, folder: Pick<FolderInfo, 'displayPath' | 'recursive'>, root = dir): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch (error) {
      if (d === root) throw new Error(`cannot read folder ${folder.displayPath}: ${fsReason(error)}`);
      return;
    }
    for (const e of entries) {
      const full = join(d, e.name);
      if (e.isDirectory()) {
        if (folder.recursive && !e.name.startsWith('.')) await walk(full);
      } else if ((e.isFile() || e.isSymbolicLink()) && isExrName(e.name)) {
        out.push(full);
      }
    }
  };
  await walk(dir);
  return out;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Paths in the order the grid lists them (their paths relative to `root`, numbers compared as numbers). */
export function sortPaths(root: string, paths: string[]): string[] {
  return paths
    .map((p) => ({ p, key: relative(root, p).split(sep).join('/') }))
    .sort((a, b) => collator.compare(a.key, b.key))
    .map((e) => e.p);
}

/** Entries in the grid's order. */
export function sortEntries(entries: FileEntry[]): FileEntry[] {
  return entries.sort((a, b) => collator.compare(a.relativePath, b.relativePath));
}

/** Runs `work` on every item, at most `limit` at once, in the items' order of starting. */
export async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

/**
 * Reads each path (`read` gives its entry, or nothing when it is gone) SCAN_CONCURRENCY at once, and hands what was read
 * to `announce` at most every SCAN_BATCH_MS, the last batch once all are read.
 */
export async function readAnnouncingBatches(
  paths: readonly string[],
  read: (path: string) => Promise<FileEntry | undefined>,
  announce: (files: FileEntry[]) => void,
): Promise<void> {
  let batch: FileEntry[] = [];
  let lastSentMs = performance.now();
  const send = () => {
    if (batch.length) announce(batch);
    batch = [];
    lastSentMs = performance.now();
  };
  await forEachLimited(paths, SCAN_CONCURRENCY, async (p) => {
    const entry = await read(p);
    if (entry) batch.push(entry);
    if (performance.now() - lastSentMs >= SCAN_BATCH_MS) send();
  });
  send();
}

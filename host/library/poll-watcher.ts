// Watches a folder by looking at it at intervals (stat of every wanted file): for mounts whose file events do not come.

import { readdir, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { TreeWatcher } from './watcher.js';

export interface PollOptions {
  recursive: boolean;
  intervalMs: number;
  /** The files worth a stat (folders are always looked into when recursive). */
  wanted(name: string): boolean;
  /** A path that appeared, changed or went away since the last look (a folder that went away: the folder alone). */
  onPath(absPath: string): void;
  onError(message: string): void;
}

/** What a path was at a look: a folder, or a file's size, modification time and inode. */
type Snapshot = Map<string, string>;

/** Looks at `root` every `intervalMs` (the first look is the baseline, reported as nothing) and reports the differences. */
export function pollTree(root: string, options: PollOptions): TreeWatcher {
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let last: Snapshot | null = null;
  let rootMissing = false;

  const tick = async () => {
    timer = null;
    let now: Snapshot;
    try {
      now = await snapshot(root, options);
      rootMissing = false;
    } catch (error) {
      // the folder itself is gone or unreadable: what was in it went with it (reported once)
      now = new Map();
      if (!rootMissing) {
        rootMissing = true;
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') options.onError(`cannot look at ${root}: ${(error as Error).message}`);
        if (!closed && last) options.onPath(root);
      }
    }
    if (closed) return;
    if (last) for (const path of differences(last, now)) options.onPath(path);
    last = now;
    // the next look after this one ends: a slow mount never has two looks at once
    timer = setTimeout(() => void tick(), options.intervalMs);
    timer.unref();
  };
  void tick();

  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/** The paths added, changed or removed from `before` to `after`; a removed folder stands for everything under it. */
export function differences(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [path, what] of after) if (before.get(path) !== what) out.push(path);
  const goneDirs: string[] = [];
  for (const [path, what] of before) {
    if (after.has(path)) continue;
    if (goneDirs.some((d) => path.startsWith(d))) continue;
    if (what === 'dir') goneDirs.push(path + sep);
    out.push(path);
  }
  return out;
}

async function snapshot(root: string, options: PollOptions): Promise<Snapshot> {
  const out: Snapshot = new Map();
  const walk = async (dir: string, isRoot: boolean): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isRoot) throw error;
      return;
    }
    for (const e of entries) {
      const full = join(dir, e.name);
      if (e.isDirectory()) {
        if (!options.recursive || e.name.startsWith('.')) continue;
        out.set(full, 'dir');
        await walk(full, false);
      } else if (options.wanted(e.name)) {
        const s = await stat(full).catch(() => null);
        if (s?.isFile()) out.set(full, `${s.size}:${s.mtimeMs}:${s.ino}`);
      }
    }
  };
  await walk(root, true);
  return out;
}

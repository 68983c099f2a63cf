// Watches a folder (recursively on request) and reports each path that may have changed, debounced per path.

import { watch, type FSWatcher } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export interface TreeWatcher {
  close(): void;
}

export interface WatchOptions {
  recursive: boolean;
  /** Quiet time per path before it is reported: a burst of writes becomes one report. */
  debounceMs: number;
  onPath(absPath: string): void;
  onError(message: string): void;
}

/**
 * fs.watch on the folder; with `recursive`, Node's own recursive watch where the platform has it,
 * else one watcher per sub-folder (added as folders appear).
 */
export function watchTree(root: string, options: WatchOptions): TreeWatcher {
  const timers = new Map<string, NodeJS.Timeout>();
  const watchers = new Map<string, FSWatcher>();
  let closed = false;

  const report = (absPath: string) => {
    if (closed) return;
    clearTimeout(timers.get(absPath));
    timers.set(
      absPath,
      setTimeout(() => {
        timers.delete(absPath);
        if (!closed) options.onPath(absPath);
      }, options.debounceMs),
    );
  };

  const watchOne = (dir: string, recursive: boolean) => {
    if (watchers.has(dir) || closed) return;
    try {
      const w = watch(dir, { recursive, persistent: false }, (_event, name) => {
        if (name === null) {
          // the platform did not say which file: look at the whole folder again
          report(dir);
          return;
        }
        const full = resolve(dir, name.toString());
        report(full);
        if (perFolder) void addSubfolders(full);
      });
      w.on('error', (error) => {
        watchers.delete(dir);
        w.close();
        if (dir === root) options.onError(`stopped watching ${root}: ${error.message}; reopen the folder to see new changes`);
      });
      watchers.set(dir, w);
    } catch (error) {
      if (dir === root) throw error;
    }
  };

  let perFolder = false;
  const addSubfolders = async (dir: string) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    watchOne(dir, false);
    for (const e of entries) if (e.isDirectory() && !e.name.startsWith('.')) await addSubfolders(join(dir, e.name));
  };

  if (options.recursive) {
    try {
      watchOne(root, true);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM') throw error;
      perFolder = true;
      void addSubfolders(root);
    }
  } else {
    watchOne(root, false);
  }

  return {
    close() {
      closed = true;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}

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
  /**
   * The longest a path's report waits while its writes go on (a renderer filling a file never pauses for `debounceMs`):
   * default four times `debounceMs`.
   */
  maxWaitMs?: number;
  onPath(absPath: string): void;
  onError(message: string): void;
}

/**
 * fs.watch on the folder; with `recursive`, Node's own recursive watch where the platform has it,
 * else one watcher per sub-folder (added as folders appear).
 */
export function watchTree(root: string, options: WatchOptions): TreeWatcher {
  const coalesce = coalescer(options.debounceMs, options.maxWaitMs ?? 4 * options.debounceMs, (p) => {
    if (!closed) options.onPath(p);
  });
  const watchers = new Map<string, FSWatcher>();
  let closed = false;

  const report = (absPath: string) => {
    if (!closed) coalesce.add(absPath);
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
        if (dir === root) options.onError(`file events for ${root} stopped (${error.message})`);
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
      coalesce.clear();
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}

export interface Coalescer {
  add(key: string): void;
  clear(): void;
}

/**
 * Reports each key once per burst: `quietMs` after its last add, or `maxWaitMs` after the first add of the burst when
 * the adds go on (one report per stretch of a long write, not none until it ends).
 */
export function coalescer(quietMs: number, maxWaitMs: number, report: (key: string) => void): Coalescer {
  const pending = new Map<string, { timer: NodeJS.Timeout; firstMs: number }>();
  const fire = (key: string) => {
    pending.delete(key);
    report(key);
  };
  return {
    add(key) {
      const now = performance.now();
      const held = pending.get(key);
      if (held) clearTimeout(held.timer);
      const firstMs = held?.firstMs ?? now;
      const waitMs = Math.max(0, Math.min(quietMs, firstMs + maxWaitMs - now));
      pending.set(key, { timer: setTimeout(fire, waitMs, key), firstMs });
    },
    clear() {
      for (const { timer } of pending.values()) clearTimeout(timer);
      pending.clear();
    },
  };
}

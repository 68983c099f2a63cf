// How a folder is watched: the platform's file events, or polling where those do not come (network mounts) or fail.

import { pollTree } from './poll-watcher.js';
import { unwatchableReason } from './network-mount.js';
import { watchTree, type TreeWatcher } from './watcher.js';

export interface FolderWatchOptions {
  recursive: boolean;
  debounceMs: number;
  pollIntervalMs: number;
  wanted(name: string): boolean;
  onPath(absPath: string): void;
  onError(message: string): void;
  /** The watch fell back to polling after it started (file events stopped): the message says so and why. */
  onPolling?(message: string): void;
  /** /proc/mounts' text (tests); read from the system when absent. */
  mountsText?: string | null;
}

/** The watch and, when it polls, "watching by polling: <why>". */
export function watchFolder(root: string, options: FolderWatchOptions): { watcher: TreeWatcher; polling: string | null } {
  const poll = () =>
    pollTree(root, {
      recursive: options.recursive,
      intervalMs: options.pollIntervalMs,
      wanted: options.wanted,
      onPath: options.onPath,
      onError: options.onError,
    });
  const remote = options.mountsText === undefined ? unwatchableReason(root) : unwatchableReason(root, options.mountsText);
  if (remote) return { watcher: poll(), polling: `watching by polling: ${remote}` };
  let current: TreeWatcher;
  const watcher: TreeWatcher = { close: () => current.close() };
  try {
    current = watchTree(root, {
      recursive: options.recursive,
      debounceMs: options.debounceMs,
      onPath: options.onPath,
      onError: (message) => {
        // the events stopped (the watch broke, or the platform dropped it): look at the folder instead
        current.close();
        current = poll();
        options.onPolling?.(`watching by polling: ${message}`);
      },
    });
  } catch (error) {
    return { watcher: poll(), polling: `watching by polling: the platform's file watcher failed (${(error as Error).message})` };
  }
  return { watcher, polling: null };
}

// Watches an OCIO config's files on disk (the config, its LUTs) and says once when a burst of writes to them has settled.

import { statSync, unwatchFile, watch, watchFile, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

export interface ConfigWatchTiming {
  /** Quiet time after the last write before the files are looked at: an editor's save is several writes. */
  settleMs: number;
  /** Stat interval where the folder cannot be watched (a network mount, no inotify watches left). */
  pollMs: number;
  /** Stat only, no fs.watch (tests of the fallback). */
  pollOnly?: boolean;
}

export const DEFAULT_CONFIG_WATCH_TIMING: ConfigWatchTiming = { settleMs: 150, pollMs: 1000 };

/**
 * Watches the folders that hold `paths` (an editor that saves by rename replaces the file a watch on it would follow),
 * and calls `onChange` once a burst of events has settled and the files' size, time or inode differ from before.
 */
export class ConfigFileWatch {
  private readonly watchers: FSWatcher[] = [];
  private readonly polled: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private signature: string;
  private closed = false;

  constructor(
    private readonly paths: readonly string[],
    private readonly onChange: () => void,
    private readonly timing: ConfigWatchTiming = DEFAULT_CONFIG_WATCH_TIMING,
  ) {
    this.signature = signatureOf(paths);
    const byFolder = new Map<string, string[]>();
    for (const path of new Set(paths)) byFolder.set(dirname(path), [...(byFolder.get(dirname(path)) ?? []), path]);
    for (const [folder, inFolder] of byFolder) this.watchFolder(folder, inFolder);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.watchers) w.close();
    for (const path of this.polled) unwatchFile(path);
  }

  private watchFolder(folder: string, inFolder: string[]): void {
    if (this.timing.pollOnly) return this.poll(inFolder);
    const names = new Set(inFolder.map((p) => basename(p)));
    try {
      const watcher = watch(folder, { persistent: false }, (_event, name) => {
        if (name === null || names.has(String(name))) this.poke();
      });
      watcher.on('error', () => {
        watcher.close();
        this.poll(inFolder);
      });
      this.watchers.push(watcher);
    } catch {
      this.poll(inFolder);
    }
  }

  private poll(paths: string[]): void {
    if (this.closed) return;
    for (const path of paths) {
      watchFile(path, { persistent: false, interval: this.timing.pollMs }, () => this.poke());
      this.polled.push(path);
    }
  }

  private poke(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const now = signatureOf(this.paths);
      if (this.closed || now === this.signature) return;
      this.signature = now;
      this.onChange();
    }, this.timing.settleMs);
  }
}

/** Each file's size, modification time and inode ('gone' when it is not there): what a write changes. */
function signatureOf(paths: readonly string[]): string {
  return paths
    .map((path) => {
      try {
        const s = statSync(path);
        return `${s.size}:${s.mtimeMs}:${s.ino}`;
      } catch {
        return 'gone';
      }
    })
    .join('|');
}

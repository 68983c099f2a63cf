// The host's side of OCIO configs from disk: reads one for the page, keeps the recent list in settings.json, and keeps
// the configs it read (what exports may go through) watched, so that an edit on disk is read again.

import { dirname, resolve } from 'node:path';
import type { ColourConfigFiles } from '../../contract/host-api.js';
import { openConfigFiles, type OpenedConfig } from '../../shaders/colour/open-config.js';
import { ConfigFileWatch, type ConfigWatchTiming } from './config-watch.js';
import {
  emptySettings,
  forgetColourConfig,
  loadSettings,
  rememberColourConfig,
  updateSettings,
  type Settings,
} from '../settings/settings-store.js';
import { ConfigReadError, readColourConfigFiles, type ConfigReadLimits, type ReadConfigResult } from './read-config.js';

/** Configs kept read (and watched) at once: the one on screen and a few the user switched between. */
const MAX_OPENED = 8;

export interface ColourConfigsOptions {
  limits?: ConfigReadLimits;
  /** A config read before (by its absolute path) changed on disk. */
  onChanged?: (path: string) => void;
  watchTiming?: ConfigWatchTiming;
}

/** A config the host read: its files as the page got them, the processor's config built from them once, its watch. */
interface OpenedEntry {
  read: ReadConfigResult;
  /** Names this read: a key of the processors built from it (a later read of the same path gets another). */
  key: string;
  opened?: OpenedConfig;
  watch?: ConfigFileWatch;
}

let reads = 0;

export class ColourConfigs {
  private recent: string[];
  /** By absolute path, the latest read last: the registry of files a page may have exports go through. */
  private readonly opened = new Map<string, OpenedEntry>();

  /** `settingsDir`: where settings.json lives; without one the recent list lasts as long as the host. */
  constructor(
    private readonly settingsDir: string | undefined,
    private readonly env: Record<string, string | undefined> = process.env,
    private readonly options: ColourConfigsOptions = {},
  ) {
    this.recent = settingsDir ? loadSettings(settingsDir).recentColourConfigs : [];
  }

  get recentConfigs(): string[] {
    return [...this.recent];
  }

  /** Reads the config and its LUTs; it joins the recent list, or leaves it when the file is gone. */
  async read(path: string): Promise<ColourConfigFiles> {
    try {
      const read = await readColourConfigFiles(path, this.env, this.options.limits);
      this.remember(read);
      this.change((s) => rememberColourConfig(s, read.source));
      return { ...read, recentColourConfigs: this.recentConfigs };
    } catch (error) {
      if (error instanceof ConfigReadError && error.missingFile) this.change((s) => forgetColourConfig(s, path));
      throw error;
    }
  }

  /**
   * The config the host read at `path` (absolute), as read last, for an export or a thumbnail to go through: the same
   * files the page built its processor from. Undefined when the host did not read it: a page may not name other files.
   */
  configAt(path: string): { key: string; opened: OpenedConfig } | undefined {
    const entry = this.opened.get(resolve(path));
    if (!entry) return undefined;
    const { read } = entry;
    entry.opened ??= openConfigFiles(read.configPath, new Map(read.files.map((f) => [f.path, f.text])), read.env);
    return { key: entry.key, opened: entry.opened };
  }

  /** Stops watching. */
  close(): void {
    for (const entry of this.opened.values()) entry.watch?.close();
    this.opened.clear();
  }

  private remember(read: ReadConfigResult): void {
    const previous = this.opened.get(read.source);
    previous?.watch?.close();
    this.opened.delete(read.source);
    const entry: OpenedEntry = { read, key: `${read.source}#${++reads}` };
    const onChanged = this.options.onChanged;
    if (onChanged) entry.watch = new ConfigFileWatch(watchedPaths(read), () => onChanged(read.source), this.options.watchTiming);
    this.opened.set(read.source, entry);
    for (const [path, old] of this.opened) {
      if (this.opened.size <= MAX_OPENED) break;
      old.watch?.close();
      this.opened.delete(path);
    }
  }

  private change(update: (s: Settings) => Settings): void {
    let next = update({ ...emptySettings(), recentColourConfigs: this.recent }).recentColourConfigs;
    if (this.settingsDir) {
      try {
        next = updateSettings(this.settingsDir, (disk) => ({
          ...disk,
          recentColourConfigs: update(disk).recentColourConfigs,
        })).recentColourConfigs;
      } catch {
        // settings that cannot be written: the list still lasts as long as the host
      }
    }
    this.recent = next;
  }
}

/** The files on disk a read came from: the config (or the archive) and each LUT file beside it. */
function watchedPaths(read: ReadConfigResult): string[] {
  if (read.source.toLowerCase().endsWith('.ocioz')) return [read.source];
  const folder = dirname(read.source);
  return [read.source, ...read.files.slice(1).map((f) => resolve(folder, f.path))];
}

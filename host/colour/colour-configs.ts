// The host's side of OCIO configs from disk: reads one for the page and keeps the recent list in settings.json.

import type { ColourConfigFiles } from '../../contract/host-api.js';
import {
  emptySettings,
  forgetColourConfig,
  loadSettings,
  rememberColourConfig,
  updateSettings,
  type Settings,
} from '../settings/settings-store.js';
import { ConfigReadError, readColourConfigFiles, type ConfigReadLimits } from './read-config.js';

export class ColourConfigs {
  private recent: string[];

  /** `settingsDir`: where settings.json lives; without one the recent list lasts as long as the host. */
  constructor(
    private readonly settingsDir: string | undefined,
    private readonly env: Record<string, string | undefined> = process.env,
    private readonly limits?: ConfigReadLimits,
  ) {
    this.recent = settingsDir ? loadSettings(settingsDir).recentColourConfigs : [];
  }

  get recentConfigs(): string[] {
    return [...this.recent];
  }

  /** Reads the config and its LUTs; it joins the recent list, or leaves it when the file is gone. */
  async read(path: string): Promise<ColourConfigFiles> {
    try {
      const read = await readColourConfigFiles(path, this.env, this.limits);
      this.change((s) => rememberColourConfig(s, read.source));
      return { ...read, recentColourConfigs: this.recentConfigs };
    } catch (error) {
      if (error instanceof ConfigReadError && error.missingFile) this.change((s) => forgetColourConfig(s, path));
      throw error;
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

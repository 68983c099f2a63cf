// The desktop app's tev listener, switched on and off by its setting: one set of live images for the app's life (the
// host lists them), and the listener over them started on the setting's port or stopped, as `exrview serve --tev` runs it.

import type { LiveImages } from './live-images.js';
import { liveImagesReadingFiles, startTevService, type TevService } from './tev-service.js';

export interface TevSwitchState {
  /** The listener runs. */
  listening: boolean;
  /** The port it listens on (the one asked for, or the one found for port 0); null while off. */
  port: number | null;
  /** Why it could not start (the port in use…), said to the user; null when it did, or was not asked to. */
  error: string | null;
}

export interface TevSwitchOptions {
  log?: (line: string) => void;
  /** The images to fill (default: new ones whose OpenImage reads EXRs from disk). */
  images?: LiveImages;
  /** Where the port setting is kept, named when the port is in use. */
  settingsFile?: string;
}

export class TevSwitch {
  readonly images: LiveImages;
  private service: TevService | null = null;
  private error: string | null = null;
  /** Switches apply one after another: a toggle while one starts waits for it. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: TevSwitchOptions = {}) {
    this.images = options.images ?? liveImagesReadingFiles();
  }

  get state(): TevSwitchState {
    return { listening: this.service !== null, port: this.service?.listener.port ?? null, error: this.error };
  }

  /**
   * On (on `port`) or off. Turning it off, or onto another port, closes every tev connection; the images clients sent
   * go with them, as they would when tev quits. A port that cannot be had leaves it off, the reason in `error`.
   */
  set(setting: { enabled: boolean; port: number }): Promise<TevSwitchState> {
    const run = this.queue.then(() => this.apply(setting));
    this.queue = run.catch(() => {});
    return run;
  }

  private async apply({ enabled, port }: { enabled: boolean; port: number }): Promise<TevSwitchState> {
    const running = this.service;
    if (running && enabled && (port === 0 || running.listener.port === port)) return this.state;
    if (running) {
      this.service = null;
      await running.listener.close();
      this.images.clear();
    }
    this.error = null;
    if (!enabled) return this.state;
    try {
      this.service = await startTevService({
        port,
        images: this.images,
        pickPort: `set another port as "tevListener.port" in ${this.options.settingsFile ?? 'the settings file'}`,
        ...(this.options.log ? { log: this.options.log } : {}),
      });
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
    }
    return this.state;
  }

  close(): Promise<TevSwitchState> {
    return this.set({ enabled: false, port: 0 });
  }
}

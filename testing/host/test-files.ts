// Test helpers: EXR files made with the project's writer in temporary folders, a host on them, and waiting for host events.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeExr, writeExrFile, type WritePart } from '../../codec/writer.js';
import { afterEach, beforeEach } from 'vitest';
import type { HostEvent } from '../../contract/host-api.js';
import { createHost, type Host, type HostOptions } from '../../host/host.js';
import { box, halfChannels, type PixelFn } from '../../host/samples/samples.js';

export function tempDir(prefix = 'exrview-host-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * A folder for test files, a user data folder and a host with one worker on them: made before each
 * test, closed and removed after. `restart()` closes the host and starts another on the same folders
 * (as a second run of the app would).
 */
export function useHostFixture(options: Partial<HostOptions> = {}): {
  readonly dir: string;
  readonly userData: string;
  readonly host: Host;
  restart(): Promise<Host>;
  /** restart() with some options changed. */
  restartWith(changed: Partial<HostOptions>): Promise<Host>;
} {
  let dir: ReturnType<typeof tempDir>;
  let userData: ReturnType<typeof tempDir>;
  let host: Host;
  const start = (changed: Partial<HostOptions> = {}) =>
    createHost({ userDataDir: userData.path, workers: 1, prefetch: false, ...options, ...changed });
  beforeEach(() => {
    dir = tempDir();
    userData = tempDir('exrview-userdata-');
    host = start();
  });
  afterEach(async () => {
    await host.close();
    dir.remove();
    userData.remove();
  });
  return {
    get dir() {
      return dir.path;
    },
    get userData() {
      return userData.path;
    },
    get host() {
      return host;
    },
    async restart() {
      await host.close();
      return (host = start());
    },
    async restartWith(changed) {
      await host.close();
      return (host = start(changed));
    },
  };
}

export function rgbPart(
  widthPx: number,
  heightPx: number,
  fn: PixelFn,
  options: Partial<WritePart> & { withAlpha?: boolean } = {},
): WritePart {
  const { withAlpha, ...rest } = options;
  return {
    dataWindow: box(widthPx, heightPx),
    compression: 'zip',
    channels: halfChannels(widthPx, heightPx, fn, { withAlpha: withAlpha ?? false }),
    ...rest,
  };
}

export function writeRgb(
  path: string,
  widthPx: number,
  heightPx: number,
  fn: PixelFn,
  options: Partial<WritePart> & { withAlpha?: boolean } = {},
): void {
  writeExrFile(path, [rgbPart(widthPx, heightPx, fn, options)]);
}

export function rgbBytes(widthPx: number, heightPx: number, fn: PixelFn, options: Partial<WritePart> = {}): Uint8Array {
  return writeExr([rgbPart(widthPx, heightPx, fn, options)]);
}

/** Collects events; `next` waits for the first one (already seen or still to come) that `match` accepts. */
export class EventLog {
  readonly events: HostEvent[] = [];
  private waiters: { match: (e: HostEvent) => boolean; resolve: (e: HostEvent) => void }[] = [];

  readonly listener = (event: HostEvent): void => {
    this.events.push(event);
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(event)) return true;
      w.resolve(event);
      return false;
    });
  };

  next<E extends HostEvent>(match: (e: HostEvent) => e is E, timeoutMs?: number, since?: number): Promise<E>;
  next(match: (e: HostEvent) => boolean, timeoutMs?: number, since?: number): Promise<HostEvent>;
  next(match: (e: HostEvent) => boolean, timeoutMs = 10_000, since = 0): Promise<HostEvent> {
    const seen = this.events.slice(since).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching event within ${timeoutMs} ms; saw ${JSON.stringify(this.events.map((e) => e.type))}`)),
        timeoutMs,
      );
      this.waiters.push({
        match,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      });
    });
  }

  get length(): number {
    return this.events.length;
  }
}

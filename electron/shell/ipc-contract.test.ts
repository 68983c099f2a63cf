// HostApi over IPC, end to end without Electron: the preload's object against the main-process handlers and the real host,
// through an in-memory IPC that copies messages as Electron does (structured clone) and prefixes errors as it does.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeExrFile } from '../../codec/writer.js';
import type { HostApi, HostEvent } from '../../contract/host-api.js';
import { createHost, type Host } from '../../host/host.js';
import { TRANSPORT_METHODS } from '../../contract/host-methods.js';
import { FolderGrants } from './folder-grants.js';
import { createIpcHandlers, createSenderCheck, type IpcHandlers, type SenderInfo } from './ipc-handlers.js';
import { APP_START_URL } from './navigation-guard.js';
import { createPreloadApi, type PreloadIpc } from './preload-api.js';
import { EVENT_CHANNEL, METHOD_CHANNELS } from '../../contract/shell-api.js';

const WINDOW_ID = 7;
const mainFrame: SenderInfo = { webContentsId: WINDOW_ID, isMainFrame: true, frameUrl: APP_START_URL };

/** What Electron's ipcRenderer/ipcMain do to a message, without Electron: clone both ways, prefix errors, deliver events. */
function memoryIpc(handlers: IpcHandlers, sender: () => SenderInfo): PreloadIpc & { emit(channel: string, payload: unknown): void } {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  return {
    async invoke(channel, args) {
      const handler = handlers.calls.get(channel);
      if (!handler) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
      try {
        return structuredClone(await handler(sender(), structuredClone(args)));
      } catch (error) {
        throw new Error(`Error invoking remote method '${channel}': ${String(error)}`);
      }
    },
    send(channel, args) {
      handlers.signals.get(channel)?.(sender(), structuredClone(args));
    },
    on(channel, listener) {
      const set = listeners.get(channel) ?? new Set();
      listeners.set(channel, set);
      set.add(listener);
      return () => set.delete(listener);
    },
    emit(channel, payload) {
      for (const l of listeners.get(channel) ?? []) l(structuredClone(payload));
    },
  };
}

let dir: string;
let opened: string;
let elsewhere: string;
let host: Host;
let grants: FolderGrants;
let handlers: IpcHandlers;
let api: HostApi;
let currentSender: SenderInfo = mainFrame;
let picks: (string | null)[] = [];
let configPicks: (string | null)[] = [];
const remembered: string[] = [];
let ipc: ReturnType<typeof memoryIpc>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'exrview-ipc-'));
  opened = join(dir, 'opened');
  elsewhere = join(dir, 'elsewhere');
  mkdirSync(join(opened, 'sub'), { recursive: true });
  mkdirSync(elsewhere);
  const part = {
    dataWindow: { xMin: 0, yMin: 0, xMax: 1, yMax: 1 },
    channels: [{ name: 'Y', pixelType: 'float' as const, data: new Float32Array([0.5, 1, 2, 4]) }],
  };
  writeExrFile(join(opened, 'a.exr'), [part]);
  writeExrFile(join(elsewhere, 'b.exr'), [part]);
  symlinkSync(elsewhere, join(opened, 'link-out'));
  host = createHost({
    userDataDir: join(dir, 'user-data'),
    workers: 1,
    prefetch: false,
    timing: { watchDebounceMs: 20, settlePollMs: 50, settleMs: 500 },
  });
  grants = new FolderGrants();
  handlers = createIpcHandlers({
    host,
    grants,
    isTrustedSender: createSenderCheck(() => WINDOW_ID),
    pickFolder: async () => picks.shift() ?? null,
    pickConfigFile: async () => configPicks.shift() ?? null,
    onFolderOpened: (path) => remembered.push(path),
  });
  ipc = memoryIpc(handlers, () => currentSender);
  host.onEvent((event) => ipc.emit(EVENT_CHANNEL, event));
  api = createPreloadApi(ipc).host;
});

afterAll(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('contract', () => {
  it('the preload object has exactly the HostApi methods, and each has a main-process handler', () => {
    // compile-time: the object satisfies HostApi
    const typed: HostApi = api;
    expect(Object.keys(typed).sort()).toEqual([...TRANSPORT_METHODS, 'onEvent'].sort());
    for (const value of Object.values(typed)) expect(typeof value).toBe('function');
    const channels = [...handlers.calls.keys(), ...handlers.signals.keys()].sort();
    expect(channels).toEqual(Object.values(METHOD_CHANNELS).sort());
  });

  it('carries calls, pixels (as ArrayBuffers) and events from the real host', async () => {
    await grants.grant(opened);
    const folder = (await api.openFolder(opened))!;
    expect(remembered).toContain(opened);
    const files = await api.listFiles(folder.id);
    expect(files.map((f) => f.name)).toContain('a.exr');
    const a = files.find((f) => f.name === 'a.exr')!;
    const image = await api.decodeImage({ requestId: 'r1', fileId: a.id, part: 0, priority: 'preview' });
    expect(image.planes[0]!.data).toBeInstanceOf(ArrayBuffer);
    expect([...new Float32Array(image.planes[0]!.data)]).toEqual([0.5, 1, 2, 4]);
    const events: HostEvent[] = [];
    const off = api.onEvent((e) => events.push(e));
    writeExrFile(join(opened, 'new.exr'), [
      { dataWindow: { xMin: 0, yMin: 0, xMax: 0, yMax: 0 }, channels: [{ name: 'Y', pixelType: 'float', data: new Float32Array(1) }] },
    ]);
    await expect
      .poll(() => events.some((e) => e.type === 'files-added' && e.files.some((f) => f.name === 'new.exr')), { timeout: 10_000 })
      .toBe(true);
    off();
  });

  it('gives the page plain error messages (no IPC prefix), refusals included', async () => {
    const error = await api.getHeader('no-such-file').catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toMatch(/invoking remote method|^Error:/);
    expect((error as Error).message).toMatch(/unknown file/);
  });
});

describe('paths: only under folders the user opened', () => {
  it.each([
    ['a folder never opened', () => elsewhere],
    ['a path climbing out with ..', () => join(opened, '..', 'elsewhere')],
    ['a symlink inside an opened folder that leads outside', () => join(opened, 'link-out')],
    ['the file system root', () => '/'],
    ['a relative path', () => 'elsewhere'],
    ['a path with a NUL byte', () => `${opened}\0`],
  ])('openFolder refuses %s', async (_what, path) => {
    await expect(api.openFolder(path())).rejects.toThrow(/not in a folder you opened|does not exist|not a valid path/);
  });

  it('opens a subfolder of an opened folder', async () => {
    await grants.grant(opened);
    expect((await api.openFolder(join(opened, 'sub')))?.displayPath).toBe(join(opened, 'sub'));
  });

  it('opens a folder the user picks in the shell dialog (openFolder with no path), and nothing when cancelled', async () => {
    picks = [elsewhere];
    expect((await api.openFolder())?.displayPath).toBe(elsewhere);
    expect(grants.folders).toContain(elsewhere);
    picks = [null];
    expect(await api.openFolder()).toBeNull();
  });

  it('refuses an export folder outside the opened folders before the host sees it', async () => {
    const view = { exposureEv: 0, offset: 0, gamma: 2.2, displayTransform: 'srgb' as const, layer: '', channelMode: 'rgb' as const };
    await expect(api.exportImages({ fileIds: [], kind: 'image', format: 'png', outDir: tmpdir(), overwrite: false, view })).rejects.toThrow(
      /not in a folder you opened/,
    );
    picks = [null];
    const cancelled = await api.exportImages({ fileIds: ['x'], kind: 'image', format: 'png', overwrite: false, view });
    expect(cancelled.skipped).toEqual([{ fileId: 'x', reason: 'export cancelled' }]);
  });

  it('reads an OCIO config the user picks in the shell dialog, or one in an opened folder; then it is a recent one', async () => {
    const config = 'ocio_profile_version: 2\nroles: {default: lin}\ncolorspaces:\n  - !<ColorSpace> {name: lin}\n';
    // a folder no test grants
    const apart = join(dir, 'apart');
    mkdirSync(apart);
    writeFileSync(join(apart, 'picked.ocio'), config);
    writeFileSync(join(apart, 'other.ocio'), config);
    writeFileSync(join(opened, 'show.ocio'), config);
    await grants.grant(opened);
    await expect(api.readColourConfig(join(apart, 'other.ocio'))).rejects.toThrow(/not \$OCIO, a recent config or in a folder you opened/);
    configPicks = [null];
    expect(await api.readColourConfig()).toBeNull();
    configPicks = [join(apart, 'picked.ocio')];
    expect((await api.readColourConfig())?.recentColourConfigs[0]).toBe(join(apart, 'picked.ocio'));
    // once picked, a recent config reads again by its path (Reload, the recent list, the next start)
    expect((await api.readColourConfig(join(apart, 'picked.ocio')))?.configPath).toBe('picked.ocio');
    expect((await api.readColourConfig(join(opened, 'show.ocio')))?.recentColourConfigs).toEqual([
      join(opened, 'show.ocio'),
      join(apart, 'picked.ocio'),
    ]);
    await expect(api.readColourConfig(join(opened, 'a.exr'))).rejects.toThrow(/is not an OCIO config/);
  });

  it('refuses malformed arguments with a message', async () => {
    await expect((api.getHeader as (...a: unknown[]) => Promise<unknown>)(42)).rejects.toThrow(/getHeader: fileId must be a string/);
    await expect((api.openFolder as (...a: unknown[]) => Promise<unknown>)(opened, { recursive: 'yes' })).rejects.toThrow(
      /recursive must be true or false/,
    );
  });
});

describe('senders: only the main window top frame, showing the app page', () => {
  afterAll(() => {
    currentSender = mainFrame;
  });

  it.each([
    ['another window', { ...mainFrame, webContentsId: WINDOW_ID + 1 }],
    ['an iframe of the window', { ...mainFrame, isMainFrame: false }],
    ['the window showing another page', { ...mainFrame, frameUrl: 'https://evil.example/' }],
    ['the window showing a file: page', { ...mainFrame, frameUrl: 'file:///tmp/x.html' }],
    ['a frame that is gone', { ...mainFrame, frameUrl: '' }],
    ['a look-alike app URL', { ...mainFrame, frameUrl: 'app://exrview.evil/index.html' }],
    ['another page of the app origin', { ...mainFrame, frameUrl: 'app://exrview/other.html' }],
  ])('refuses calls from %s', async (_what, sender) => {
    currentSender = sender;
    await expect(api.getInfo()).rejects.toThrow(/did not come from the exrview window/);
    await expect(api.openFolder(opened)).rejects.toThrow(/did not come from the exrview window/);
  });

  it('accepts the top frame of the main window', async () => {
    currentSender = mainFrame;
    expect((await api.getInfo()).mode).toBe('electron');
  });
});

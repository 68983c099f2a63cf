// The main-process side of HostApi over IPC, as plain functions: sender check, argument check, path grants, then the host.

import type { DecodedImage, FolderInfo, HostApi } from '../../contract/host-api.js';
import { plainPlaneData } from '../../host/decode/plane-bytes.js';
import { CALL_METHODS, SIGNAL_METHODS, type CallMethod, type SignalMethod, type TransportMethod } from '../../contract/host-methods.js';
import { PathRefusedError, isInside } from '../../transport/path-guard.js';
import { checkConfigPath } from '../../transport/config-guard.js';
import { validateArgs } from '../../contract/validate-args.js';
import type { FolderGrants } from './folder-grants.js';
import { isAppPage } from './navigation-guard.js';
import { METHOD_CHANNELS } from '../../contract/shell-api.js';

/** What the main process knows about who sent an IPC message (from the event's sender and senderFrame). */
export interface SenderInfo {
  webContentsId: number;
  /** The frame is the top frame of its page (not an iframe). */
  isMainFrame: boolean;
  /** The frame's URL; empty when the frame is gone. */
  frameUrl: string;
}

/** A message refused because it did not come from the app's own page. */
export class SenderRefusedError extends Error {}

/** Trusts only the top frame of the main window, showing the app's own page. */
export function createSenderCheck(
  mainWebContentsId: () => number | null,
  isAppPageUrl: (url: string) => boolean = isAppPage,
): (sender: SenderInfo) => boolean {
  return (sender) => sender.webContentsId === mainWebContentsId() && sender.isMainFrame && isAppPageUrl(sender.frameUrl);
}

export interface IpcHandlerOptions {
  host: HostApi;
  grants: FolderGrants;
  isTrustedSender: (sender: SenderInfo) => boolean;
  /** The native folder picker; null when the user cancels. */
  pickFolder: (purpose: 'open' | 'export') => Promise<string | null>;
  /** The native file picker for an OCIO config; null when the user cancels (absent: no picker). */
  pickConfigFile?: () => Promise<string | null>;
  /** A folder was opened (to remember it in the recent list). */
  onFolderOpened?: (path: string, folder: FolderInfo) => void;
}

export type CallHandler = (sender: SenderInfo, args: unknown) => Promise<unknown>;
export type SignalHandler = (sender: SenderInfo, args: unknown) => void;

export interface IpcHandlers {
  /** ipcMain.handle(channel, …) for each. */
  calls: Map<string, CallHandler>;
  /** ipcMain.on(channel, …) for each: fire-and-forget. */
  signals: Map<string, SignalHandler>;
  /** Opens a folder the shell chose (menu, drop, OS): grants it, opens it in the host, remembers it. */
  openGranted(path: string): Promise<FolderInfo | null>;
}

/** The image with its planes in plain ArrayBuffers (copies of the plane's bytes in shared memory), as IPC can send them. */
function withPlainBuffers(image: DecodedImage): DecodedImage {
  return { ...image, planes: image.planes.map((p) => ({ ...p, data: plainPlaneData(p) })) };
}

export function createIpcHandlers(options: IpcHandlerOptions): IpcHandlers {
  const { host, grants } = options;

  const openGranted = async (path: string): Promise<FolderInfo | null> => {
    const folderPath = await grants.grant(path);
    const folder = await host.openFolder(folderPath);
    if (folder) options.onFolderOpened?.(folderPath, folder);
    return folder;
  };

  /** Runs a checked call: only paths the user granted reach the host. */
  const run: { [M in CallMethod]: (...args: Parameters<HostApi[M]>) => ReturnType<HostApi[M]> } = {
    getInfo: () => host.getInfo(),
    async openFolder(path, openOptions) {
      if (path === undefined) {
        const picked = await options.pickFolder('open');
        if (picked === null) return null;
        await grants.grant(picked);
        path = picked;
      }
      const real = await grants.check(path, 'folder');
      const folder = await host.openFolder(real, openOptions);
      if (folder) options.onFolderOpened?.(real, folder);
      return folder;
    },
    closeFolder: (folderId) => host.closeFolder(folderId),
    listFiles: (folderId) => host.listFiles(folderId),
    listSequences: (folderId) => host.listSequences(folderId),
    getHeader: (fileId) => host.getHeader(fileId),
    // the page takes planes over the pixel route; over IPC they are cloned anyway, and shared memory cannot be
    decodeImage: async (request) => withPlainBuffers(await host.decodeImage(request)),
    getThumbnail: (request) => host.getThumbnail(request),
    deepSamples: (request) => host.deepSamples(request),
    levelStatistics: (request) => host.levelStatistics(request),
    async exportImages(request) {
      let outDir = request.outDir;
      if (outDir === undefined) {
        // the page cannot show a folder picker: the shell asks where to write
        const picked = await options.pickFolder('export');
        if (picked === null)
          return { written: [], skipped: request.fileIds.map((fileId) => ({ fileId, reason: 'export cancelled' })), failed: [] };
        await grants.grant(picked);
        outDir = picked;
      }
      return host.exportImages({ ...request, outDir: await grants.check(outDir, 'export folder') });
    },
    async readColourConfig(path) {
      if (path === undefined) {
        // a file the user picked in the shell's own dialog may be read, wherever it lies
        const picked = (await options.pickConfigFile?.()) ?? null;
        return picked === null ? null : host.readColourConfig(picked);
      }
      // $OCIO and recent configs are the host's own choices; else a config in a folder the user opened
      const inGranted = async (real: string): Promise<boolean> => grants.folders.some((root) => isInside(root, real));
      return host.readColourConfig(await checkConfigPath(path, await host.getInfo(), inGranted));
    },
  };
  const signal: { [M in SignalMethod]: (...args: Parameters<HostApi[M]>) => void } = {
    cancel: (requestId) => host.cancel(requestId),
    setVisible: (fileIds, current) => host.setVisible(fileIds, current),
    setPlayback: (plan) => host.setPlayback(plan),
  };

  const checkSender = (sender: SenderInfo, method: TransportMethod) => {
    if (!options.isTrustedSender(sender))
      throw new SenderRefusedError(`${method}: refused, the message did not come from the exrview window`);
  };

  const calls = new Map<string, CallHandler>();
  for (const method of CALL_METHODS) {
    calls.set(METHOD_CHANNELS[method], async (sender, args) => {
      checkSender(sender, method);
      const checked = validateArgs(method, args) as unknown[];
      return (run[method] as (...a: unknown[]) => Promise<unknown>)(...checked);
    });
  }
  const signals = new Map<string, SignalHandler>();
  for (const method of SIGNAL_METHODS) {
    signals.set(METHOD_CHANNELS[method], (sender, args) => {
      // fire-and-forget: a refused or malformed signal is dropped, there is no one to answer
      if (!options.isTrustedSender(sender)) return;
      try {
        (signal[method] as (...a: unknown[]) => void)(...(validateArgs(method, args) as unknown[]));
      } catch {
        // nothing to report
      }
    });
  }
  return { calls, signals, openGranted };
}

/** Turns what a drop delivered into paths the shell may open: absolute strings only, at most a few. */
export function droppedPaths(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter((p): p is string => typeof p === 'string' && p.length > 0 && p.length < 4096 && !p.includes('\0')).slice(0, 64);
}

export { PathRefusedError };

// HostApi as browser mode may use it: folders only inside the served one, files only those that really lie there, nothing written.

import { realpath } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import type { ExportRequest, FileEntry, FolderInfo, HostApi, HostEvent, HostInfo, PixelLease } from '../contract/host-api.js';
import { PathRefusedError, isInside, resolveInside } from '../transport/path-guard.js';
import { checkConfigPath } from '../transport/config-guard.js';

/**
 * Wraps `host` so that a page can only open the served folder (`rootReal`, a real path) or folders below it, and only
 * reach files that resolve inside it: a symlink in the folder pointing elsewhere is not listed and its id is refused.
 */
export function browserModeHost(host: HostApi & Partial<PixelLease>, rootReal: string): HostApi & Partial<PixelLease> {
  const rootName = basename(rootReal) || rootReal;
  /** folderId → its real path, for folders this wrapper opened or saw inside the root. */
  const folders = new Map<string, string>();
  /** Files that were listed to the page after their real path was checked. */
  const files = new Set<string>();

  // the page sees the folder's name and paths relative to it, never where it lies on this machine
  const shown = (folder: FolderInfo, real: string): FolderInfo => {
    const rel = real
      .slice(rootReal.length)
      .replace(/^[/\\]+/, '')
      .replaceAll('\\', '/');
    return { ...folder, displayPath: rel ? `${rootName}/${rel}` : rootName };
  };
  const folderPath = (folderId: string): string => {
    const real = folders.get(folderId);
    if (real === undefined) throw new PathRefusedError(`unknown folder "${folderId}": open it first`);
    return real;
  };
  const checkFile = (fileId: string): void => {
    if (!files.has(fileId)) throw new PathRefusedError(`unknown file "${fileId}": list its folder first`);
  };
  const admit = async (entries: FileEntry[]): Promise<FileEntry[]> => {
    const checked = await Promise.all(
      entries.map(async (entry) => {
        const base = folders.get(entry.folderId);
        if (base === undefined || entry.relativePath.includes('\0')) return null;
        try {
          const real = await realpath(join(base, entry.relativePath));
          return isInside(rootReal, real) ? entry : null;
        } catch {
          // gone already, or a dangling link: a later event will say so
          return null;
        }
      }),
    );
    const admitted = checked.filter((e): e is FileEntry => e !== null);
    for (const entry of admitted) files.add(entry.id);
    return admitted;
  };

  /**
   * A typed folder: relative to the served folder, absolute inside it, or as the page shows folders ("served/sub", what
   * the Folder field holds). Refused with what to do: only the served folder and those below it can be opened here.
   */
  const resolveTyped = async (path: string): Promise<string> => {
    const shownForm = path === rootName || path.startsWith(`${rootName}/`) ? path.slice(rootName.length).replace(/^\/+/, '') || '.' : null;
    try {
      return await resolveInside(rootReal, path, 'folder');
    } catch (e) {
      if (!(e instanceof PathRefusedError)) throw e;
      if (shownForm !== null) {
        try {
          return await resolveInside(rootReal, shownForm, 'folder');
        } catch {
          /* the first reason is the one to give */
        }
      }
      throw new PathRefusedError(
        `${e.message}. This page opens only "${rootName}" and the folders in it (type one as "${rootName}/NAME"); ` +
          'for another folder, stop this server and run exrview serve with that folder, or with a folder that holds both',
      );
    }
  };

  return {
    async getInfo(): Promise<HostInfo> {
      const info = await host.getInfo();
      const visible: FolderInfo[] = [];
      for (const folder of info.folders) {
        const known = folders.get(folder.id);
        const real = known ?? (isAbsolute(folder.displayPath) && isInside(rootReal, folder.displayPath) ? folder.displayPath : undefined);
        if (real === undefined) continue;
        folders.set(folder.id, real);
        visible.push(shown(folder, real));
      }
      return { ...info, mode: 'browser', folders: visible };
    },
    async openFolder(path, options) {
      // no folder picker in a browser: no path means the served folder itself
      const real = path === undefined ? rootReal : await resolveTyped(path);
      const folder = await host.openFolder(real, options);
      if (!folder) return null;
      folders.set(folder.id, real);
      return shown(folder, real);
    },
    async closeFolder(folderId) {
      folderPath(folderId);
      await host.closeFolder(folderId);
      folders.delete(folderId);
    },
    async listFiles(folderId) {
      folderPath(folderId);
      return admit(await host.listFiles(folderId));
    },
    async listSequences(folderId) {
      folderPath(folderId);
      // only frames the page was shown after their real path was checked (listFiles first)
      const sequences = await host.listSequences(folderId);
      return sequences.map((q) => ({ ...q, frames: q.frames.filter((f) => files.has(f.fileId)) })).filter((q) => q.frames.length > 0);
    },
    getHeader: async (fileId) => (checkFile(fileId), host.getHeader(fileId)),
    decodeImage: async (request) => (checkFile(request.fileId), host.decodeImage(request)),
    ...(host.decodeImageLease ? { decodeImageLease: async (request) => (checkFile(request.fileId), host.decodeImageLease!(request)) } : {}),
    getThumbnail: async (request) => (checkFile(request.fileId), host.getThumbnail(request)),
    deepSamples: async (request) => (checkFile(request.fileId), host.deepSamples(request)),
    levelStatistics: async (request) => (checkFile(request.fileId), host.levelStatistics(request)),
    cancel: (requestId) => host.cancel(requestId),
    setPlayback: (plan) => host.setPlayback(plan && { ...plan, fileIds: plan.fileIds.filter((id) => files.has(id)) }),
    setVisible: (fileIds, currentFileId) =>
      host.setVisible(
        fileIds.filter((id) => files.has(id)),
        currentFileId !== null && files.has(currentFileId) ? currentFileId : null,
      ),
    async exportImages(request: ExportRequest) {
      // read-only to the served folder: exports come back as downloads, never as files written here
      if (request.outDir !== undefined) {
        throw new PathRefusedError('browser mode does not write files: leave out outDir and the exported files are downloaded');
      }
      request.fileIds.forEach(checkFile);
      return host.exportImages(request);
    },
    async readColourConfig(path) {
      // no file picker in a browser: the page reads a picked config itself
      if (path === undefined)
        throw new PathRefusedError('browser mode has no file picker here: pick the config with its LUT files in the page (OCIO…)');
      // $OCIO and recent configs are the host's own choices; else a config in the served folder
      const allowed = await checkConfigPath(path, await host.getInfo(), async (real) => isInside(rootReal, real));
      return host.readColourConfig(allowed);
    },
    onEvent(listener) {
      // checks are asynchronous; a chain keeps events in the order the host sent them
      let chain = Promise.resolve();
      return host.onEvent((event) => {
        chain = chain
          .then(() => filterEvent(event))
          .then((filtered) => void (filtered && listener(filtered)))
          .catch(() => undefined);
      });
    },
  };

  /** Events about files go through the same check as listings; events for folders the page never saw are dropped. */
  async function filterEvent(event: HostEvent): Promise<HostEvent | null> {
    switch (event.type) {
      case 'files-added':
      case 'files-changed': {
        if (!folders.has(event.folderId)) return null;
        const admitted = await admit(event.files);
        return admitted.length ? { ...event, files: admitted } : null;
      }
      case 'files-removed':
        if (!folders.has(event.folderId)) return null;
        for (const id of event.fileIds) files.delete(id);
        return event;
      case 'folder-error':
      case 'sequences-changed':
        return folders.has(event.folderId) ? event : null;
      default:
        return event;
    }
  }
}

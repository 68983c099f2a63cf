// For the transport tests only: a small real HostApi over a folder (real files, real bytes), until the tests can use createHost.
// Its "pixels" are the file's own bytes, so a test can tell exactly which file's data reached the client.

import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import {
  CANCELLED_MESSAGE,
  type FileEntry,
  type FolderInfo,
  type HostApi,
  type HostEvent,
  type StageTimingsMs,
} from '../../contract/host-api.js';

export interface TestHost extends HostApi {
  emit(event: HostEvent): void;
  /** Request ids that were cancelled, in order. */
  readonly cancelled: string[];
  /** Calls received, by method name. */
  readonly calls: string[];
}

const TIMINGS: StageTimingsMs = { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, hostMs: 0, bytesRead: 0 };

/** `decodeDelayMs`: how long decodeImage takes, so cancellation can be observed. */
export function createTestHost(options: { decodeDelayMs?: number } = {}): TestHost {
  const folders = new Map<string, { info: FolderInfo; root: string }>();
  const files = new Map<string, string>();
  const listeners = new Set<(event: HostEvent) => void>();
  const pending = new Map<string, (error: Error) => void>();
  const cancelled: string[] = [];
  const calls: string[] = [];

  const bytesOf = async (fileId: string): Promise<Buffer> => {
    const path = files.get(fileId);
    if (path === undefined) throw new Error(`unknown file ${fileId}`);
    return readFile(path);
  };
  const toArrayBuffer = (b: Buffer): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

  return {
    cancelled,
    calls,
    emit: (event) => listeners.forEach((l) => l(event)),
    async getInfo() {
      calls.push('getInfo');
      return {
        mode: 'electron',
        version: '0.0.0-test',
        platform: process.platform,
        folders: [...folders.values()].map((f) => f.info),
        decodeWorkers: 1,
        ramCacheBudgetBytes: 1 << 20,
      };
    },
    async openFolder(path) {
      calls.push('openFolder');
      if (path === undefined) return null;
      const info: FolderInfo = { id: `folder-${folders.size + 1}`, displayPath: path, recursive: true };
      folders.set(info.id, { info, root: path });
      return info;
    },
    async closeFolder(folderId) {
      calls.push('closeFolder');
      folders.delete(folderId);
    },
    async listFiles(folderId) {
      calls.push('listFiles');
      const folder = folders.get(folderId);
      if (!folder) throw new Error(`unknown folder ${folderId}`);
      const names = (await readdir(folder.root, { recursive: true })).filter((n) => n.endsWith('.exr'));
      const entries: FileEntry[] = [];
      for (const name of names) {
        const abs = join(folder.root, name);
        // like a careless host: follows symlinks wherever they go (the transport must not rely on the host here)
        const info = await stat(abs);
        const id = `file:${relative(folder.root, abs).split(sep).join('/')}`;
        files.set(id, abs);
        entries.push({
          id,
          folderId,
          relativePath: relative(folder.root, abs).split(sep).join('/'),
          name,
          sizeBytes: info.size,
          mtimeMs: info.mtimeMs,
          status: 'ok',
        });
      }
      return entries;
    },
    async listSequences(folderId) {
      calls.push('listSequences');
      if (!folders.has(folderId)) throw new Error(`unknown folder ${folderId}`);
      return [];
    },
    async getHeader(fileId) {
      calls.push('getHeader');
      await bytesOf(fileId);
      return { fileId, version: 2, multipart: false, parts: [] };
    },
    async decodeImage(request) {
      calls.push('decodeImage');
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, options.decodeDelayMs ?? 0);
        pending.set(request.requestId, (error) => {
          clearTimeout(timer);
          reject(error);
        });
      }).finally(() => pending.delete(request.requestId));
      const bytes = await bytesOf(request.fileId);
      return {
        fileId: request.fileId,
        part: request.part,
        lx: 0,
        ly: 0,
        dataWindow: [0, 0, bytes.length - 1, 0],
        displayWindow: [0, 0, bytes.length - 1, 0],
        widthPx: bytes.length,
        heightPx: 1,
        source: 'decode',
        timings: TIMINGS,
        planes: [
          {
            name: 'Y',
            pixelType: 'half',
            xSampling: 1,
            ySampling: 1,
            widthSamples: bytes.length,
            heightSamples: 1,
            data: toArrayBuffer(bytes),
          },
        ],
      };
    },
    async getThumbnail(request) {
      calls.push('getThumbnail');
      const bytes = await bytesOf(request.fileId);
      return { fileId: request.fileId, widthPx: 1, heightPx: 1, rgbaHalf: toArrayBuffer(bytes), source: 'full-decode', timings: TIMINGS };
    },
    async deepSamples(request) {
      calls.push('deepSamples');
      // the file's own bytes as one pixel's one channel: a test can tell which file's data reached the client
      const bytes = await bytesOf(request.fileId);
      const empty = new ArrayBuffer(4);
      return {
        fileId: request.fileId,
        part: request.part,
        region: [0, 0, 0, 0],
        widthPx: 1,
        heightPx: 1,
        sampleCounts: new Uint32Array([0]).buffer,
        channels: [{ name: 'bytes', pixelType: 'uint', data: toArrayBuffer(bytes) }],
        fileIndex: empty,
        depthIndex: empty,
        depthExtent: null,
      };
    },
    async levelStatistics(request) {
      calls.push('levelStatistics');
      // the file's byte count as the one figure: a test can tell which file's data reached the client
      const bytes = await bytesOf(request.fileId);
      return {
        fileId: request.fileId,
        part: request.part,
        region: [0, 0, 0, 0],
        channels: request.channels.map((name) => ({ name, n: bytes.length, mean: 0, m2: 0, min: 0, max: 0, nan: 0, inf: 0 })),
        missingPx: 0,
        timings: { wallMs: 0, decodeMs: 0, statsMs: 0, chunks: 0, tasks: 0 },
      };
    },
    cancel(requestId) {
      calls.push('cancel');
      cancelled.push(requestId);
      pending.get(requestId)?.(new Error(`${CANCELLED_MESSAGE}: ${requestId}`));
    },
    setVisible() {
      calls.push('setVisible');
    },
    setPlayback() {
      calls.push('setPlayback');
    },
    async exportImages(request) {
      calls.push('exportImages');
      const downloads = await Promise.all(
        request.fileIds.map(async (fileId) => ({
          fileId,
          name: `${fileId}.png`,
          mimeType: 'image/png',
          data: toArrayBuffer(await bytesOf(fileId)),
        })),
      );
      return { written: [], downloads, skipped: [], failed: [] };
    },
    async readColourConfig(path) {
      calls.push('readColourConfig');
      if (path === undefined) return null;
      const text = await readFile(path, 'utf8');
      const name = path.split('/').pop()!;
      return { source: path, configPath: name, files: [{ path: name, text }], env: {}, missing: [], recentColourConfigs: [path] };
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

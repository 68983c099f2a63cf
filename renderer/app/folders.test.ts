// Listing a folder into the store: files a progressive open announced while the listing was on its way are kept.
import { describe, expect, it } from 'vitest';
import type { FileEntry, HostApi } from '../host-client/api-types.js';
import { createAppStore, storeActions } from '../state/store.js';
import { Folders } from './folders.js';

const entry = (folderId: string, name: string): FileEntry => ({
  id: `${folderId}:${name}`,
  folderId,
  relativePath: name,
  name,
  sizeBytes: 1,
  mtimeMs: 1,
  status: 'ok',
});

describe('Folders.load', () => {
  it('keeps the files of the folder that events brought in before its listing replied, and drops another folder’s', async () => {
    const store = createAppStore();
    const actions = storeActions(store);
    actions.setFiles('old', [entry('old', 'x.exr')]);
    let reply!: (files: FileEntry[]) => void;
    const api = {
      listFiles: () => new Promise<FileEntry[]>((resolve) => (reply = resolve)),
      listSequences: async () => [],
    } as unknown as HostApi;
    const loading = new Folders(api, store, actions).load('d1');
    // the listing was made on the host; a 'files-added' event of a later batch overtakes its reply
    actions.upsertFiles([entry('d1', 'c.exr')]);
    reply([entry('d1', 'a.exr'), entry('d1', 'b.exr')]);
    await loading;
    const s = store.getState().library;
    expect(s.folderId).toBe('d1');
    expect(s.files.map((f) => f.name).sort()).toEqual(['a.exr', 'b.exr', 'c.exr']);
  });

  it('keeps the entry an event brought for a listed file that changed while the listing was on its way', async () => {
    const store = createAppStore();
    const actions = storeActions(store);
    let reply!: (files: FileEntry[]) => void;
    const api = {
      listFiles: () => new Promise<FileEntry[]>((resolve) => (reply = resolve)),
      listSequences: async () => [],
    } as unknown as HostApi;
    const loading = new Folders(api, store, actions).load('d1');
    // listed while still being written; it stopped, cut short, and its 'files-changed' event came before the reply
    const rendering: FileEntry = { ...entry('d1', 'cut.exr'), status: 'incomplete', rendering: { chunksPresent: 6, chunksTotal: 13 } };
    const settled: FileEntry = { ...entry('d1', 'cut.exr'), status: 'error', error: 'the file is incomplete' };
    actions.upsertFiles([settled]);
    reply([entry('d1', 'a.exr'), rendering]);
    await loading;
    const files = store.getState().library.files;
    expect(files.map((f) => f.name).sort()).toEqual(['a.exr', 'cut.exr']);
    expect(files.find((f) => f.name === 'cut.exr')).toEqual(settled);
  });
});

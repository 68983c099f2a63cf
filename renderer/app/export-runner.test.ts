// Running an export against a host: downloads offered in browser mode, confirmed overwrite into the same folder, failures shown.
import { describe, expect, it } from 'vitest';
import type { ExportRequest, ExportResult, FileEntry, HostApi } from '../host-client/api-types.js';
import { BufferPool } from '../host-client/buffer-pool.js';
import type { RendererHost } from '../host-client/index.js';
import { createAppStore, storeActions } from '../state/store.js';
import type { DownloadSink } from './downloads.js';
import { runExport } from './export-runner.js';

const file = (id: string, name: string): FileEntry => ({
  id,
  folderId: 'f',
  relativePath: name,
  name,
  sizeBytes: 1,
  mtimeMs: 0,
  status: 'ok',
});

function setup(answer: (r: ExportRequest) => Promise<ExportResult>) {
  const requests: ExportRequest[] = [];
  const api = {
    exportImages: (r: ExportRequest) => {
      requests.push(r);
      return answer(r);
    },
  } as unknown as HostApi;
  const host: RendererHost = { api, transport: 'http', transfers: [], pool: new BufferPool(0) };
  const store = createAppStore();
  const actions = storeActions(store);
  actions.setFiles('f', [file('1', 'a.exr'), file('2', 'b.exr'), file('3', 'c.exr')]);
  const clicked: string[] = [];
  const sink: DownloadSink = {
    createUrl: () => 'blob:x',
    clickLink: (_u, name) => clicked.push(name),
    revokeUrl: () => {},
    pause: () => Promise.resolve(),
  };
  return {
    requests,
    store,
    actions,
    clicked,
    run: (o?: Parameters<typeof runExport>[4]) => runExport(host, store, actions, () => sink, o),
  };
}

describe('runExport', () => {
  it('exports the selection and offers the downloads', async () => {
    const { requests, store, actions, clicked, run } = setup(async (r) => ({
      written: [],
      skipped: [],
      failed: [],
      downloads: r.fileIds.map((id) => ({ fileId: id, name: `${id}.png`, mimeType: 'image/png', data: new ArrayBuffer(4) })),
    }));
    actions.select({ ids: ['3', '1'], anchor: '1', focus: '1' });
    actions.setExposure(2);
    const outcome = await run();
    expect(requests[0]).toMatchObject({ fileIds: ['1', '3'], format: 'png', overwrite: false, view: { exposureEv: 2 } });
    expect(clicked).toEqual(['1.png', '3.png']);
    expect(outcome.summary).toBe('Exported 2 of 2: 2 downloaded.');
    expect(store.getState().export).toMatchObject({ running: false, open: true, outcome });
    expect(store.getState().ui.status).toBe(outcome.summary);
  });

  it('never overwrites unasked: the confirmed retry sends overwrite for the skipped files, into their folder', async () => {
    const { requests, actions, run } = setup(async (r) =>
      r.overwrite
        ? { written: r.fileIds.map((id) => ({ fileId: id, path: `${r.outDir}/${id}.png`, bytes: 9 })), skipped: [], failed: [] }
        : {
            written: [{ fileId: '1', path: '/picked/1.png', bytes: 9 }],
            skipped: [{ fileId: '2', reason: '/picked/2.png already exists: export again with overwrite on, or pick another folder' }],
            failed: [],
          },
    );
    actions.select({ ids: ['1', '2'], anchor: '1', focus: '1' });
    const first = await run();
    expect(requests[0]!.overwrite).toBe(false);
    expect(requests[0]!.outDir).toBeUndefined();
    expect(first.existing).toEqual({ fileIds: ['2'], outDir: '/picked' });
    await run({ fileIds: first.existing.fileIds, overwrite: true, outDir: first.existing.outDir });
    expect(requests[1]).toMatchObject({ fileIds: ['2'], overwrite: true, outDir: '/picked' });
  });

  it('says what to do when nothing is selected or the host refuses', async () => {
    const { requests, actions, run } = setup(async () => {
      throw new Error('export folder /gone does not exist: pick an existing folder');
    });
    const none = await run();
    expect(none.error).toMatch(/^Nothing to export: select images in the grid/);
    expect(requests).toHaveLength(0);
    actions.selectFile('2');
    const failed = await run();
    expect(failed.error).toBe('Export of 1 image failed, nothing was written: export folder /gone does not exist: pick an existing folder');
  });
});

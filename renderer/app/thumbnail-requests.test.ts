// The grid's thumbnail requests: an embedded preview shows first and never replaces the thumbnail, which is always asked for.
import { describe, expect, it } from 'vitest';
import type { FileEntry, HostApi, PartSummary, Thumbnail, ThumbnailMissing } from '../host-client/api-types.js';
import { ThumbnailRequests, type ThumbnailSink } from './thumbnail-requests.js';

type ThumbRequest = Parameters<HostApi['getThumbnail']>[0];

function file(id: string, hasPreview: boolean): FileEntry {
  const part = { index: 0, hasPreview } as PartSummary;
  return {
    id,
    folderId: 'f',
    relativePath: `${id}.exr`,
    name: `${id}.exr`,
    sizeBytes: 1,
    mtimeMs: 0,
    status: 'ok',
    summary: { widthPx: 8, heightPx: 8, multipart: false, views: [], parts: [part] },
  };
}

const thumb = (fileId: string, source: Thumbnail['source']): Thumbnail => ({
  fileId,
  widthPx: 1,
  heightPx: 1,
  rgbaHalf: new ArrayBuffer(8),
  source,
  timings: { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, bytesRead: 0, hostMs: 0 },
});

/** A host whose answers the test releases one by one, and an engine that records what it was given. */
function setup(files: FileEntry[]) {
  const pending: { request: ThumbRequest; answer: (t: Thumbnail | Error) => void }[] = [];
  const api = {
    getThumbnail: (request: ThumbRequest) =>
      new Promise<Thumbnail>((resolve, reject) => pending.push({ request, answer: (t) => (t instanceof Error ? reject(t) : resolve(t)) })),
  } as unknown as HostApi;
  const shown = new Map<string, Thumbnail['source']>();
  const engine: ThumbnailSink = { putThumbnail: (id, t) => void shown.set(id, t.source), hasThumbnail: (id) => shown.has(id) };
  const damaged = new Map<string, ThumbnailMissing>();
  const failed = new Map<string, string>();
  const requests = new ThumbnailRequests(
    api,
    () => engine,
    128,
    () => {},
    (id, reason) => void failed.set(id, reason),
    (id, missing) => void damaged.set(id, missing),
  );
  const byId = new Map(files.map((f) => [f.id, f]));
  const grid = { requestThumbnails: (ids: string[]) => requests.request(ids.map((id) => byId.get(id)!)), requests };
  /** The kind and file of a request ('t-a', 'tp-a'), its number left off. */
  const kindOf = (requestId: string) => requestId.replace(/-\d+$/, '');
  const answer = async (requestId: string, t: Thumbnail | Error) => {
    const i = pending.findIndex((p) => kindOf(p.request.requestId) === requestId);
    pending.splice(i, 1)[0]!.answer(t);
    await new Promise((r) => setTimeout(r, 0));
  };
  return { grid, pending, shown, answer, kindOf, damaged, failed };
}

describe('ThumbnailRequests', () => {
  it('asks for the embedded preview too when the file has one, shows it, then the thumbnail in its place', async () => {
    const { grid, pending, shown, answer, kindOf } = setup([file('a', true), file('b', false)]);
    grid.requestThumbnails(['a', 'b']);
    expect(pending.map((p) => [kindOf(p.request.requestId), p.request.embeddedPreview ?? false])).toEqual([
      ['tp-a', true],
      ['t-a', false],
      ['t-b', false],
    ]);
    await answer('tp-a', thumb('a', 'embedded-preview'));
    expect(shown.get('a')).toBe('embedded-preview');
    // a later visibility change does not ask again while the thumbnail is on its way
    grid.requestThumbnails(['a', 'b']);
    expect(pending.length).toBe(2);
    await answer('t-a', thumb('a', 'full-decode'));
    expect(shown.get('a')).toBe('full-decode');
    expect(grid.requests.shown).toBe(1);
    grid.requestThumbnails(['a']);
    expect(pending.length).toBe(1);
  });

  it('asks again for a file that changed on disk, its old thumbnail shown until the new one comes', async () => {
    const { grid, pending, shown, answer, kindOf } = setup([file('b', false)]);
    grid.requestThumbnails(['b']);
    await answer('t-b', thumb('b', 'full-decode'));
    grid.requestThumbnails(['b']);
    expect(pending.length).toBe(0);
    grid.requests.forget('b');
    grid.requestThumbnails(['b']);
    expect(pending.map((p) => kindOf(p.request.requestId))).toEqual(['t-b']);
    expect(shown.get('b')).toBe('full-decode');
    await answer('t-b', thumb('b', 'mip-level'));
    expect(shown.get('b')).toBe('mip-level');
    grid.requestThumbnails(['b']);
    expect(pending.length).toBe(0);
  });

  it('never lets a late preview replace the thumbnail', async () => {
    const { grid, shown, answer } = setup([file('a', true)]);
    grid.requestThumbnails(['a']);
    await answer('t-a', thumb('a', 'full-decode'));
    await answer('tp-a', thumb('a', 'embedded-preview'));
    expect(shown.get('a')).toBe('full-decode');
  });

  it('asks for the thumbnail again when it failed while the preview was shown', async () => {
    const { grid, pending, answer, kindOf } = setup([file('a', true)]);
    grid.requestThumbnails(['a']);
    await answer('tp-a', thumb('a', 'embedded-preview'));
    await answer('t-a', new Error('cancelled'));
    grid.requestThumbnails(['a']);
    expect(pending.map((p) => kindOf(p.request.requestId))).toEqual(['t-a']);
  });
  it('asks for the thumbnail of a file still being written (its chunks so far), not of one whose header is not whole yet', async () => {
    const rendering: FileEntry = { ...file('r', false), status: 'incomplete', rendering: { chunksPresent: 3, chunksTotal: 9 } };
    const headerOnly: FileEntry = { ...file('h', false), status: 'incomplete' };
    delete headerOnly.summary;
    const { grid, pending, shown, answer, kindOf } = setup([rendering, headerOnly]);
    grid.requestThumbnails(['r', 'h']);
    expect(pending.map((p) => kindOf(p.request.requestId))).toEqual(['t-r']);
    await answer('t-r', thumb('r', 'full-decode'));
    expect(shown.get('r')).toBe('full-decode');
    // more chunks landed: asked again, the thumbnail held standing in meanwhile
    grid.requests.forget('r');
    grid.requestThumbnails(['r']);
    expect(pending.map((p) => kindOf(p.request.requestId))).toEqual(['t-r']);
  });

  it('a file that changed while its thumbnail was on its way: asked again under a new id, the late answer only a stand-in', async () => {
    const rendering: FileEntry = { ...file('c', false), status: 'incomplete', rendering: { chunksPresent: 6, chunksTotal: 13 } };
    const { grid, pending, shown, damaged, failed } = setup([rendering]);
    grid.requestThumbnails(['c']);
    const first = pending[0]!.request.requestId;
    // it stopped changing, cut short: an error entry whose header reads, asked for again while the first is out
    grid.requests.forget('c');
    const cut: FileEntry = { ...file('c', false), status: 'error', error: 'the file is incomplete' };
    grid.requests.request([cut]);
    expect(pending.length).toBe(2);
    const second = pending[1]!.request.requestId;
    expect(second).not.toBe(first);
    // the first answers late: shown meanwhile, not taken for the new version's thumbnail
    pending.shift()!.answer(thumb('c', 'full-decode'));
    await new Promise((r) => setTimeout(r, 0));
    expect(shown.get('c')).toBe('full-decode');
    expect(damaged.size).toBe(0);
    // still on its way: not asked a third time
    grid.requests.request([cut]);
    expect(pending.length).toBe(1);
    const missing: ThumbnailMissing = { chunksRead: 6, chunksTotal: 13, reason: 'the file ends early' };
    pending.shift()!.answer({ ...thumb('c', 'mip-level'), missing });
    await new Promise((r) => setTimeout(r, 0));
    expect(shown.get('c')).toBe('mip-level');
    expect(damaged.get('c')).toBe(missing);
    expect(failed.size).toBe(0);
    grid.requests.request([cut]);
    expect(pending.length).toBe(0);
  });

  it('a late failure of a request asked before the file changed is not the new version failing', async () => {
    const { grid, pending, failed } = setup([file('d', false)]);
    grid.requestThumbnails(['d']);
    grid.requests.forget('d');
    grid.requestThumbnails(['d']);
    pending.shift()!.answer(new Error('cannot read the file'));
    await new Promise((r) => setTimeout(r, 0));
    expect(failed.size).toBe(0);
    grid.requestThumbnails(['d']);
    expect(pending.length).toBe(1);
  });
});

// Export from the viewer: the targets, the request through the current view, and the user's reading of a result.
import { describe, expect, it } from 'vitest';
import type { FileEntry, PartSummary } from '../host-client/api-types.js';
import { createAppStore, storeActions } from '../state/store.js';
import { buildExportRequest, describeExport, existingPathOf, exportTargets, exportView, folderOf } from './export-request.js';

const part = (layers: string[][], type: PartSummary['type'] = 'scanlineimage'): PartSummary => ({
  index: 0,
  name: '',
  type,
  view: null,
  compression: 'zip',
  dataWindow: [0, 0, 9, 9],
  displayWindow: [0, 0, 9, 9],
  channels: [],
  layers: layers.map(([name, ...channels]) => ({ name: name!, view: null, channels })),
  tiled: false,
  levelMode: null,
  levelCount: 1,
  hasPreview: false,
});
const file = (id: string, name: string, parts: PartSummary[] = [part([['', 'R', 'G', 'B']])]): FileEntry => ({
  id,
  folderId: 'f',
  relativePath: name,
  name,
  sizeBytes: 1,
  mtimeMs: 0,
  status: 'ok',
  summary: { widthPx: 10, heightPx: 10, multipart: parts.length > 1, views: [], parts },
});

function setup() {
  const store = createAppStore();
  const a = storeActions(store);
  a.setFiles('f', [
    file('1', 'c.exr'),
    file('2', 'a.exr'),
    file('3', 'b.exr', [part([['diffuse', 'diffuse.R', 'diffuse.G', 'diffuse.B']])]),
  ]);
  return { store, a };
}

describe('export targets', () => {
  it('are the selection in grid order, else the image on screen, else nothing', () => {
    const { store, a } = setup();
    expect(exportTargets(store.getState())).toEqual([]);
    a.selectFile('1');
    expect(exportTargets(store.getState()).map((f) => f.name)).toEqual(['c.exr']);
    a.select({ ids: ['1', '2'], anchor: '2', focus: '2' });
    expect(exportTargets(store.getState()).map((f) => f.name)).toEqual(['a.exr', 'c.exr']);
    a.select({ ids: [], anchor: null, focus: '3' });
    expect(exportTargets(store.getState()).map((f) => f.id)).toEqual(['3']);
  });
});

describe('buildExportRequest', () => {
  it('carries the current view: exposure, offset, gamma, transform, the layer on screen and the channel', () => {
    const { store, a } = setup();
    a.selectFile('3');
    a.setDisplay({ exposureEv: 1.5, offset: 0.01, gamma: 2.2, transform: 'aces' });
    a.setChannel('g');
    const r = buildExportRequest(store.getState(), ['3']);
    // '' picks the part's first layer on screen, so the export names it
    expect(r).toEqual({
      fileIds: ['3'],
      kind: 'image',
      format: 'png',
      overwrite: false,
      part: 0,
      view: { exposureEv: 1.5, offset: 0.01, gamma: 2.2, displayTransform: 'aces', layer: 'diffuse', channelMode: 'g' },
    });
    expect(r.outDir).toBeUndefined();
  });

  it('thumbnails carry their size; several files leave the part to the host; overwrite and folder only when asked', () => {
    const { store, a } = setup();
    a.selectFile('1');
    a.setExport({ kind: 'thumbnail', format: 'jpg', longSidePx: 320 });
    const r = buildExportRequest(store.getState(), ['1', '2'], { overwrite: true, outDir: '/out' });
    expect(r).toMatchObject({ kind: 'thumbnail', format: 'jpg', longSidePx: 320, overwrite: true, outDir: '/out' });
    expect('part' in r).toBe(false);
    a.setExport({ kind: 'image' });
    expect('part' in buildExportRequest(store.getState(), ['1', '2'])).toBe(false);
  });

  it("a deep part's sample-count view and screen overlays export as colour, and say so", () => {
    const { store, a } = setup();
    a.selectFile('1');
    a.setChannel('samples');
    a.setDisplay({ falseColour: true });
    const { view, notes } = exportView(store.getState());
    expect(view.channelMode).toBe('rgb');
    expect(notes).toHaveLength(2);
    expect(notes.join(' ')).toMatch(/sample-count view is not exported.*Pick RGB/);
  });
});

describe('describeExport', () => {
  const names = new Map([
    ['1', 'c.exr'],
    ['2', 'a.exr'],
    ['3', 'b.exr'],
  ]);

  it('lists downloads, writes, existing files (to confirm) and failures with what to do', () => {
    const o = describeExport(
      {
        written: [{ fileId: '1', path: '/out/c.png', bytes: 2048 }],
        skipped: [{ fileId: '2', reason: '/out/a.png already exists: export again with overwrite on, or pick another folder' }],
        failed: [{ fileId: '3', reason: 'b.exr part 0 has no layer "diffuse" (it has (base))' }],
      },
      names,
    );
    expect(o.summary).toBe('Exported 1 of 3: 1 written, 1 not overwritten, 1 failed.');
    expect(o.existing).toEqual({ fileIds: ['2'], outDir: '/out' });
    expect(o.lines.map((l) => [l.name, l.status])).toEqual([
      ['c.exr', 'written'],
      ['a.exr', 'skipped'],
      ['b.exr', 'failed'],
    ]);
    expect(o.lines[0]!.text).toBe('written to /out/c.png (2.0 kB)');
    expect(o.lines[1]!.text).toMatch(/already exists\. Confirm "Overwrite"/);
    expect(o.lines[2]!.text).toMatch(/Pick the \(base\) layer/);
  });

  it('a damaged deep file written from the chunks that could be read: its line and the summary say so', () => {
    const damage = 'written with damage: 10 of 40 chunks could not be read and are black in it (part 0, chunk 30: …)';
    const o = describeExport(
      {
        written: [
          { fileId: '1', path: '/out/c.png', bytes: 2048, damage },
          { fileId: '2', path: '/out/a.png', bytes: 1024 },
        ],
        skipped: [],
        failed: [],
      },
      names,
    );
    expect(o.summary).toBe('Exported 2 of 2: 2 written, 1 with damage.');
    expect(o.lines.map((l) => l.text)).toEqual([`written to /out/c.png (2.0 kB); ${damage}`, 'written to /out/a.png (1.0 kB)']);
  });

  it('browser downloads and a cancelled folder pick', () => {
    const d = describeExport(
      {
        written: [],
        downloads: [{ fileId: '2', name: 'a.png', mimeType: 'image/png', data: new ArrayBuffer(10) }],
        skipped: [],
        failed: [],
      },
      names,
    );
    expect(d.summary).toBe('Exported 1 of 1: 1 downloaded.');
    expect(d.lines[0]!.text).toBe('saved as the download a.png (10 B)');
    const c = describeExport(
      {
        written: [],
        skipped: [
          { fileId: '1', reason: 'export cancelled' },
          { fileId: '2', reason: 'export cancelled' },
        ],
        failed: [],
      },
      names,
    );
    expect(c.summary).toMatch(/^Export cancelled: no folder was chosen\. Press Export again/);
    expect(c.lines).toEqual([]);
    expect(c.existing.fileIds).toEqual([]);
  });

  it('finds the existing path and its folder on either platform', () => {
    expect(existingPathOf('C:\\out\\x.png already exists: export again')).toBe('C:\\out\\x.png');
    expect(existingPathOf('disk full')).toBeNull();
    expect(folderOf('C:\\out\\x.png')).toBe('C:\\out');
    expect(folderOf('/out/x.png')).toBe('/out');
    expect(folderOf('/x.png')).toBe('/');
  });
});

import { describe, expect, it } from 'vitest';
import type { FileEntry, SequenceInfo } from '../host-client/api-types.js';
import { gridItems, sequenceOf } from './grid-items.js';
import { initialState, type LibrarySlice } from './store.js';

const file = (name: string, status: FileEntry['status'] = 'ok'): FileEntry => ({
  id: `id:${name}`,
  folderId: 'f',
  relativePath: name,
  name,
  sizeBytes: 1,
  mtimeMs: 0,
  status,
});

function sequence(name: string, frames: number[], damaged: number[] = []): { q: SequenceInfo; files: FileEntry[] } {
  const files = frames.map((f) => file(`${name}.${f}.exr`, damaged.includes(f) ? 'error' : 'ok'));
  const q: SequenceInfo = {
    id: `q:${name}`,
    folderId: 'f',
    relativePattern: `${name}.####.exr`,
    name: `${name}.####.exr`,
    padding: 4,
    firstFrame: frames[0]!,
    lastFrame: frames[frames.length - 1]!,
    step: 1,
    frames: frames.map((f, i) => ({ frame: f, fileId: files[i]!.id, status: files[i]!.status })),
    missingFrames: [],
    damagedFrames: damaged,
    framesPerSecond: null,
    widthPx: 16,
    heightPx: 16,
    sizeBytes: 1,
    mtimeMs: 0,
  };
  return { q, files };
}

const lib = (files: FileEntry[], sequences: SequenceInfo[], over: Partial<LibrarySlice> = {}): LibrarySlice => ({
  ...initialState().library,
  files,
  sequences,
  ...over,
});

describe('grid items', () => {
  it('shows one item per sequence, where its first file sorts, with its range and a filmstrip of first, middle and last frames', () => {
    const beauty = sequence('beauty', [1001, 1002, 1003, 1004, 1005]);
    const items = gridItems(lib([file('a.exr'), ...beauty.files, file('z.exr')], [beauty.q]));
    expect(items.map((i) => i.label)).toEqual(['a.exr', 'beauty.####.exr 1001-1005', 'z.exr']);
    expect(items[1]!.strip).toEqual(['id:beauty.1001.exr', 'id:beauty.1003.exr', 'id:beauty.1005.exr']);
    expect(items[1]!.id).toBe('id:beauty.1001.exr');
    expect(items[0]!.strip).toEqual(['id:a.exr']);
  });

  it('opens a sequence on its first readable frame and leaves damaged frames out of the filmstrip', () => {
    const q = sequence('shot', [1, 2, 3, 4], [1]);
    const [item] = gridItems(lib(q.files, [q.q]));
    expect(item!.id).toBe('id:shot.2.exr');
    expect(item!.strip).toEqual(['id:shot.2.exr', 'id:shot.3.exr', 'id:shot.4.exr']);
    expect(item!.title).toContain('damaged: 1');
  });

  it("filters a sequence by its frames' names, and finds the sequence of any of its frames", () => {
    const a = sequence('beauty', [1, 2, 3]);
    const b = sequence('depth', [1, 2, 3]);
    const library = lib([...a.files, ...b.files], [a.q, b.q], { filter: 'dep' });
    expect(gridItems(library).map((i) => i.label)).toEqual(['depth.####.exr 1-3']);
    expect(sequenceOf(library, 'id:beauty.2.exr')?.id).toBe('q:beauty');
    expect(sequenceOf(library, 'id:nothing')).toBeNull();
  });
});

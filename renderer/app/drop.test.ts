import { describe, expect, it } from 'vitest';
import { droppedPaths, dropTarget } from './drop.js';

describe('drops', () => {
  it('reads local paths from a uri-list, percent-decoded, comments and other schemes left out', () => {
    expect(
      droppedPaths('# from the file manager\r\nfile:///shots/sq%2010/beauty.exr\r\nhttps://example.com/x.exr\nfile:///plates/\n'),
    ).toEqual(['/shots/sq 10/beauty.exr', '/plates/']);
    expect(droppedPaths('not a uri')).toEqual([]);
  });
  it("opens an EXR's folder with the file selected, and a folder as itself", () => {
    expect(dropTarget('/shots/sq 10/beauty.EXR')).toEqual({ folder: '/shots/sq 10', fileName: 'beauty.EXR' });
    expect(dropTarget('/plates/')).toEqual({ folder: '/plates' });
    expect(dropTarget('/a.exr')).toEqual({ folder: '/', fileName: 'a.exr' });
  });
});

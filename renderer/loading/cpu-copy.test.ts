// The CPU copy grows by the planes of the same image and gives the planes of an image it stops keeping back for reuse.
import { describe, expect, it } from 'vitest';
import type { DecodedImage, DecodedPlane } from '../host-client/api-types.js';
import { CpuCopy, lacking, mergePlanes } from './cpu-copy.js';

function image(fileId: string, names: readonly string[]): DecodedImage {
  return {
    fileId,
    part: 0,
    lx: 0,
    ly: 0,
    dataWindow: [0, 0, 0, 0],
    displayWindow: [0, 0, 0, 0],
    widthPx: 1,
    heightPx: 1,
    source: 'decode',
    timings: { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, hostMs: 0, bytesRead: 0 },
    planes: names.map((name) => ({
      name,
      pixelType: 'half' as const,
      xSampling: 1,
      ySampling: 1,
      widthSamples: 1,
      heightSamples: 1,
      data: new ArrayBuffer(2),
    })),
  };
}
const names = (d: DecodedImage | null) => d?.planes.map((p) => p.name);

describe('CPU copy', () => {
  it('merges planes of the same image, newer planes in place of older ones of the same name', () => {
    const a = image('f', ['R', 'G']),
      b = image('f', ['G', 'B']);
    const m = mergePlanes(a, b);
    expect(names(m)).toEqual(['R', 'G', 'B']);
    expect(m.planes[1]).toBe(b.planes[0]);
    expect(mergePlanes(a, image('other', ['A'])).fileId).toBe('other');
    expect(names(mergePlanes(null, b))).toEqual(['G', 'B']);
  });

  it('says what it lacks of an image, all of it for another image', () => {
    const have = image('f', ['R', 'G']);
    expect(lacking(have, { fileId: 'f', part: 0 }, ['R', 'G', 'B'])).toEqual(['B']);
    expect(lacking(have, { fileId: 'f', part: 1 }, ['R'])).toEqual(['R']);
    expect(lacking(null, { fileId: 'f', part: 0 }, ['R'])).toEqual(['R']);
  });

  it('gives the planes of the image it stops keeping back, only where nobody else reads them', () => {
    let kept: DecodedImage | null = null;
    const released: DecodedPlane[][] = [];
    let recycles = true;
    const copy = new CpuCopy({
      get: () => kept,
      set: (d) => {
        kept = d;
      },
      release: () => (recycles ? (p) => released.push(p) : null),
    });
    const first = image('a', ['R']);
    copy.keep(first);
    copy.keep(image('a', ['G']));
    expect(names(kept)).toEqual(['R', 'G']);
    expect(released).toEqual([]);
    const before = kept!.planes;
    copy.keep(image('b', ['R']));
    expect(released).toEqual([before]);
    recycles = false;
    copy.keep(image('c', ['R']));
    expect(released.length).toBe(1);
    expect(kept!.fileId).toBe('c');
  });

  it('after the file changed on disk, lacks every plane of it and replaces its old planes instead of merging', () => {
    let kept: DecodedImage | null = null;
    const released: DecodedPlane[][] = [];
    const copy = new CpuCopy({ get: () => kept, set: (d) => void (kept = d), release: () => (p) => released.push(p) });
    copy.keep(image('a', ['R', 'G', 'B', 'A']));
    expect(copy.lacks({ fileId: 'a', part: 0 }, ['R', 'G'])).toEqual([]);
    const old = kept!.planes;
    copy.forget('a');
    expect(copy.lacks({ fileId: 'a', part: 0 }, ['R', 'G'])).toEqual(['R', 'G']);
    expect(copy.lacks({ fileId: 'b', part: 0 }, ['R'])).toEqual(['R']);
    // the old version stays on screen until the new planes come; then none of it is kept (not even planes not fetched again)
    expect(names(kept)).toEqual(['R', 'G', 'B', 'A']);
    const fresh = image('a', ['R', 'G']);
    copy.keep(fresh);
    expect(kept).toBe(fresh);
    expect(released).toEqual([old]);
    // and from then on it merges as before
    expect(copy.lacks({ fileId: 'a', part: 0 }, ['R', 'B'])).toEqual(['B']);
  });
});

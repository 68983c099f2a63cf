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

describe('CPU copy: a live image’s updated crop', () => {
  /** A w×h float image whose plane `name` holds 0, 1, 2… in row order, over the data window at (x0, y0). */
  function floats(fileId: string, w: number, h: number, x0 = 0, y0 = 0, names = ['R', 'G'], base = 0): DecodedImage {
    const img = image(fileId, []);
    return {
      ...img,
      dataWindow: [x0, y0, x0 + w - 1, y0 + h - 1],
      widthPx: w,
      heightPx: h,
      planes: names.map((name) => ({
        name,
        pixelType: 'float' as const,
        xSampling: 1,
        ySampling: 1,
        widthSamples: w,
        heightSamples: h,
        data: Float32Array.from({ length: w * h }, (_, i) => base + i).buffer,
      })),
    };
  }

  it('copies the crop into the planes held, in place, and sets the copy again as a new object', () => {
    let held: DecodedImage | null = floats('live', 4, 3);
    const copy = new CpuCopy({ get: () => held, set: (d) => (held = d), release: () => null });
    const before = held;
    const crop = floats('live', 2, 2, 1, 1, ['R', 'G'], 100);
    expect(copy.patch(crop)).toBe(true);
    expect(held).not.toBe(before);
    expect([...new Float32Array(held!.planes[0]!.data)]).toEqual([0, 1, 2, 3, 4, 100, 101, 7, 8, 102, 103, 11]);
    expect([...new Float32Array(held!.planes[1]!.data)]).toEqual([0, 1, 2, 3, 4, 100, 101, 7, 8, 102, 103, 11]);
  });

  it('refuses what does not fit what it holds: another image, outside it, a plane it lacks, a stale copy', () => {
    let held: DecodedImage | null = floats('live', 4, 3);
    const copy = new CpuCopy({ get: () => held, set: (d) => (held = d), release: () => null });
    expect(copy.patch(floats('other', 2, 2))).toBe(false);
    expect(copy.patch(floats('live', 2, 2, 3, 0))).toBe(false);
    expect(copy.patch(floats('live', 2, 2, 0, 0, ['R']))).toBe(false);
    copy.forget('live');
    expect(copy.patch(floats('live', 2, 2))).toBe(false);
    expect([...new Float32Array(held!.planes[0]!.data)]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });
});

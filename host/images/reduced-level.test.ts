// The reduced level a page that cannot show level 0 whole gets: the power of two that fits, the file's own MIP level
// when it has one (tiled, mipmapped), else level 0 box-filtered; through the host, pixels checked against level 0.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HALF_TO_FLOAT, floatToHalf } from '../../codec/index.js';
import type { DecodedPlane, FileEntry, PartSummary } from '../../contract/host-api.js';
import { useHostFixture, writeRgb } from '../../testing/host/test-files.js';
import { boxFilterPlane, fileLevelFor, reductionFor } from './reduced-level.js';

const plane = (pixelType: DecodedPlane['pixelType'], w: number, h: number, values: number[]): DecodedPlane => ({
  name: 'Y',
  pixelType,
  xSampling: 1,
  ySampling: 1,
  widthSamples: w,
  heightSamples: h,
  data: (pixelType === 'half'
    ? Uint16Array.from(values, floatToHalf)
    : pixelType === 'float'
      ? Float32Array.from(values)
      : Uint32Array.from(values)
  ).buffer,
});

describe('which reduction', () => {
  it('is the smallest power of two within the side limit and the pixel count, and says which it was over', () => {
    const fit = { maxSidePx: 8192, maxPixels: 40_000_000 };
    expect(reductionFor(8192, 4096, fit)).toBeNull();
    expect(reductionFor(16384, 8192, fit)).toEqual({ factor: 2, over: 'side', limit: 8192, fullWidthPx: 16384, fullHeightPx: 8192 });
    expect(reductionFor(32768, 16384, fit)?.factor).toBe(4);
    expect(reductionFor(16385, 100, fit)?.factor).toBe(4); // ⌈16385/2⌉ = 8193 is still over
    expect(reductionFor(8000, 8000, fit)).toEqual({ factor: 2, over: 'pixels', limit: 40_000_000, fullWidthPx: 8000, fullHeightPx: 8000 });
    expect(() => reductionFor(1 << 30, 1, { maxSidePx: 8, maxPixels: 64 })).toThrow(/cannot be reduced/);
  });

  it("takes the file's own level when its MIP levels reach that far", () => {
    const part = { levelMode: 'mipmapLevels', levelCount: 3, dataWindow: [0, 0, 7, 3] } as unknown as PartSummary;
    expect(fileLevelFor(part, 2)).toBe(1);
    expect(fileLevelFor(part, 4)).toBe(2);
    expect(fileLevelFor(part, 8)).toBeNull();
    expect(fileLevelFor({ ...part, levelMode: 'oneLevel' }, 2)).toBeNull();
    expect(fileLevelFor({ ...part, levelMode: 'ripmapLevels' }, 8)).toBeNull();
  });
});

describe('the box filter', () => {
  it('averages half and float samples over each box, partial boxes at the edges over what they cover', () => {
    // 5 × 3, factor 2: boxes of 2×2, 1×2 at the right, 2×1 and 1×1 at the bottom
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    const expected = [(1 + 2 + 6 + 7) / 4, (3 + 4 + 8 + 9) / 4, (5 + 10) / 2, (11 + 12) / 2, (13 + 14) / 2, 15];
    const float = boxFilterPlane(plane('float', 5, 3, values), 2);
    expect([float.widthSamples, float.heightSamples]).toEqual([3, 2]);
    expect([...new Float32Array(float.data)]).toEqual(expected);
    const half = boxFilterPlane(plane('half', 5, 3, values), 2);
    expect([...new Uint16Array(half.data)].map((h) => HALF_TO_FLOAT[h])).toEqual(expected);
  });

  it('takes the first sample of a uint box (IDs cannot be averaged), and reads only the plane of a longer buffer', () => {
    const ids = plane('uint', 4, 2, [7, 8, 9, 10, 11, 12, 13, 14]);
    const longer = { ...ids, data: new Uint32Array([...new Uint32Array(ids.data), 99, 99]).buffer };
    expect([...new Uint32Array(boxFilterPlane(longer, 2).data)]).toEqual([7, 9]);
  });
});

describe('through the host', () => {
  const fixture = useHostFixture();
  const W = 64,
    H = 40;
  const pattern = (x: number, y: number): [number, number, number] => [x / W, y / H, (x + 2 * y) % 5];

  async function files(): Promise<FileEntry[]> {
    const { dir, host } = fixture;
    writeRgb(join(dir, 'flat.exr'), W, H, pattern, { dataWindow: { xMin: 10, yMin: 20, xMax: 10 + W - 1, yMax: 20 + H - 1 } });
    writeRgb(join(dir, 'mip.exr'), W, H, pattern, { tiles: { xSizePx: 16, ySizePx: 16, levelMode: 'mipmapLevels' } });
    const folder = (await host.openFolder(dir))!;
    return host.listFiles(folder.id);
  }

  it('box-filters level 0 of a scanline file over the limit, its windows scaled, and says what it was over', async () => {
    const { host } = fixture;
    const flat = (await files()).find((f) => f.name === 'flat.exr')!;
    const full = await host.decodeImage({ requestId: 'a', fileId: flat.id, part: 0, priority: 'preview' });
    const fitWithin = { maxSidePx: 20, maxPixels: 1 << 20 };
    const small = await host.decodeImage({ requestId: 'b', fileId: flat.id, part: 0, priority: 'preview', fitWithin });
    expect(small.reduced).toEqual({ factor: 4, from: 'box-filter', fullWidthPx: W, fullHeightPx: H, over: 'side', limit: 20 });
    expect([small.widthPx, small.heightPx]).toEqual([16, 10]);
    expect(small.dataWindow).toEqual([2, 5, 17, 14]);
    for (const name of ['R', 'G', 'B']) {
      const a = new Uint16Array(full.planes.find((p) => p.name === name)!.data, 0, W * H);
      const b = new Uint16Array(small.planes.find((p) => p.name === name)!.data);
      expect(b.length).toBe(16 * 10);
      for (const [x, y] of [
        [0, 0],
        [7, 3],
        [15, 9],
      ] as const) {
        let sum = 0;
        for (let dy = 0; dy < 4; dy++) for (let dx = 0; dx < 4; dx++) sum += HALF_TO_FLOAT[a[(y * 4 + dy) * W + x * 4 + dx]!]!;
        expect(HALF_TO_FLOAT[b[y * 16 + x]!], `${name} at ${x},${y}`).toBeCloseTo(sum / 16, 2);
      }
    }
    // fitting whole: level 0 as it is
    const whole = await host.decodeImage({
      requestId: 'c',
      fileId: flat.id,
      part: 0,
      priority: 'preview',
      fitWithin: { maxSidePx: 64, maxPixels: W * H },
    });
    expect(whole.reduced).toBeUndefined();
    expect(whole.widthPx).toBe(W);
  });

  it('makes a small first level and the finer one the page asks for next in one pass, each the mean of level 0', async () => {
    const { host } = fixture;
    const flat = (await files()).find((f) => f.name === 'flat.exr')!;
    const full = await host.decodeImage({ requestId: 'a', fileId: flat.id, part: 0, priority: 'preview' });
    const refineWithin = { maxSidePx: 20, maxPixels: 1 << 20 };
    const first = await host.decodeImage({
      requestId: 'b',
      fileId: flat.id,
      part: 0,
      priority: 'preview',
      fitWithin: { maxSidePx: 8, maxPixels: 1 << 20 },
      refineWithin,
    });
    // what the small level says it was over is the page's own limit (refineWithin), not the small request's
    expect(first.reduced).toMatchObject({ factor: 8, from: 'box-filter', over: 'side', limit: 20 });
    expect([first.widthPx, first.heightPx, first.source]).toEqual([8, 5, 'decode']);
    expect(first.dataWindow).toEqual([1, 2, 8, 6]);
    const refined = await host.decodeImage({ requestId: 'c', fileId: flat.id, part: 0, priority: 'preview', fitWithin: refineWithin });
    // held since the first request's pass: no second decode
    expect(refined.source).toBe('ram-cache');
    expect(refined.reduced).toEqual({ factor: 4, from: 'box-filter', fullWidthPx: W, fullHeightPx: H, over: 'side', limit: 20 });
    expect([refined.widthPx, refined.heightPx]).toEqual([16, 10]);
    for (const [level, factor] of [
      [first, 8],
      [refined, 4],
    ] as const) {
      const w = level.widthPx;
      for (const name of ['R', 'G', 'B']) {
        const a = new Uint16Array(full.planes.find((p) => p.name === name)!.data, 0, W * H);
        const b = new Uint16Array(level.planes.find((p) => p.name === name)!.data);
        expect(b.length).toBe(w * level.heightPx);
        for (let y = 0; y < level.heightPx; y++)
          for (let x = 0; x < w; x++) {
            let sum = 0;
            for (let dy = 0; dy < factor; dy++)
              for (let dx = 0; dx < factor; dx++) sum += HALF_TO_FLOAT[a[(y * factor + dy) * W + x * factor + dx]!]!;
            expect(b[y * w + x], `${name} at ${x},${y} of 1/${factor}`).toBe(floatToHalf(sum / factor ** 2));
          }
      }
    }
    // taken once: asked again, the level is decoded again
    const again = await host.decodeImage({ requestId: 'd', fileId: flat.id, part: 0, priority: 'preview', fitWithin: refineWithin });
    expect(again.source).toBe('decode');
  });

  it("takes a mipmapped file's own level", async () => {
    const { host } = fixture;
    const mip = (await files()).find((f) => f.name === 'mip.exr')!;
    const level1 = await host.decodeImage({ requestId: 'a', fileId: mip.id, part: 0, lx: 1, ly: 1, priority: 'preview' });
    const fitWithin = { maxSidePx: 1 << 14, maxPixels: 1000 };
    const small = await host.decodeImage({ requestId: 'b', fileId: mip.id, part: 0, priority: 'preview', fitWithin });
    expect(small.reduced).toMatchObject({ factor: 2, from: 'mip-level', over: 'pixels', limit: 1000 });
    expect([small.widthPx, small.heightPx, small.lx]).toEqual([32, 20, 1]);
    expect(small.dataWindow).toEqual([0, 0, 31, 19]);
    expect(small.displayWindow).toEqual([0, 0, 31, 19]);
    expect(new Uint16Array(small.planes[0]!.data, 0, 32 * 20)).toEqual(new Uint16Array(level1.planes[0]!.data, 0, 32 * 20));
  });
});

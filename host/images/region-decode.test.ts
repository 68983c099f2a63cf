// A crop of level 0 (DecodeRequest.region) through the host: the crop's pixels as level 0 has them, scanline and
// tiled, clipped to the data window and echoed; and level 0 box-filtered band by band as one filter of the whole.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { floatToHalf } from '../../codec/index.js';
import type { DecodedImage, DecodedPlane, FileEntry } from '../../contract/host-api.js';
import { useHostFixture, writeRgb } from '../../testing/host/test-files.js';
import { boxFilterPlane } from './reduced-level.js';
import { streamBoxFilter } from './reduced-stream.js';

describe('a region of level 0 through the host', () => {
  const fixture = useHostFixture();
  const W = 100,
    H = 70;
  const pattern = (x: number, y: number): [number, number, number] => [x / W, y / H, ((x * 7 + y * 3) % 11) / 4];

  async function files(): Promise<FileEntry[]> {
    const { dir, host } = fixture;
    writeRgb(join(dir, 'flat.exr'), W, H, pattern, { dataWindow: { xMin: -10, yMin: 20, xMax: -10 + W - 1, yMax: 20 + H - 1 } });
    writeRgb(join(dir, 'tiled.exr'), W, H, pattern, { tiles: { xSizePx: 16, ySizePx: 16, levelMode: 'mipmapLevels' } });
    const folder = (await host.openFolder(dir))!;
    return host.listFiles(folder.id);
  }

  /** Plane `name` of `image` at absolute (x, y). */
  const at = (image: DecodedImage, name: string, x: number, y: number): number => {
    const p = image.planes.find((q) => q.name === name)!;
    return new Uint16Array(p.data, 0, p.widthSamples * p.heightSamples)[
      (y - image.dataWindow[1]) * p.widthSamples + x - image.dataWindow[0]
    ]!;
  };

  it('answers with the crop alone, its pixels level 0’s, across chunk and tile boundaries', async () => {
    const { host } = fixture;
    for (const file of await files()) {
      const full = await host.decodeImage({ requestId: `f-${file.name}`, fileId: file.id, part: 0, priority: 'preview' });
      const [x0, y0] = full.dataWindow;
      const region = { xPx: x0 + 13, yPx: y0 + 9, widthPx: 40, heightPx: 33 };
      const crop = await host.decodeImage({ requestId: `r-${file.name}`, fileId: file.id, part: 0, priority: 'preview', region });
      expect(crop.region, file.name).toEqual(region);
      expect([crop.widthPx, crop.heightPx]).toEqual([40, 33]);
      expect(crop.dataWindow).toEqual([region.xPx, region.yPx, region.xPx + 39, region.yPx + 32]);
      expect(crop.displayWindow).toEqual(full.displayWindow);
      expect(crop.planes[0]!.widthSamples * crop.planes[0]!.heightSamples).toBe(40 * 33);
      for (const name of ['R', 'G', 'B'])
        for (let y = region.yPx; y < region.yPx + 33; y += 4)
          for (let x = region.xPx; x < region.xPx + 40; x += 3)
            expect(at(crop, name, x, y), `${file.name} ${name} ${x},${y}`).toBe(at(full, name, x, y));
    }
  });

  it('clips a region to the data window, and refuses one outside it, saying so', async () => {
    const { host } = fixture;
    const flat = (await files()).find((f) => f.name === 'flat.exr')!;
    const crop = await host.decodeImage({
      requestId: 'c',
      fileId: flat.id,
      part: 0,
      priority: 'preview',
      region: { xPx: 60, yPx: 0, widthPx: 1024, heightPx: 1024 },
    });
    expect(crop.region).toEqual({ xPx: 60, yPx: 20, widthPx: 30, heightPx: 70 });
    await expect(
      host.decodeImage({
        requestId: 'd',
        fileId: flat.id,
        part: 0,
        priority: 'preview',
        region: { xPx: 500, yPx: 0, widthPx: 8, heightPx: 8 },
      }),
    ).rejects.toThrow(/outside the image's data window/);
  });
});

describe('the streamed box filter', () => {
  it('filters band by band as the whole level at once, and lets every band go', async () => {
    const W = 37,
      H = 29,
      factor = 4;
    const values = Array.from({ length: W * H }, (_, i) => ((i * 37) % 101) / 7);
    const whole: DecodedPlane = {
      name: 'Y',
      pixelType: 'half',
      xSampling: 1,
      ySampling: 1,
      widthSamples: W,
      heightSamples: H,
      data: Uint16Array.from(values, floatToHalf).buffer,
    };
    const src = new Uint16Array(whole.data);
    let held = 0,
      most = 0;
    const streamed = await streamBoxFilter([0, 0, W - 1, H - 1], factor, 8, async (box) => {
      const rows = box[3] - box[1] + 1;
      held++;
      most = Math.max(most, held);
      const plane = { ...whole, heightSamples: rows, data: src.slice(box[1] * W, (box[3] + 1) * W).buffer };
      const image = { planes: [plane] } as unknown as DecodedImage;
      return { image, release: () => held-- };
    });
    expect(streamed.bands).toBe(4);
    expect(held).toBe(0);
    expect(most).toBeLessThanOrEqual(2);
    const reference = boxFilterPlane(whole, factor);
    expect([streamed.planes[0]!.widthSamples, streamed.planes[0]!.heightSamples]).toEqual([10, 8]);
    expect(new Uint16Array(streamed.planes[0]!.data)).toEqual(new Uint16Array(reference.data));
  });
});

// A crop of level 0 (DecodeRequest.region) through the host: the crop's pixels as level 0 has them, scanline and
// tiled, clipped to the data window and echoed.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DecodedImage, FileEntry } from '../../contract/host-api.js';
import { useHostFixture, writeRgb } from '../../testing/host/test-files.js';

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

// Thumbnails: the right source (MIP level or full decode), exact box averages in linear light, and which channels are shown.

import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { floatToHalf, HALF_TO_FLOAT, ExrReader, openFileSource } from '../../codec/index.js';
import { writeExrFile } from '../../codec/writer.js';
import { chooseThumbnailChannels } from './channels.js';
import { box, halfChannels } from '../samples/samples.js';
import { tempDir, writeRgb } from '../../testing/host/test-files.js';
import { boxFilter, thumbnailJob, thumbnailSize } from './job.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

const signal = { aborted: false };
const rgba = (buffer: ArrayBuffer) => Array.from(new Uint16Array(buffer), (h) => HALF_TO_FLOAT[h]!);

describe('thumbnailJob', () => {
  it('averages each 4x4 block of the image in linear light', () => {
    // 16x8 image of 4x4 blocks whose pixels are 0 and 8 in a checkerboard (mean 4), and a block of 1s
    const path = join(dir.path, 'blocks.exr');
    writeRgb(path, 16, 8, (x, y) => (x < 4 && y < 4 ? [1, 1, 1] : (x + y) % 2 ? [8, 0, 2] : [0, 8, 2]));
    const { result } = thumbnailJob({ path, longSidePx: 4 }, { signal });
    expect([result.widthPx, result.heightPx, result.source]).toEqual([4, 2, 'full-decode']);
    const px = rgba(result.rgbaHalf);
    expect(px.slice(0, 4)).toEqual([1, 1, 1, 1]);
    expect(px.slice(4, 8)).toEqual([4, 4, 2, 1]);
    expect(px.slice(28, 32)).toEqual([4, 4, 2, 1]);
  });

  it('bins chunk by chunk exactly as the box filter over the fully decoded planes, for every compression and odd sizes', () => {
    for (const compression of ['none', 'rle', 'zips', 'zip', 'piz'] as const) {
      const path = join(dir.path, `odd-${compression}.exr`);
      writeRgb(path, 101, 37, (x, y) => [Math.sin(x * 0.3) * 4, (x * y) % 7, y / 37, 0.5 + (x % 3) / 4], { compression, withAlpha: true });
      const { result } = thumbnailJob({ path, longSidePx: 23 }, { signal });
      const source = openFileSource(path);
      const image = ExrReader.open(source).decode();
      source.close();
      const px = rgba(result.rgbaHalf);
      ['R', 'G', 'B', 'A'].forEach((name, c) => {
        const plane = image.channels.find((p) => p.name === name)!;
        const want = Array.from(boxFilter(plane, result.widthPx, result.heightPx), (v) => HALF_TO_FLOAT[floatToHalf(v)]);
        expect(
          px.filter((_, i) => i % 4 === c),
          `${compression} ${name}`,
        ).toEqual(want);
      });
    }
  });

  it('reads the smallest MIP level that is large enough instead of level 0', () => {
    const path = join(dir.path, 'mip.exr');
    writeRgb(path, 256, 128, () => [0.5, 0.25, 2], { tiles: { xSizePx: 32, ySizePx: 32, levelMode: 'mipmapLevels' } });
    const { result } = thumbnailJob({ path, longSidePx: 40 }, { signal });
    // levels 256, 128, 64, 32 wide: 64x32 is the smallest at least 40x20
    expect([result.source, result.lx, result.ly, result.widthPx, result.heightPx]).toEqual(['mip-level', 2, 2, 40, 20]);
    expect(result.timings.bytesRead).toBeLessThan(10_000);
    expect(rgba(result.rgbaHalf).slice(0, 4)).toEqual([0.5, 0.25, 2, 1]);
  });

  it('counts NaN as 0 and infinities as the largest half, so one bad pixel does not blank its neighbours', () => {
    const path = join(dir.path, 'bad.exr');
    writeRgb(path, 2, 2, (x, y) => (x === 0 && y === 0 ? [NaN, Infinity, 1] : [1, 1, 1]));
    const px = rgba(thumbnailJob({ path, longSidePx: 1 }, { signal }).result.rgbaHalf);
    expect(px[0]).toBe(0.75);
    expect(px[1]).toBe(HALF_TO_FLOAT[floatToHalf(65504 / 4 + 0.75)]);
  });

  it('keeps alpha and does not enlarge small images', () => {
    const path = join(dir.path, 'alpha.exr');
    writeRgb(path, 10, 5, () => [0.5, 0.5, 0.5, 0.25], { withAlpha: true });
    const { result } = thumbnailJob({ path, longSidePx: 256 }, { signal });
    expect([result.widthPx, result.heightPx]).toEqual([10, 5]);
    expect(rgba(result.rgbaHalf).slice(0, 4)).toEqual([0.5, 0.5, 0.5, 0.25]);
  });

  it('shows the first layer with colour when the base layer has none', () => {
    const path = join(dir.path, 'layers.exr');
    writeExrFile(path, [
      {
        dataWindow: box(4, 4),
        channels: [
          ...halfChannels(4, 4, () => [3, 2, 1], { prefix: 'specular.' }),
          ...halfChannels(4, 4, () => [1, 2, 3], { prefix: 'diffuse.' }),
        ],
      },
    ]);
    const { result } = thumbnailJob({ path, longSidePx: 2 }, { signal });
    expect(result.channels).toMatchObject({ kind: 'rgb', layer: 'diffuse' });
    expect(rgba(result.rgbaHalf).slice(0, 4)).toEqual([1, 2, 3, 1]);
  });
});

describe('chooseThumbnailChannels', () => {
  it('prefers the base RGB(A), then luminance, then a layer, then one channel as grey', () => {
    expect(chooseThumbnailChannels(['A', 'B', 'G', 'R', 'diffuse.R'])).toEqual({ kind: 'rgb', r: 'R', g: 'G', b: 'B', a: 'A', layer: '' });
    expect(chooseThumbnailChannels(['BY', 'RY', 'Y'])).toEqual({ kind: 'luma-chroma', y: 'Y', ry: 'RY', by: 'BY', a: null });
    expect(chooseThumbnailChannels(['Z', 'spec.B', 'spec.G', 'spec.R'])).toMatchObject({ kind: 'rgb', layer: 'spec' });
    expect(chooseThumbnailChannels(['A', 'Z'])).toEqual({ kind: 'grey', channel: 'Z', a: 'A' });
    expect(chooseThumbnailChannels(['depth.Z'])).toEqual({ kind: 'grey', channel: 'depth.Z', a: null });
  });

  it('sizes thumbnails by the long side', () => {
    expect(thumbnailSize(3840, 2160, 256)).toEqual({ widthPx: 256, heightPx: 144 });
    expect(thumbnailSize(100, 4000, 256)).toEqual({ widthPx: 6, heightPx: 256 });
    expect(thumbnailSize(5000, 1, 256)).toEqual({ widthPx: 256, heightPx: 1 });
  });
});

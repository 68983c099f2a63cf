// An image too large to export whole in memory is written at the largest reduced size that fits, streamed from its
// chunks, and the result says how large and why; an EXR layer (every pixel) over the bound is refused with what to do.
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { writeExrFile } from '../../codec/writer.js';
import type { PartSummary, ViewTransform } from '../../contract/host-api.js';
import { box, halfChannels } from '../samples/samples.js';
import { tempDir, useHostFixture } from '../../testing/host/test-files.js';
import { ENCODER_MAX_PIXELS, exportFit } from './export-fit.js';

const view: ViewTransform = { exposureEv: 0, offset: 0, gamma: 1, displayTransform: 'srgb', layer: '', channelMode: 'rgb' };

describe('the size an export encodes', () => {
  const part = (w: number, h: number): PartSummary =>
    ({
      dataWindow: [0, 0, w - 1, h - 1],
      channels: ['B', 'G', 'R'].map((name) => ({ name, pixelType: 'half', xSampling: 1, ySampling: 1 })),
    }) as unknown as PartSummary;

  it('is level 0 where it fits the encoder and the memory, else a fit by the smaller of the two', () => {
    expect(exportFit(part(16384, 8192), ['R', 'G', 'B'], 6 * 2 ** 30)).toBeNull();
    // 32768×16384: over the encoder's 268 megapixels
    expect(exportFit(part(32768, 16384), ['R', 'G', 'B'], 12 * 2 ** 30)).toEqual({ maxSidePx: 65535, maxPixels: ENCODER_MAX_PIXELS });
    // with 6 GB, the memory's 214 megapixels are the bound
    expect(exportFit(part(32768, 16384), ['R', 'G', 'B'], 6 * 2 ** 30)?.maxPixels).toBe(Math.floor((6 * 2 ** 30) / 30));
    // 30 bytes a pixel (6 of planes, 24 of working copies) in 30 MB: a million pixels
    expect(exportFit(part(2048, 1024), ['R', 'G', 'B'], 30e6)).toEqual({ maxSidePx: 65535, maxPixels: 1_000_000 });
    expect(exportFit(part(70000, 16), ['R'], 6 * 2 ** 30)?.maxSidePx).toBe(65535);
  });
});

describe('exporting an image over the bound', () => {
  const W = 256,
    H = 128;
  // 26 bytes a pixel (2 of R, 24 of working copies): 50,000 bytes hold 1,923 pixels, the 1/8 level (32×16); and not
  // the EXR layer's 64 kB
  const fixture = useHostFixture({ ramBudgetBytes: 50_000 });

  it('writes the largest reduced level that fits, and says so; an EXR layer is refused with what to do', async () => {
    writeExrFile(join(fixture.dir, 'wide.exr'), [
      { dataWindow: box(W, H), compression: 'zip', channels: halfChannels(W, H, (x) => [x / W, 0.5, 0.25]).filter((c) => c.name === 'R') },
    ]);
    const [file] = await fixture.host.listFiles((await fixture.host.openFolder(fixture.dir))!.id);
    const out = tempDir('exrview-out-');
    try {
      const result = await fixture.host.exportImages({
        fileIds: [file!.id],
        kind: 'image',
        format: 'png',
        outDir: out.path,
        overwrite: false,
        view: { ...view, channelMode: 'channel:R' },
      });
      expect(result.failed).toEqual([]);
      const written = result.written[0]!;
      expect(written.reduced).toBe(
        'written at 1/8 size (32×16 of 256×128 px, box-filtered from level 0 as it was read): level 0 is 32,768 pixels, ' +
          "over the 1,923 pixels the host's memory for an export holds (48.8 kB)",
      );
      const meta = await sharp(written.path).metadata();
      expect([meta.width, meta.height]).toEqual([32, 16]);

      const layer = await fixture.host.exportImages({
        fileIds: [file!.id],
        kind: 'exr-layer',
        format: 'exr',
        outDir: out.path,
        overwrite: false,
        view,
      });
      expect(layer.written).toEqual([]);
      expect(layer.failed[0]!.reason).toBe(
        'its layer is 64.0 kB decoded, over the 48.8 kB the host allows one export: export it as PNG or JPEG (written at a reduced size), or copy the file itself',
      );
    } finally {
      out.remove();
    }
  });
});

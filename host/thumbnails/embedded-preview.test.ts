// The embedded preview as a stand-in thumbnail: decoded back to linear light, replaced by the cached thumbnail, refused when absent.

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExrReader, floatToHalf, HALF_TO_FLOAT, openFileSource, type PartInfo } from '../../codec/index.js';
import { findImageTools } from '../../testing/codec/oracle/tools.js';
import { embeddedPreview, previewByte } from './embedded-preview.js';
import { rgbPart, useHostFixture, writeRgb } from '../../testing/host/test-files.js';
import { writeExrFile } from '../../codec/writer.js';

const fx = useHostFixture();

/** A 6x2 preview whose pixels are the preview encoding of 0, 0.18, 1, 2 and two out-of-range values, alpha 0..255. */
function previewOf(values: number[]): { widthPx: number; heightPx: number; rgba: Uint8Array } {
  const rgba = new Uint8Array(values.length * 2 * 4);
  values.forEach((v, i) => {
    for (const row of [0, 1])
      rgba.set(
        [previewByte(v), previewByte(v / 2), previewByte(v / 4), Math.round((255 * i) / (values.length - 1))],
        (row * values.length + i) * 4,
      );
  });
  return { widthPx: values.length, heightPx: 2, rgba };
}

const request = (fileId: string, embeddedPreview: boolean) => ({
  requestId: `r-${fileId}-${embeddedPreview}`,
  fileId,
  longSidePx: 32,
  priority: 'thumbnail-visible' as const,
  embeddedPreview,
});

describe('embedded preview', () => {
  it('decodes each preview value back to the linear value it encodes, within its 8-bit step', () => {
    const linear = [0, 0.01, 0.18, 0.5, 1, 4];
    const got = embeddedPreview([{ preview: previewOf(linear) } as unknown as PartInfo])!;
    const px = Array.from(new Uint16Array(got.rgbaHalf), (h) => HALF_TO_FLOAT[h]!);
    linear.forEach((v, i) => {
      // the encoding truncates to 8 bits: decoding gives the middle of v's step, so encoding it again gives the same byte
      expect(previewByte(px[i * 4]!)).toBe(previewByte(v));
      expect(Math.abs(px[i * 4]! - v)).toBeLessThanOrEqual(0.02 * v + 1e-4);
    });
    expect(px[3]).toBe(0);
    expect(px[(linear.length - 1) * 4 + 3]).toBe(1);
    expect([previewByte(0.18), previewByte(5.8)]).toEqual([84, 255]);
  });

  const exrmakepreview = findImageTools().exrmakepreview;
  it.skipIf(!exrmakepreview)(
    "encodes as OpenEXR's exrmakepreview does, byte for byte, over 16 stops (skipped without it; Debian: openexr)",
    () => {
      const [w, h] = [64, 8];
      const value = (x: number, y: number) => HALF_TO_FLOAT[floatToHalf(2 ** (-12 + (16 * (y * w + x)) / (w * h)))]!;
      const input = join(fx.dir, 'ramp.exr');
      writeExrFile(input, [rgbPart(w, h, (x, y) => [value(x, y), value(x, y) / 3, value(x, y) * 2], { compression: 'none' })]);
      // a preview as wide as the image samples every pixel exactly
      execFileSync(exrmakepreview!, ['-w', String(w), input, join(fx.dir, 'with-preview.exr')]);
      const source = openFileSource(join(fx.dir, 'with-preview.exr'));
      const parts = ExrReader.open(source).parts;
      source.close();
      const theirs = parts[0]!.preview!;
      const ours: number[] = [];
      const bytes: number[] = [];
      for (let i = 0; i < w * h; i++) {
        const v = value(i % w, Math.floor(i / w));
        ours.push(...[v, v / 3, v * 2].map((c) => previewByte(HALF_TO_FLOAT[floatToHalf(c)]!)));
        bytes.push(...theirs.rgba.subarray(i * 4, i * 4 + 3));
      }
      expect(ours).toEqual(bytes);
      // and decoding gives back each value within its 8-bit step (a few per cent)
      const back = new Uint16Array(embeddedPreview(parts)!.rgbaHalf);
      for (let i = 0; i < w * h; i++) {
        const v = value(i % w, Math.floor(i / w));
        if (v > 0.01 && v < 5) expect(Math.abs(HALF_TO_FLOAT[back[i * 4]!]! - v) / v).toBeLessThan(0.05);
      }
    },
  );

  it('is what the host shows first for a file with a preview, then the disk-cached thumbnail once made', async () => {
    writeExrFile(join(fx.dir, 'with-preview.exr'), [{ ...rgbPart(64, 32, () => [1, 0.5, 0.25]), preview: previewOf([0.18, 1]) }]);
    const folder = (await fx.host.openFolder(fx.dir))!;
    const [file] = await fx.host.listFiles(folder.id);
    expect(file!.summary!.parts[0]!.hasPreview).toBe(true);
    const stand = await fx.host.getThumbnail(request(file!.id, true));
    expect([stand.source, stand.widthPx, stand.heightPx]).toEqual(['embedded-preview', 2, 2]);
    expect(previewByte(HALF_TO_FLOAT[new Uint16Array(stand.rgbaHalf)[4]!]!)).toBe(previewByte(1));
    const real = await fx.host.getThumbnail(request(file!.id, false));
    expect([real.source, real.widthPx, real.heightPx]).toEqual(['full-decode', 32, 16]);
    const second = await fx.restart();
    const again = await second.listFiles((await second.openFolder(fx.dir))!.id);
    // the real thumbnail is better than the preview: once cached, it is the stand-in
    expect((await second.getThumbnail(request(again[0]!.id, true))).source).toBe('disk-cache');
  });

  it('is refused, saying what to ask for instead, for a file without one', async () => {
    writeRgb(join(fx.dir, 'plain.exr'), 8, 8, () => [1, 1, 1]);
    const [file] = await fx.host.listFiles((await fx.host.openFolder(fx.dir))!.id);
    await expect(fx.host.getThumbnail(request(file!.id, true))).rejects.toThrow(/no embedded preview image: ask for its thumbnail instead/);
  });
});

// Checks the uploader bit-exactly on the device at hand: every source kind, both formats, odd sizes, bands and ring wrap-around.
import { createUploader, type UploadFormat, type UploadSource } from '../../shaders/upload.js';
import { readTexture } from './dawn.js';
import { makeHalfPlanes, halfToFloatPlanes } from './images.js';

export interface VerifyCase {
  format: UploadFormat;
  source: string;
  width: number;
  height: number;
  ok: boolean;
  mismatches: number;
  submits: number;
}

export async function verifyUploads(device: GPUDevice): Promise<VerifyCase[]> {
  const out: VerifyCase[] = [];
  // small slabs: a 301x77 image takes several bands and wraps the 3-slab ring inside one image
  const uploader = createUploader(device, { slabBytes: 64 << 10, ringBytes: 3 * (64 << 10), label: 'verify' });
  for (const [width, height] of [
    [37, 19],
    [301, 77],
  ] as const) {
    const half = makeHalfPlanes(width, height, width * 7 + height);
    const float = halfToFloatPlanes(half);
    for (const format of ['rgba16float', 'rgba32float'] as const) {
      const p = format === 'rgba16float' ? half : float;
      const chBytes = format === 'rgba16float' ? 2 : 4;
      // expected interleaved bits
      const n = width * height;
      const expected = new Uint8Array(n * 4 * chBytes);
      const planesBytes = [p.r, p.g, p.b, p.a].map((a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      for (let i = 0; i < n; i++)
        for (let c = 0; c < 4; c++)
          for (let k = 0; k < chBytes; k++) expected[(i * 4 + c) * chBytes + k] = planesBytes[c]![i * chBytes + k]!;
      const rgbaData = format === 'rgba16float' ? new Uint16Array(expected.buffer) : new Float32Array(expected.buffer);
      const sources: [string, UploadSource][] = [
        ['texels', { kind: 'texels', data: rgbaData }],
        ['planes', { kind: 'planes', r: p.r, g: p.g, b: p.b, a: p.a }],
        [
          'writer',
          {
            kind: 'writer',
            write: (band) => {
              const rowBytes = width * 4 * chBytes;
              for (let y = 0; y < band.rows; y++)
                band.bytes.set(expected.subarray((band.y0 + y) * rowBytes, (band.y0 + y + 1) * rowBytes), y * band.bytesPerRow);
            },
          },
        ],
      ];
      for (const [name, source] of sources) {
        const texture = device.createTexture({
          size: [width, height],
          format,
          usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.STORAGE_BINDING,
        });
        const stats = await uploader.upload(texture, source, { width, height, format });
        const got = await readTexture(device, texture, 4 * chBytes);
        let mismatches = 0;
        for (let i = 0; i < got.length; i++) if (got[i] !== expected[i]) mismatches++;
        out.push({ format, source: name, width, height, ok: mismatches === 0, mismatches, submits: stats.submits });
        texture.destroy();
      }
      // the planes as single-channel textures, all four in one submission (the engine's path)
      const planeFormat = format === 'rgba16float' ? 'r16float' : 'r32float';
      const textures = [p.r, p.g, p.b, p.a].map(() =>
        device.createTexture({ size: [width, height], format: planeFormat, usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC }),
      );
      const stats = await uploader.uploadMany(
        [p.r, p.g, p.b, p.a].map((data, c) => ({
          texture: textures[c]!,
          format: planeFormat,
          width,
          height,
          source: { kind: 'texels' as const, data },
        })),
      );
      let mismatches = 0;
      for (let c = 0; c < 4; c++) {
        const got = await readTexture(device, textures[c]!, chBytes);
        const want = planesBytes[c]!;
        for (let i = 0; i < got.length; i++) if (got[i] !== want[i]) mismatches++;
        textures[c]!.destroy();
      }
      out.push({
        format: planeFormat,
        source: 'uploadMany x4 planes',
        width,
        height,
        ok: mismatches === 0,
        mismatches,
        submits: stats.submits,
      });
    }
  }
  uploader.destroy();
  return out;
}

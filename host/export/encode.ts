// 8-bit RGBA to PNG or JPEG with sharp, loaded on first use: the decode and bench commands run where no npm packages are.

import type sharpFunction from 'sharp';

type Sharp = typeof sharpFunction;
let sharpModule: Promise<Sharp> | null = null;

function loadSharp(): Promise<Sharp> {
  sharpModule ??= import('sharp').then(
    (m) => (m as unknown as { default?: Sharp }).default ?? (m as unknown as Sharp),
    (error: unknown) => {
      sharpModule = null;
      throw new Error(
        `PNG and JPEG need the sharp package, which did not load (${(error as Error).message}): run \`npm install\` in exrview's folder`,
      );
    },
  );
  return sharpModule;
}

/** Loads the encoder ahead of the first image (a command that will write images loads it while it starts up). */
export async function loadEncoder(): Promise<void> {
  const sharp = await loadSharp();
  // the first image also starts libvips: pay that here too
  await sharp(Buffer.alloc(4), { raw: { width: 1, height: 1, channels: 4 } })
    .removeAlpha()
    .png()
    .toBuffer();
}

/** Encodes 8-bit RGBA (alpha dropped) as PNG, or JPEG at `jpegQuality`. */
export async function encodeRgba8(
  rgba8: Uint8Array | Uint8ClampedArray,
  widthPx: number,
  heightPx: number,
  format: 'png' | 'jpg',
  jpegQuality: number,
): Promise<Buffer> {
  const sharp = await loadSharp();
  const image = sharp(Buffer.from(rgba8.buffer, rgba8.byteOffset, rgba8.byteLength), {
    raw: { width: widthPx, height: heightPx, channels: 4 },
  }).removeAlpha();
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: jpegQuality }).toBuffer();
}

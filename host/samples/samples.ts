// The sample images of the first start (assets/samples/), made by the project's own writer: HDR ramps, bright highlights, layers, alpha, a MIP-mapped tiled file.

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { floatToHalf, writeExrFile, type WriteChannel, type WritePart } from '../../codec/index.js';
import { previewByte } from '../thumbnails/embedded-preview.js';

export type PixelFn = (x: number, y: number) => [number, number, number, number?];

/** Half planes R, G, B (and A when `withAlpha`) from a function of the pixel, with `prefix` for a layer ("diffuse." etc.). */
export function halfChannels(
  widthPx: number,
  heightPx: number,
  fn: PixelFn,
  options: { prefix?: string; withAlpha?: boolean } = {},
): WriteChannel[] {
  const names = ['R', 'G', 'B', 'A'].slice(0, options.withAlpha ? 4 : 3);
  const planes = names.map(() => new Uint16Array(widthPx * heightPx));
  for (let y = 0; y < heightPx; y++) {
    for (let x = 0; x < widthPx; x++) {
      const v = fn(x, y);
      for (let c = 0; c < planes.length; c++) planes[c]![y * widthPx + x] = floatToHalf(c === 3 ? (v[3] ?? 1) : v[c]!);
    }
  }
  return names.map((n, c) => ({ name: `${options.prefix ?? ''}${n}`, pixelType: 'half' as const, data: planes[c]! }));
}

export function box(widthPx: number, heightPx: number) {
  return { xMin: 0, yMin: 0, xMax: widthPx - 1, yMax: heightPx - 1 };
}

/** Grey, red, green and blue bands, each a ramp from 2^-8 to 2^+8 (16 stops) left to right. */
function hdrRamp(): WritePart {
  const [w, h] = [1024, 256];
  const ramp = (x: number) => 2 ** (-8 + (16 * x) / (w - 1));
  return {
    dataWindow: box(w, h),
    compression: 'zip',
    channels: halfChannels(w, h, (x, y) => {
      const v = ramp(x);
      const band = Math.floor((4 * y) / h);
      return band === 0 ? [v, v, v] : band === 1 ? [v, 0, 0] : band === 2 ? [0, v, 0] : [0, 0, v];
    }),
    attributes: { comments: { type: 'string', value: 'HDR ramps: 2^-8 .. 2^8 in grey, red, green and blue' } },
  };
}

/** An embedded preview image (8-bit, OpenEXR's encoding) `widthPx` wide, each pixel the function at its centre. */
function previewOf(fn: PixelFn, imageWidthPx: number, imageHeightPx: number, widthPx: number): NonNullable<WritePart['preview']> {
  const heightPx = Math.max(1, Math.round((widthPx * imageHeightPx) / imageWidthPx));
  const rgba = new Uint8Array(widthPx * heightPx * 4);
  for (let y = 0; y < heightPx; y++) {
    for (let x = 0; x < widthPx; x++) {
      const v = fn(Math.floor(((x + 0.5) * imageWidthPx) / widthPx), Math.floor(((y + 0.5) * imageHeightPx) / heightPx));
      rgba.set(
        [previewByte(v[0]), previewByte(v[1]), previewByte(v[2]), Math.round(255 * Math.min(1, Math.max(0, v[3] ?? 1)))],
        (y * widthPx + x) * 4,
      );
    }
  }
  return { widthPx, heightPx, rgba };
}

/** A dim gradient scene with a few lights far above 1.0 and their glow: what exposure and tone-mapping are for; it carries an embedded preview, shown in the grid while its thumbnail is made. */
function highlights(): WritePart {
  const [w, h] = [960, 540];
  const lights = [
    { x: 200, y: 180, power: 4000, colour: [1, 0.85, 0.6] },
    { x: 520, y: 300, power: 800, colour: [0.6, 0.8, 1] },
    { x: 780, y: 140, power: 20000, colour: [1, 1, 1] },
  ];
  const scene: PixelFn = (x, y) => {
    const sky = 0.02 + 0.15 * (1 - y / h);
    const rgb = [sky * 0.6, sky * 0.8, sky];
    for (const l of lights) {
      const d2 = (x - l.x) ** 2 + (y - l.y) ** 2;
      const glow = l.power / (1 + d2);
      for (let c = 0; c < 3; c++) rgb[c]! += glow * l.colour[c]!;
    }
    return [Math.min(rgb[0]!, 60000), Math.min(rgb[1]!, 60000), Math.min(rgb[2]!, 60000)];
  };
  return {
    dataWindow: box(w, h),
    compression: 'piz',
    channels: halfChannels(w, h, scene),
    preview: previewOf(scene, w, h, 100),
    attributes: { comments: { type: 'string', value: 'bright highlights: lights up to 20000 over a dim sky' } },
  };
}

/** Beauty (base RGB) = diffuse + specular, each also stored as a layer, and depth Z. */
function layers(): WritePart {
  const [w, h] = [640, 360];
  const diffuse: PixelFn = (x, y) => {
    const checker = (Math.floor(x / 40) + Math.floor(y / 40)) % 2 === 0 ? 0.18 : 0.05;
    return [checker * 1.2, checker, checker * 0.8];
  };
  const specular: PixelFn = (x, y) => {
    const d2 = (x - w * 0.6) ** 2 + (y - h * 0.4) ** 2;
    const s = 6 * Math.exp(-d2 / 800);
    return [s, s, s];
  };
  const beauty: PixelFn = (x, y) => {
    const a = diffuse(x, y);
    const b = specular(x, y);
    return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
  };
  const z = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) z[y * w + x] = 10 + y / 10;
  return {
    dataWindow: box(w, h),
    compression: 'zip',
    channels: [
      ...halfChannels(w, h, beauty),
      ...halfChannels(w, h, diffuse, { prefix: 'diffuse.' }),
      ...halfChannels(w, h, specular, { prefix: 'specular.' }),
      { name: 'Z', pixelType: 'float', data: z },
    ],
    attributes: { comments: { type: 'string', value: 'layers: beauty = diffuse + specular, and depth Z' } },
  };
}

/** A soft-edged disc over transparency, premultiplied RGBA. */
function alpha(): WritePart {
  const [w, h] = [512, 512];
  return {
    dataWindow: box(w, h),
    compression: 'rle',
    channels: halfChannels(
      w,
      h,
      (x, y) => {
        const r = Math.hypot(x - w / 2, y - h / 2) / (w * 0.4);
        const a = Math.min(1, Math.max(0, (1 - r) * 8));
        return [0.8 * a, 0.3 * a, 0.1 * a, a];
      },
      { withAlpha: true },
    ),
    attributes: { comments: { type: 'string', value: 'alpha: a soft-edged disc, premultiplied' } },
  };
}

/** Tiled with MIP levels: thumbnails come from a small level instead of a full decode. */
function tiledMip(): WritePart {
  const [w, h] = [1024, 768];
  return {
    dataWindow: box(w, h),
    compression: 'zip',
    tiles: { xSizePx: 64, ySizePx: 64, levelMode: 'mipmapLevels', roundingMode: 'roundDown' },
    channels: halfChannels(w, h, (x, y) => {
      const u = x / w;
      const v = y / h;
      return [u * 2, v * 2, (1 - u) * (1 - v) * 2];
    }),
    attributes: { comments: { type: 'string', value: 'tiled, MIP-mapped: the grid reads a small level' } },
  };
}

export const SAMPLES: Readonly<Record<string, () => WritePart>> = {
  'hdr-ramp.exr': hdrRamp,
  'highlights.exr': highlights,
  'layers.exr': layers,
  'alpha.exr': alpha,
  'tiled-mip.exr': tiledMip,
};

/** Writes every sample that is missing from `dir` (each through a temporary file and a rename); returns the names written. */
export function writeSamples(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, make] of Object.entries(SAMPLES)) {
    const path = join(dir, name);
    if (existsSync(path)) continue;
    writeExrFile(path, [make()]);
    written.push(name);
  }
  return written;
}

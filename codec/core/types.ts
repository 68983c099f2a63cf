// Plain data types shared by every stage of the codec (header, chunks, compression, unpack).

export type PixelType = 'uint' | 'half' | 'float';
/** File encoding of PixelType (the chlist attribute stores 0, 1, 2). */
export const PIXEL_TYPES: readonly PixelType[] = ['uint', 'half', 'float'];
export const PIXEL_TYPE_BYTES: Readonly<Record<PixelType, number>> = { uint: 4, half: 2, float: 4 };

export type Compression = 'none' | 'rle' | 'zips' | 'zip' | 'piz' | 'pxr24' | 'b44' | 'b44a' | 'dwaa' | 'dwab' | 'htj2k256' | 'htj2k32';
/** File encoding of Compression (the compression attribute stores its index). */
export const COMPRESSIONS: readonly Compression[] = [
  'none',
  'rle',
  'zips',
  'zip',
  'piz',
  'pxr24',
  'b44',
  'b44a',
  'dwaa',
  'dwab',
  'htj2k256',
  'htj2k32',
];

/** Scanlines per chunk for scanline parts. */
export const LINES_PER_CHUNK: Readonly<Record<Compression, number>> = {
  none: 1,
  rle: 1,
  zips: 1,
  zip: 16,
  piz: 32,
  pxr24: 16,
  b44: 32,
  b44a: 32,
  dwaa: 32,
  dwab: 256,
  htj2k256: 256,
  htj2k32: 32,
};

export interface Channel {
  name: string;
  pixelType: PixelType;
  /** Hint that the channel is perceptually linear (B44 encodes such channels in a log-like space). */
  pLinear: boolean;
  xSampling: number;
  ySampling: number;
}

/** Inclusive integer box, as in the file: [xMin, yMin] .. [xMax, yMax]. */
export interface Box2i {
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/**
 * The pixels one chunk covers, and its channels. The uncompressed byte layout of a chunk is:
 * for each scanline y in [y0, y0 + heightPx) and each channel (header order) that has samples on y
 * (floorMod(y, ySampling) === 0): that channel's samples of the line (x in [x0, x0 + widthPx) with
 * floorMod(x, xSampling) === 0), little-endian, in the channel's pixel type.
 */
export interface BlockLayout {
  channels: readonly Channel[];
  x0: number;
  y0: number;
  widthPx: number;
  heightPx: number;
}

// Hostile sizes are refused from the header alone, before any large allocation.
import { describe, expect, it } from 'vitest';
import type { AttributeValue } from './attributes.js';
import { encodeAttribute } from './attributes-write.js';
import { ByteWriter } from './byte-writer.js';
import { ExrError, ExrReader, memorySource, type ByteSource } from './index.js';

interface HeaderOverrides {
  dataWindow?: [number, number, number, number];
  extra?: (w: ByteWriter) => void;
  tiles?: { x: number; y: number; mode: number };
  multipartChunkCount?: number;
  offsets?: number;
}

/** A small single-part header (and optionally a few offsets), built by hand so any field can be extreme. */
function header(o: HeaderOverrides = {}): Uint8Array {
  const w = new ByteWriter();
  const tiled = o.tiles !== undefined;
  const multipart = o.multipartChunkCount !== undefined;
  w.i32(20000630).i32(2 | (tiled && !multipart ? 0x200 : 0) | (multipart ? 0x1000 : 0));
  const [x0, y0, x1, y1] = o.dataWindow ?? [0, 0, 15, 15];
  const attr = (name: string, value: AttributeValue) => encodeAttribute(w, name, value);
  attr('channels', { type: 'chlist', value: [{ name: 'R', pixelType: 'half', pLinear: false, xSampling: 1, ySampling: 1 }] });
  attr('compression', { type: 'compression', value: 'zip' });
  attr('dataWindow', { type: 'box2i', value: { xMin: x0, yMin: y0, xMax: x1, yMax: y1 } });
  attr('displayWindow', { type: 'box2i', value: { xMin: 0, yMin: 0, xMax: 15, yMax: 15 } });
  attr('lineOrder', { type: 'lineOrder', value: 'increasingY' });
  attr('pixelAspectRatio', { type: 'float', value: 1 });
  attr('screenWindowCenter', { type: 'v2f', value: [0, 0] });
  attr('screenWindowWidth', { type: 'float', value: 1 });
  if (o.tiles) {
    attr('tiles', {
      type: 'tiledesc',
      value: {
        xSizePx: o.tiles.x,
        ySizePx: o.tiles.y,
        levelMode: (['oneLevel', 'mipmapLevels', 'ripmapLevels'] as const)[o.tiles.mode]!,
        roundingMode: 'roundDown',
      },
    });
  }
  if (multipart) {
    attr('name', { type: 'string', value: 'p' });
    attr('type', { type: 'string', value: tiled ? 'tiledimage' : 'scanlineimage' });
    attr('chunkCount', { type: 'int', value: o.multipartChunkCount! });
  }
  o.extra?.(w);
  w.u8(0);
  if (multipart) w.u8(0);
  for (let i = 0; i < (o.offsets ?? 1); i++) w.u64(0);
  return w.finish();
}

/** A source that counts the bytes asked for: a reader must not ask for gigabytes because a header says so. */
function counting(bytes: Uint8Array): ByteSource & { maxRequest: number } {
  const inner = memorySource(bytes);
  const s = {
    sizeBytes: inner.sizeBytes,
    maxRequest: 0,
    readAt(offset: number, length: number) {
      s.maxRequest = Math.max(s.maxRequest, length);
      if (offset + length > bytes.length) throw new ExrError('io', 'read past the end');
      return inner.readAt(offset, length);
    },
  };
  return s;
}

function refuses(bytes: Uint8Array, pattern: RegExp): void {
  const source = counting(bytes);
  let error: unknown;
  try {
    ExrReader.open(source);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ExrError);
  expect((error as ExrError).message).toMatch(pattern);
  expect(source.maxRequest).toBeLessThanOrEqual(Math.max(bytes.length, 256 * 1024));
}

describe('hostile sizes', () => {
  it('accepts the well-formed baseline header', () => {
    const reader = ExrReader.open(memorySource(header()));
    expect(reader.parts[0]!.widthPx).toBe(16);
  });

  it('refuses a data window of 2^31 pixels', () => {
    refuses(header({ dataWindow: [0, 0, 65535, 32767] }), /larger than the limit/);
  });

  it('refuses a data window whose extent overflows 32 bits', () => {
    refuses(header({ dataWindow: [-2147483647, 0, 2147483647, 0] }), /out of range/);
  });

  it('refuses a chunk count of a billion that the file cannot hold', () => {
    refuses(header({ dataWindow: [0, 0, 0, 999_999_999 - 1], tiles: undefined }), /larger than the limit|too small for its/);
    refuses(header({ dataWindow: [0, 0, 31_622, 31_622], tiles: { x: 1, y: 1, mode: 0 } }), /too small for its/);
    refuses(header({ multipartChunkCount: 1_000_000_000 }), /chunkCount attribute says/);
  });

  it('refuses a 4 GB attribute before slicing it', () => {
    const bytes = header({
      extra: (w) => {
        w.cString('huge').cString('string').u32(0xfffffff0);
      },
    });
    refuses(bytes, /claims/);
  });

  it('refuses 1x1-pixel tiles of a huge MIP pyramid by the offsets the file would need', () => {
    refuses(header({ dataWindow: [0, 0, 20_000, 20_000], tiles: { x: 1, y: 1, mode: 1 } }), /too small for its/);
  });
});

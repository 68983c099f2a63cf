// Header attribute values: every standard OpenEXR attribute type decoded; unknown types kept as raw bytes.

import { ByteReader, latin1 } from './bytes.js';
import { invalid } from './core/errors.js';
import { COMPRESSIONS, PIXEL_TYPES, type Box2i, type Channel, type Compression } from './core/types.js';

export type LineOrder = 'increasingY' | 'decreasingY' | 'randomY';
export const LINE_ORDERS: readonly LineOrder[] = ['increasingY', 'decreasingY', 'randomY'];
export type LevelMode = 'oneLevel' | 'mipmapLevels' | 'ripmapLevels';
export type LevelRoundingMode = 'roundDown' | 'roundUp';

export interface TileDescription {
  xSizePx: number;
  ySizePx: number;
  levelMode: LevelMode;
  roundingMode: LevelRoundingMode;
}

export interface Box2f {
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

export interface Chromaticities {
  red: [number, number];
  green: [number, number];
  blue: [number, number];
  white: [number, number];
}

export interface Preview {
  widthPx: number;
  heightPx: number;
  /** RGBA, 8 bits per component, top row first. */
  rgba: Uint8Array;
}

export interface KeyCode {
  filmMfcCode: number;
  filmType: number;
  prefix: number;
  count: number;
  perfOffset: number;
  perfsPerFrame: number;
  perfsPerCount: number;
}

export interface TimeCode {
  timeAndFlags: number;
  userData: number;
}

export type AttributeValue =
  | { type: 'box2i'; value: Box2i }
  | { type: 'box2f'; value: Box2f }
  | { type: 'chlist'; value: Channel[] }
  | { type: 'chromaticities'; value: Chromaticities }
  | { type: 'compression'; value: Compression | number }
  | { type: 'double'; value: number }
  | { type: 'envmap'; value: number }
  | { type: 'float'; value: number }
  | { type: 'int'; value: number }
  | { type: 'keycode'; value: KeyCode }
  | { type: 'lineOrder'; value: LineOrder | number }
  | { type: 'm33f' | 'm44f' | 'm33d' | 'm44d'; value: number[] }
  | { type: 'preview'; value: Preview }
  | { type: 'rational'; value: { numerator: number; denominator: number } }
  | { type: 'string'; value: string }
  | { type: 'stringvector'; value: string[] }
  | { type: 'floatvector'; value: number[] }
  | { type: 'tiledesc'; value: TileDescription }
  | { type: 'timecode'; value: TimeCode }
  | { type: 'v2i' | 'v2f' | 'v2d'; value: [number, number] }
  | { type: 'v3i' | 'v3f' | 'v3d'; value: [number, number, number] }
  | { type: 'deepImageState'; value: number }
  | { type: 'unknown'; typeName: string; value: Uint8Array };

export interface Attribute {
  name: string;
  typeName: string;
  value: AttributeValue;
}

/** Longest channel name we accept (OpenEXR allows 255 with long names). */
const MAX_NAME_BYTES = 255;

/** Decodes one attribute's value from exactly `size` bytes. */
export function decodeAttributeValue(typeName: string, bytes: Uint8Array): AttributeValue {
  // most of a render's metadata; a string needs no reader (every decode worker parses every header it opens)
  if (typeName === 'string') return { type: 'string', value: latin1(bytes) };
  const r = new ByteReader(bytes);
  const value = decodeByType(typeName, r, bytes);
  return value;
}

function fixed<T>(r: ByteReader, size: number, expected: number, typeName: string, read: () => T): T {
  if (size < expected) throw invalid(`attribute of type ${typeName} holds ${size} bytes, expected ${expected}`);
  return read();
}

function decodeByType(typeName: string, r: ByteReader, bytes: Uint8Array): AttributeValue {
  const size = bytes.length;
  switch (typeName) {
    case 'box2i':
      return fixed(r, size, 16, typeName, () => ({
        type: 'box2i' as const,
        value: { xMin: r.i32Le(), yMin: r.i32Le(), xMax: r.i32Le(), yMax: r.i32Le() },
      }));
    case 'box2f':
      return fixed(r, size, 16, typeName, () => ({
        type: 'box2f' as const,
        value: { xMin: r.f32Le(), yMin: r.f32Le(), xMax: r.f32Le(), yMax: r.f32Le() },
      }));
    case 'chlist':
      return { type: 'chlist', value: decodeChannelList(r) };
    case 'chromaticities':
      return fixed(r, size, 32, typeName, () => ({
        type: 'chromaticities' as const,
        value: {
          red: [r.f32Le(), r.f32Le()] as [number, number],
          green: [r.f32Le(), r.f32Le()] as [number, number],
          blue: [r.f32Le(), r.f32Le()] as [number, number],
          white: [r.f32Le(), r.f32Le()] as [number, number],
        },
      }));
    case 'compression':
      return fixed(r, size, 1, typeName, () => {
        const code = r.u8();
        return { type: 'compression' as const, value: COMPRESSIONS[code] ?? code };
      });
    case 'double':
      return fixed(r, size, 8, typeName, () => ({ type: 'double' as const, value: r.f64Le() }));
    case 'envmap':
      return fixed(r, size, 1, typeName, () => ({ type: 'envmap' as const, value: r.u8() }));
    case 'float':
      return fixed(r, size, 4, typeName, () => ({ type: 'float' as const, value: r.f32Le() }));
    case 'int':
      return fixed(r, size, 4, typeName, () => ({ type: 'int' as const, value: r.i32Le() }));
    case 'keycode':
      return fixed(r, size, 28, typeName, () => ({
        type: 'keycode' as const,
        value: {
          filmMfcCode: r.i32Le(),
          filmType: r.i32Le(),
          prefix: r.i32Le(),
          count: r.i32Le(),
          perfOffset: r.i32Le(),
          perfsPerFrame: r.i32Le(),
          perfsPerCount: r.i32Le(),
        },
      }));
    case 'lineOrder':
      return fixed(r, size, 1, typeName, () => {
        const code = r.u8();
        return { type: 'lineOrder' as const, value: LINE_ORDERS[code] ?? code };
      });
    case 'm33f':
    case 'm44f':
    case 'm33d':
    case 'm44d': {
      const count = typeName[1] === '3' ? 9 : 16;
      const isDouble = typeName[3] === 'd';
      return fixed(r, size, count * (isDouble ? 8 : 4), typeName, () => ({
        type: typeName,
        value: Array.from({ length: count }, () => (isDouble ? r.f64Le() : r.f32Le())),
      }));
    }
    case 'preview': {
      const widthPx = r.u32Le('preview width');
      const heightPx = r.u32Le('preview height');
      const byteCount = widthPx * heightPx * 4;
      if (byteCount !== size - 8) {
        throw invalid(`preview of ${widthPx}x${heightPx} pixels needs ${byteCount} bytes, attribute holds ${size - 8}`);
      }
      return { type: 'preview', value: { widthPx, heightPx, rgba: r.bytesOf(byteCount, 'preview pixels').slice() } };
    }
    case 'rational':
      return fixed(r, size, 8, typeName, () => ({
        type: 'rational' as const,
        value: { numerator: r.i32Le(), denominator: r.u32Le() },
      }));
    case 'string':
      return { type: 'string', value: latin1(bytes) };
    case 'stringvector': {
      const strings: string[] = [];
      while (r.remaining > 0) {
        const length = r.i32Le('string length');
        if (length < 0 || length > r.remaining) throw invalid('stringvector entry runs past the attribute');
        strings.push(latin1(r.bytesOf(length, 'string')));
      }
      return { type: 'stringvector', value: strings };
    }
    case 'floatvector': {
      if (size % 4 !== 0) throw invalid('floatvector attribute size is not a multiple of 4');
      return { type: 'floatvector', value: Array.from({ length: size / 4 }, () => r.f32Le()) };
    }
    case 'tiledesc':
      return fixed(r, size, 9, typeName, () => {
        const xSizePx = r.u32Le();
        const ySizePx = r.u32Le();
        const mode = r.u8();
        const levelCode = mode & 0x0f;
        const roundingCode = mode >> 4;
        const levelMode: LevelMode | undefined = (['oneLevel', 'mipmapLevels', 'ripmapLevels'] as const)[levelCode];
        const roundingMode: LevelRoundingMode | undefined = (['roundDown', 'roundUp'] as const)[roundingCode];
        if (!levelMode) throw invalid(`unknown tile level mode ${levelCode}`);
        if (!roundingMode) throw invalid(`unknown tile level rounding mode ${roundingCode}`);
        return { type: 'tiledesc' as const, value: { xSizePx, ySizePx, levelMode, roundingMode } };
      });
    case 'timecode':
      return fixed(r, size, 8, typeName, () => ({
        type: 'timecode' as const,
        value: { timeAndFlags: r.u32Le(), userData: r.u32Le() },
      }));
    case 'v2i':
      return fixed(r, size, 8, typeName, () => ({ type: 'v2i' as const, value: [r.i32Le(), r.i32Le()] as [number, number] }));
    case 'v2f':
      return fixed(r, size, 8, typeName, () => ({ type: 'v2f' as const, value: [r.f32Le(), r.f32Le()] as [number, number] }));
    case 'v2d':
      return fixed(r, size, 16, typeName, () => ({ type: 'v2d' as const, value: [r.f64Le(), r.f64Le()] as [number, number] }));
    case 'v3i':
      return fixed(r, size, 12, typeName, () => ({
        type: 'v3i' as const,
        value: [r.i32Le(), r.i32Le(), r.i32Le()] as [number, number, number],
      }));
    case 'v3f':
      return fixed(r, size, 12, typeName, () => ({
        type: 'v3f' as const,
        value: [r.f32Le(), r.f32Le(), r.f32Le()] as [number, number, number],
      }));
    case 'v3d':
      return fixed(r, size, 24, typeName, () => ({
        type: 'v3d' as const,
        value: [r.f64Le(), r.f64Le(), r.f64Le()] as [number, number, number],
      }));
    case 'deepImageState':
      return fixed(r, size, 1, typeName, () => ({ type: 'deepImageState' as const, value: r.u8() }));
    default:
      return { type: 'unknown', typeName, value: bytes.slice() };
  }
}

function decodeChannelList(r: ByteReader): Channel[] {
  const channels: Channel[] = [];
  for (;;) {
    const name = r.cString(MAX_NAME_BYTES, 'channel name');
    if (name === '') break;
    const typeCode = r.i32Le('channel pixel type');
    const pLinear = r.u8('channel pLinear') !== 0;
    r.bytesOf(3, 'channel reserved bytes');
    const xSampling = r.i32Le('channel x sampling');
    const ySampling = r.i32Le('channel y sampling');
    const pixelType = PIXEL_TYPES[typeCode];
    if (!pixelType) throw invalid(`channel "${name}" has unknown pixel type ${typeCode}`);
    channels.push({ name, pixelType, pLinear, xSampling, ySampling });
  }
  return channels;
}

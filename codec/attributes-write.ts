// Header attribute encoding: the inverse of attributes.ts, for every attribute type it decodes.

import type { AttributeValue, LevelMode, LevelRoundingMode } from './attributes.js';
import { LINE_ORDERS } from './attributes.js';
import { ByteWriter, utf8Bytes } from './byte-writer.js';
import { invalid } from './core/errors.js';
import { COMPRESSIONS, PIXEL_TYPES, type Channel } from './core/types.js';

const LEVEL_MODES: readonly LevelMode[] = ['oneLevel', 'mipmapLevels', 'ripmapLevels'];
const ROUNDING_MODES: readonly LevelRoundingMode[] = ['roundDown', 'roundUp'];

/** The type name an attribute value is stored under. */
export function attributeTypeName(value: AttributeValue): string {
  return value.type === 'unknown' ? value.typeName : value.type;
}

/** Encodes one attribute: name, type name, size, value. */
export function encodeAttribute(out: ByteWriter, name: string, value: AttributeValue): void {
  const bytes = encodeAttributeValue(value);
  out.cString(name).cString(attributeTypeName(value)).i32(bytes.length).bytes(bytes);
}

/** The value bytes of an attribute, exactly as attributes.ts reads them back. */
export function encodeAttributeValue(attribute: AttributeValue): Uint8Array {
  const w = new ByteWriter(64);
  switch (attribute.type) {
    case 'box2i': {
      const b = attribute.value;
      w.i32(b.xMin).i32(b.yMin).i32(b.xMax).i32(b.yMax);
      break;
    }
    case 'box2f': {
      const b = attribute.value;
      w.f32(b.xMin).f32(b.yMin).f32(b.xMax).f32(b.yMax);
      break;
    }
    case 'chlist':
      encodeChannelList(w, attribute.value);
      break;
    case 'chromaticities': {
      const c = attribute.value;
      for (const [x, y] of [c.red, c.green, c.blue, c.white]) w.f32(x).f32(y);
      break;
    }
    case 'compression':
      w.u8(typeof attribute.value === 'number' ? attribute.value : code(COMPRESSIONS, attribute.value, 'compression'));
      break;
    case 'double':
      w.f64(attribute.value);
      break;
    case 'envmap':
    case 'deepImageState':
      w.u8(attribute.value);
      break;
    case 'float':
      w.f32(attribute.value);
      break;
    case 'int':
      w.i32(attribute.value);
      break;
    case 'keycode': {
      const k = attribute.value;
      for (const v of [k.filmMfcCode, k.filmType, k.prefix, k.count, k.perfOffset, k.perfsPerFrame, k.perfsPerCount]) w.i32(v);
      break;
    }
    case 'lineOrder':
      w.u8(typeof attribute.value === 'number' ? attribute.value : code(LINE_ORDERS, attribute.value, 'line order'));
      break;
    case 'm33f':
    case 'm44f':
    case 'm33d':
    case 'm44d': {
      const count = attribute.type[1] === '3' ? 9 : 16;
      if (attribute.value.length !== count) throw invalid(`${attribute.type} needs ${count} values, got ${attribute.value.length}`);
      const isDouble = attribute.type[3] === 'd';
      for (const v of attribute.value) {
        if (isDouble) w.f64(v);
        else w.f32(v);
      }
      break;
    }
    case 'preview': {
      const p = attribute.value;
      if (p.rgba.length !== p.widthPx * p.heightPx * 4) {
        throw invalid(`preview of ${p.widthPx}x${p.heightPx} pixels needs ${p.widthPx * p.heightPx * 4} bytes, got ${p.rgba.length}`);
      }
      w.u32(p.widthPx).u32(p.heightPx).bytes(p.rgba);
      break;
    }
    case 'rational':
      w.i32(attribute.value.numerator).u32(attribute.value.denominator);
      break;
    case 'string':
      w.bytes(utf8Bytes(attribute.value));
      break;
    case 'stringvector':
      for (const s of attribute.value) {
        const bytes = utf8Bytes(s);
        w.i32(bytes.length).bytes(bytes);
      }
      break;
    case 'floatvector':
      for (const v of attribute.value) w.f32(v);
      break;
    case 'tiledesc': {
      const t = attribute.value;
      const mode = code(LEVEL_MODES, t.levelMode, 'level mode') | (code(ROUNDING_MODES, t.roundingMode, 'rounding mode') << 4);
      w.u32(t.xSizePx).u32(t.ySizePx).u8(mode);
      break;
    }
    case 'timecode':
      w.u32(attribute.value.timeAndFlags).u32(attribute.value.userData);
      break;
    case 'v2i':
    case 'v3i':
      for (const v of attribute.value) w.i32(v);
      break;
    case 'v2f':
    case 'v3f':
      for (const v of attribute.value) w.f32(v);
      break;
    case 'v2d':
    case 'v3d':
      for (const v of attribute.value) w.f64(v);
      break;
    case 'unknown':
      w.bytes(attribute.value);
      break;
  }
  return w.finish();
}

function code<T>(table: readonly T[], value: T, what: string): number {
  const index = table.indexOf(value);
  if (index < 0) throw invalid(`unknown ${what} ${String(value)}`);
  return index;
}

function encodeChannelList(w: ByteWriter, channels: readonly Channel[]): void {
  for (const ch of channels) {
    if (ch.name === '') throw invalid('a channel needs a name');
    w.cString(ch.name)
      .i32(code(PIXEL_TYPES, ch.pixelType, 'pixel type'))
      .u8(ch.pLinear ? 1 : 0)
      .u8(0)
      .u8(0)
      .u8(0)
      .i32(ch.xSampling)
      .i32(ch.ySampling);
  }
  w.u8(0);
}

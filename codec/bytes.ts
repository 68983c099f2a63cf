// Bounds-checked little-endian reads over a byte array: every read past the end is an `invalid` error.

import { invalid } from './core/errors.js';

export class ByteReader {
  readonly view: DataView;
  byteOffset: number;

  constructor(
    readonly bytes: Uint8Array,
    byteOffset = 0,
    /** Exclusive end of the readable range. */
    readonly endByte = bytes.length,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.byteOffset = byteOffset;
  }

  get remaining(): number {
    return this.endByte - this.byteOffset;
  }

  need(byteCount: number, what: string): void {
    if (byteCount < 0 || this.byteOffset + byteCount > this.endByte) {
      throw invalid(`unexpected end of data reading ${what}`);
    }
  }

  u8(what = 'a byte'): number {
    this.need(1, what);
    return this.bytes[this.byteOffset++]!;
  }

  i32Le(what = 'an int'): number {
    this.need(4, what);
    const v = this.view.getInt32(this.byteOffset, true);
    this.byteOffset += 4;
    return v;
  }

  u32Le(what = 'an unsigned int'): number {
    this.need(4, what);
    const v = this.view.getUint32(this.byteOffset, true);
    this.byteOffset += 4;
    return v;
  }

  /** A 64-bit unsigned value; anything at or above 2^53 is returned as Infinity (never a valid size or offset). */
  u64Le(what = 'a 64-bit value'): number {
    this.need(8, what);
    const low = this.view.getUint32(this.byteOffset, true);
    const high = this.view.getUint32(this.byteOffset + 4, true);
    this.byteOffset += 8;
    return high >= 0x200000 ? Infinity : high * 0x100000000 + low;
  }

  /** A 64-bit signed value, as a number; out of the safe range it is ±Infinity. */
  i64Le(what = 'a 64-bit value'): number {
    this.need(8, what);
    const low = this.view.getUint32(this.byteOffset, true);
    const high = this.view.getInt32(this.byteOffset + 4, true);
    this.byteOffset += 8;
    if (high >= 0x200000) return Infinity;
    if (high < -0x200000) return -Infinity;
    return high * 0x100000000 + low;
  }

  f32Le(what = 'a float'): number {
    this.need(4, what);
    const v = this.view.getFloat32(this.byteOffset, true);
    this.byteOffset += 4;
    return v;
  }

  f64Le(what = 'a double'): number {
    this.need(8, what);
    const v = this.view.getFloat64(this.byteOffset, true);
    this.byteOffset += 8;
    return v;
  }

  bytesOf(byteCount: number, what: string): Uint8Array {
    this.need(byteCount, what);
    const out = this.bytes.subarray(this.byteOffset, this.byteOffset + byteCount);
    this.byteOffset += byteCount;
    return out;
  }

  /** A NUL-terminated string of at most maxLength bytes (names in headers). */
  cString(maxLength: number, what: string): string {
    const start = this.byteOffset;
    const limit = Math.min(this.endByte, start + maxLength + 1);
    for (let i = start; i < limit; i++) {
      if (this.bytes[i] === 0) {
        this.byteOffset = i + 1;
        return latin1(this.bytes.subarray(start, i));
      }
    }
    if (limit === this.endByte && limit - start <= maxLength) throw invalid(`unexpected end of data reading ${what}`);
    throw invalid(`${what} is longer than ${maxLength} bytes`);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** Header strings are UTF-8 in practice (OpenEXR stores bytes); decode leniently. */
export function latin1(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

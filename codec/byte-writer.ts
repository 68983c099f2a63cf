// A growable little-endian byte buffer: the writer's mirror of ByteReader.

export class ByteWriter {
  private buffer: Uint8Array;
  private view: DataView;
  byteLength = 0;

  constructor(initialBytes = 1024) {
    this.buffer = new Uint8Array(Math.max(16, initialBytes));
    this.view = new DataView(this.buffer.buffer);
  }

  private reserve(byteCount: number): number {
    const at = this.byteLength;
    const needed = at + byteCount;
    if (needed > this.buffer.length) {
      let size = this.buffer.length * 2;
      while (size < needed) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(this.buffer.subarray(0, at));
      this.buffer = grown;
      this.view = new DataView(grown.buffer);
    }
    this.byteLength = needed;
    return at;
  }

  u8(value: number): this {
    const at = this.reserve(1); // before reading this.buffer: reserve may replace it
    this.buffer[at] = value & 0xff;
    return this;
  }

  i32(value: number): this {
    const at = this.reserve(4);
    this.view.setInt32(at, value, true);
    return this;
  }

  u32(value: number): this {
    const at = this.reserve(4);
    this.view.setUint32(at, value, true);
    return this;
  }

  /** A non-negative integer below 2^53 as an unsigned 64-bit value. */
  u64(value: number): this {
    const at = this.reserve(8);
    this.view.setUint32(at, value % 0x100000000, true);
    this.view.setUint32(at + 4, Math.floor(value / 0x100000000), true);
    return this;
  }

  f32(value: number): this {
    const at = this.reserve(4);
    this.view.setFloat32(at, value, true);
    return this;
  }

  f64(value: number): this {
    const at = this.reserve(8);
    this.view.setFloat64(at, value, true);
    return this;
  }

  bytes(bytes: Uint8Array): this {
    const at = this.reserve(bytes.length);
    this.buffer.set(bytes, at);
    return this;
  }

  /** UTF-8 bytes followed by a NUL. */
  cString(text: string): this {
    return this.bytes(utf8Bytes(text)).u8(0);
  }

  /** Overwrites 8 bytes at byteOffset (offset tables are filled in after the chunks are placed). */
  patchU64(byteOffset: number, value: number): void {
    this.view.setUint32(byteOffset, value % 0x100000000, true);
    this.view.setUint32(byteOffset + 4, Math.floor(value / 0x100000000), true);
  }

  /** The bytes written so far (a copy, trimmed to length). */
  finish(): Uint8Array {
    return this.buffer.slice(0, this.byteLength);
  }
}

const encoder = new TextEncoder();

export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

// Decodes one whole tev packet (its 4-byte length included) into a typed value; every count and size is checked
// against the limits before anything is allocated for it, and every failure is a TevProtocolError.

import {
  DEFAULT_TEV_LIMITS,
  TEV_PACKET_TYPE as T,
  TevProtocolError,
  type TevLimits,
  type TevPacket,
  type TevUpdateChannel,
  type TevUpdateImage,
  type TevVectorCommand,
} from './packet.js';
import { VECTOR_COMMANDS } from './vector-commands.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads fields front to back, as tev's `IpcPacket::IStream` does (little-endian, strings NUL-terminated). */
class FieldReader {
  private at = 0;
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    private readonly limits: TevLimits,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get offset(): number {
    return this.at;
  }
  get remaining(): number {
    return this.bytes.length - this.at;
  }

  private need(n: number, what: string): void {
    if (this.remaining < n) throw new TevProtocolError('truncated', `the packet ends inside ${what}`);
  }

  u8(what: string): number {
    this.need(1, what);
    return this.bytes[this.at++]!;
  }
  bool(what: string): boolean {
    return this.u8(what) === 1;
  }
  i32(what: string): number {
    this.need(4, what);
    const v = this.view.getInt32(this.at, true);
    this.at += 4;
    return v;
  }
  /** An int64 that must be 0 or more and fit a double exactly. */
  count64(what: string): number {
    this.need(8, what);
    const v = this.view.getBigInt64(this.at, true);
    this.at += 8;
    if (v < 0n || v > BigInt(Number.MAX_SAFE_INTEGER)) throw new TevProtocolError('bad-layout', `${what} is ${v}: it must be 0 or more`);
    return Number(v);
  }
  f32(what: string): number {
    this.need(4, what);
    const v = this.view.getFloat32(this.at, true);
    this.at += 4;
    return v;
  }
  string(what: string): string {
    const end = this.bytes.indexOf(0, this.at);
    if (end < 0) throw new TevProtocolError('truncated', `the packet ends inside ${what} (no terminating NUL)`);
    if (end - this.at > this.limits.maxStringBytes) {
      throw new TevProtocolError(
        'string-too-long',
        `${what} is ${end - this.at} bytes, more than the ${this.limits.maxStringBytes} allowed`,
      );
    }
    let text: string;
    try {
      text = utf8.decode(this.bytes.subarray(this.at, end));
    } catch {
      throw new TevProtocolError('bad-string', `${what} is not UTF-8`);
    }
    this.at = end + 1;
    return text;
  }
}

/** A count read from the packet (channels, commands), checked before an array of that many is made. */
function checkedCount(n: number, max: number, what: string): number {
  if (n < 0) throw new TevProtocolError('bad-size', `${what} is ${n}: it must be 0 or more`);
  if (n > max) throw new TevProtocolError('too-many-channels', `${what} is ${n}, more than the ${max} allowed`);
  return n;
}

function checkedArea(widthPx: number, heightPx: number, channels: number, limits: TevLimits, what: string, minPx: number): number {
  if (widthPx < minPx || heightPx < minPx) {
    throw new TevProtocolError('bad-size', `${what} is ${widthPx}×${heightPx} pixels: each side must be ${minPx} or more`);
  }
  const samples = widthPx * heightPx * channels;
  if (samples > limits.maxSamples) {
    throw new TevProtocolError(
      'too-many-samples',
      `${what} is ${widthPx}×${heightPx} pixels × ${channels} channels, more than the ${limits.maxSamples} samples allowed`,
    );
  }
  return widthPx * heightPx;
}

function names(r: FieldReader, n: number, what: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(r.string(`${what} ${i}`));
  if (new Set(out).size !== out.length) throw new TevProtocolError('bad-layout', `${what}s repeat a name`);
  return out;
}

function updateImage(r: FieldReader, type: number, limits: TevLimits): TevUpdateImage {
  const grabFocus = r.bool('grabFocus');
  const name = r.string('the image name');
  const nChannels = type === T.updateImage ? 1 : checkedCount(r.i32('the channel count'), limits.maxChannels, 'the channel count');
  if (nChannels === 0) throw new TevProtocolError('bad-size', 'an update must name at least one channel');
  const channelNames = names(r, nChannels, 'channel name');
  const x = r.i32('x');
  const y = r.i32('y');
  const widthPx = r.i32('the width');
  const heightPx = r.i32('the height');
  if (x < 0 || y < 0) throw new TevProtocolError('bad-size', `the update's corner (${x}, ${y}) is outside the image`);
  const pixels = checkedArea(widthPx, heightPx, nChannels, limits, 'the update', 0);
  const channels: TevUpdateChannel[] = channelNames.map((n, i) => ({ name: n, offset: pixels * i, stride: 1 }));
  if (type === T.updateImageV3) {
    for (const c of channels) c.offset = r.count64(`channel ${c.name}'s offset`);
    for (const c of channels) c.stride = r.count64(`channel ${c.name}'s stride`);
  }
  let floats = 0;
  if (pixels > 0) for (const c of channels) floats = Math.max(floats, c.offset + (pixels - 1) * c.stride + 1);
  if (floats * 4 > r.remaining) {
    throw new TevProtocolError(
      'truncated',
      `the update needs ${floats} floats of pixel data (its size, offsets and strides), the packet holds ${Math.floor(r.remaining / 4)}`,
    );
  }
  const start = r.bytes.byteOffset + r.offset;
  // a view when the floats lie 4-aligned in the packet's buffer; else one copy (never more than the packet holds)
  const data =
    start % 4 === 0
      ? new Float32Array(r.bytes.buffer, start, floats)
      : new Float32Array(r.bytes.slice(r.offset, r.offset + floats * 4).buffer);
  return { type: 'update-image', grabFocus, name, x, y, widthPx, heightPx, channels, data };
}

function vectorGraphics(r: FieldReader, limits: TevLimits): TevPacket {
  const grabFocus = r.bool('grabFocus');
  const name = r.string('the image name');
  const append = r.bool('append');
  const n = r.i32('the command count');
  if (n < 0 || n > limits.maxVectorCommands) {
    throw new TevProtocolError('bad-size', `the command count is ${n}: it must be 0 to ${limits.maxVectorCommands}`);
  }
  // each command takes at least its type byte: a count the packet cannot hold is refused before the list grows
  if (n > r.remaining) throw new TevProtocolError('truncated', `${n} commands cannot fit in the ${r.remaining} bytes left`);
  const commands: TevVectorCommand[] = [];
  for (let i = 0; i < n; i++) {
    const byte = r.u8(`command ${i}`);
    const shape = VECTOR_COMMANDS.get(byte);
    if (!shape) throw new TevProtocolError('bad-vector-command', `command ${i} has the unknown type ${byte}`);
    const values: number[] = [];
    for (let k = 0; k < shape.floats; k++) values.push(r.f32(`command ${i} (${shape.kind})`));
    commands.push(shape.hasText ? { kind: shape.kind, values, text: r.string(`command ${i}'s text`) } : { kind: shape.kind, values });
  }
  return { type: 'vector-graphics', grabFocus, name, append, commands };
}

/** OpenImage v1 names "path:channels" in one string; a colon right after a drive letter is part of the path. */
function splitPathAndChannels(s: string): { path: string; channelSelector: string } {
  const colon = s.lastIndexOf(':');
  if (colon < 0 || (colon === 1 && s.length >= 3 && (s[2] === '\\' || s[2] === '/'))) return { path: s, channelSelector: '' };
  return { path: s.slice(0, colon), channelSelector: s.slice(colon + 1) };
}

/** `bytes` is one whole packet: its length field must equal its size. */
export function parseTevPacket(bytes: Uint8Array, limits: TevLimits = DEFAULT_TEV_LIMITS): TevPacket {
  if (bytes.length < 5) throw new TevProtocolError('packet-too-small', `a packet is at least 5 bytes, this one ${bytes.length}`);
  if (bytes.length > limits.maxPacketBytes) {
    throw new TevProtocolError('packet-too-large', `the packet is ${bytes.length} bytes, more than the ${limits.maxPacketBytes} allowed`);
  }
  const r = new FieldReader(bytes, limits);
  const length = r.i32('the length') >>> 0;
  if (length !== bytes.length) throw new TevProtocolError('bad-size', `the packet says it is ${length} bytes but is ${bytes.length}`);
  const type = r.u8('the type');
  switch (type) {
    case T.openImage:
    case T.openImageV2: {
      const grabFocus = r.bool('grabFocus');
      const first = r.string('the image path');
      if (type === T.openImage) return { type: 'open-image', grabFocus, ...splitPathAndChannels(first) };
      return { type: 'open-image', grabFocus, path: first, channelSelector: r.string('the channel selector') };
    }
    case T.reloadImage: {
      const grabFocus = r.bool('grabFocus');
      return { type: 'reload-image', grabFocus, name: r.string('the image name') };
    }
    case T.closeImage:
      return { type: 'close-image', name: r.string('the image name') };
    case T.createImage: {
      const grabFocus = r.bool('grabFocus');
      const name = r.string('the image name');
      const widthPx = r.i32('the width');
      const heightPx = r.i32('the height');
      const n = checkedCount(r.i32('the channel count'), limits.maxChannels, 'the channel count');
      if (n === 0) throw new TevProtocolError('bad-size', 'an image must have at least one channel');
      checkedArea(widthPx, heightPx, n, limits, 'the image', 1);
      return { type: 'create-image', grabFocus, name, widthPx, heightPx, channelNames: names(r, n, 'channel name') };
    }
    case T.updateImage:
    case T.updateImageV2:
    case T.updateImageV3:
      return updateImage(r, type, limits);
    case T.vectorGraphics:
      return vectorGraphics(r, limits);
    default:
      throw new TevProtocolError('unknown-type', `unknown packet type ${type} (tev's types are 0 to 8)`);
  }
}

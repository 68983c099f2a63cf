// A tev client written from tev's protocol (Tom94/tev, src/Ipc.cpp): encodes every packet type, and sends them over TCP.

import { connect, type Socket } from 'node:net';

export const PACKET = {
  openImage: 0,
  reloadImage: 1,
  closeImage: 2,
  updateImage: 3,
  createImage: 4,
  updateImageV2: 5,
  updateImageV3: 6,
  openImageV2: 7,
  vectorGraphics: 8,
} as const;

/** Fields in order, little-endian; the packet's first 4 bytes are its whole length. */
export class PacketWriter {
  private parts: Uint8Array[] = [];
  private size = 4;

  constructor(type: number) {
    this.u8(type);
  }
  private push(bytes: Uint8Array): this {
    this.parts.push(bytes);
    this.size += bytes.length;
    return this;
  }
  u8(v: number): this {
    return this.push(Uint8Array.of(v));
  }
  bool(v: boolean): this {
    return this.u8(v ? 1 : 0);
  }
  i32(v: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, v, true);
    return this.push(b);
  }
  i64(v: number | bigint): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigInt64(0, BigInt(v), true);
    return this.push(b);
  }
  string(s: string): this {
    const bytes = new TextEncoder().encode(s);
    const b = new Uint8Array(bytes.length + 1);
    b.set(bytes);
    return this.push(b);
  }
  floats(values: ArrayLike<number>): this {
    const f = Float32Array.from(values);
    return this.push(new Uint8Array(f.buffer));
  }
  /** The packet; `lengthField` overrides the length it states (for tests of lying packets). */
  bytes(lengthField?: number): Uint8Array {
    const out = new Uint8Array(this.size);
    new DataView(out.buffer).setUint32(0, lengthField ?? this.size, true);
    let at = 4;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

export const openImageV1 = (pathAndChannels: string, grabFocus = true): Uint8Array =>
  new PacketWriter(PACKET.openImage).bool(grabFocus).string(pathAndChannels).bytes();

export const openImage = (path: string, channelSelector = '', grabFocus = true): Uint8Array =>
  new PacketWriter(PACKET.openImageV2).bool(grabFocus).string(path).string(channelSelector).bytes();

export const reloadImage = (name: string, grabFocus = true): Uint8Array =>
  new PacketWriter(PACKET.reloadImage).bool(grabFocus).string(name).bytes();

export const closeImage = (name: string): Uint8Array => new PacketWriter(PACKET.closeImage).string(name).bytes();

export function createImage(name: string, widthPx: number, heightPx: number, channelNames: string[], grabFocus = true): Uint8Array {
  const w = new PacketWriter(PACKET.createImage).bool(grabFocus).string(name).i32(widthPx).i32(heightPx).i32(channelNames.length);
  for (const c of channelNames) w.string(c);
  return w.bytes();
}

export interface Tile {
  x: number;
  y: number;
  widthPx: number;
  heightPx: number;
}

/** v1: one channel, its samples row by row. */
export function updateImageV1(name: string, channel: string, tile: Tile, samples: ArrayLike<number>, grabFocus = false): Uint8Array {
  return new PacketWriter(PACKET.updateImage)
    .bool(grabFocus)
    .string(name)
    .string(channel)
    .i32(tile.x)
    .i32(tile.y)
    .i32(tile.widthPx)
    .i32(tile.heightPx)
    .floats(samples)
    .bytes();
}

/** v2: several channels, one plane after another. */
export function updateImageV2(name: string, channels: string[], tile: Tile, planar: ArrayLike<number>, grabFocus = false): Uint8Array {
  const w = new PacketWriter(PACKET.updateImageV2).bool(grabFocus).string(name).i32(channels.length);
  for (const c of channels) w.string(c);
  return w.i32(tile.x).i32(tile.y).i32(tile.widthPx).i32(tile.heightPx).floats(planar).bytes();
}

/** v3: each channel's samples at `offset + i * stride` of `data` (interleaved RGBA: offsets 0..3, stride 4). */
export function updateImageV3(
  name: string,
  channels: { name: string; offset: number; stride: number }[],
  tile: Tile,
  data: ArrayLike<number>,
  grabFocus = false,
): Uint8Array {
  const w = new PacketWriter(PACKET.updateImageV3).bool(grabFocus).string(name).i32(channels.length);
  for (const c of channels) w.string(c.name);
  w.i32(tile.x).i32(tile.y).i32(tile.widthPx).i32(tile.heightPx);
  for (const c of channels) w.i64(c.offset);
  for (const c of channels) w.i64(c.stride);
  return w.floats(data).bytes();
}

/** Vector commands by tev's type byte, each with its floats and, for text (21) and font face (23), a string. */
export function vectorGraphics(
  name: string,
  commands: { type: number; values: number[]; text?: string }[],
  append = false,
  grabFocus = false,
): Uint8Array {
  const w = new PacketWriter(PACKET.vectorGraphics).bool(grabFocus).string(name).bool(append).i32(commands.length);
  for (const c of commands) {
    w.u8(c.type).floats(c.values);
    if (c.text !== undefined) w.string(c.text);
  }
  return w.bytes();
}

/** One connection to a listener: `send` resolves once the bytes are handed to the kernel. */
export class TevClient {
  private constructor(private readonly socket: Socket) {}

  static connect(port: number, host = '127.0.0.1'): Promise<TevClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host }, () => {
        socket.off('error', reject);
        // a listener that closes this connection resets it: that is an answer here, not a crash
        socket.on('error', () => {});
        socket.setNoDelay(true);
        resolve(new TevClient(socket));
      });
      socket.once('error', reject);
    });
  }

  get closed(): boolean {
    return this.socket.destroyed || this.socket.readableEnded;
  }

  /** Resolves when the listener closes this connection (or the timeout passes: false). */
  closedByPeer(timeoutMs: number): Promise<boolean> {
    if (this.socket.destroyed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), timeoutMs);
      this.socket.once('close', () => (clearTimeout(t), resolve(true)));
      this.socket.resume();
    });
  }

  send(...packets: Uint8Array[]): Promise<void> {
    return new Promise((resolve, reject) => {
      let left = packets.length;
      if (left === 0) resolve();
      for (const p of packets) this.socket.write(p, (error) => (error ? reject(error) : --left === 0 && resolve()));
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.end();
    });
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** Splits a w×h image into tiles of at most `tilePx` on a side, row by row. */
export function tilesOf(widthPx: number, heightPx: number, tilePx: number): Tile[] {
  const tiles: Tile[] = [];
  for (let y = 0; y < heightPx; y += tilePx)
    for (let x = 0; x < widthPx; x += tilePx)
      tiles.push({ x, y, widthPx: Math.min(tilePx, widthPx - x), heightPx: Math.min(tilePx, heightPx - y) });
  return tiles;
}

// Cuts a byte stream into tev packets as the bytes arrive, in any split: a packet's length is checked against the
// limit as soon as its 4 bytes are in, and its bytes are held only as they arrive (never allocated ahead of them).

import { DEFAULT_TEV_LIMITS, TevProtocolError, type TevLimits } from './packet.js';

export class PacketFramer {
  private chunks: Uint8Array[] = [];
  private held = 0;
  /** The current packet's length, once its first 4 bytes are in. */
  private expected: number | null = null;

  constructor(private readonly limits: TevLimits = DEFAULT_TEV_LIMITS) {}

  /** Bytes held for a packet not yet complete. */
  get heldBytes(): number {
    return this.held;
  }

  /** Takes the next bytes; returns the packets they complete, each one whole packet (length field included). */
  push(bytes: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    let rest = bytes;
    while (rest.length > 0) {
      const want = (this.expected ?? 4) - this.held;
      const take = rest.subarray(0, Math.min(want, rest.length));
      // a copy: the caller may reuse its buffer, and a packet must not pin a larger socket buffer
      this.chunks.push(take.slice());
      this.held += take.length;
      rest = rest.subarray(take.length);
      if (this.held < (this.expected ?? 4)) break;
      if (this.expected === null) {
        const head = this.joined();
        const length = new DataView(head.buffer, head.byteOffset, 4).getUint32(0, true);
        if (length < 5) throw new TevProtocolError('packet-too-small', `a packet is at least 5 bytes, this one says ${length}`);
        if (length > this.limits.maxPacketBytes) {
          throw new TevProtocolError(
            'packet-too-large',
            `a packet says it is ${length} bytes, more than the ${this.limits.maxPacketBytes} allowed`,
          );
        }
        this.expected = length;
        this.chunks = [head];
      } else {
        out.push(this.joined());
        this.chunks = [];
        this.held = 0;
        this.expected = null;
      }
    }
    return out;
  }

  private joined(): Uint8Array {
    if (this.chunks.length === 1) return this.chunks[0]!;
    const all = new Uint8Array(this.held);
    let at = 0;
    for (const c of this.chunks) {
      all.set(c, at);
      at += c.length;
    }
    return all;
  }
}

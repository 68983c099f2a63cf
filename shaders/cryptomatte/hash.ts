// Cryptomatte IDs: MurmurHash3_x86_32 (seed 0) of a name's UTF-8 bytes, as the 32-bit float the specification (v1.2) stores.

/** An ID as the bits of its float32: what the rank channels hold, what manifests write in hex, what mattes compare. */
export type CryptoId = number;

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;
const utf8 = new TextEncoder();

function mixBlock(k: number): number {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  return Math.imul(k, C2);
}

/** MurmurHash3_x86_32 of `bytes`, unsigned. */
export function murmur3x86_32(bytes: Uint8Array, seed = 0): number {
  let h = seed | 0;
  const tail = bytes.length & ~3;
  for (let i = 0; i < tail; i += 4) {
    h ^= mixBlock(bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const rest = bytes.length & 3;
  if (rest > 0) {
    let k = bytes[tail]!;
    if (rest > 1) k |= bytes[tail + 1]! << 8;
    if (rest > 2) k |= bytes[tail + 2]! << 16;
    h ^= mixBlock(k);
  }
  h ^= bytes.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The spec's uint32_to_float32: a hash whose exponent bits are all 0 or all 1 has bit 23 flipped, so the float is never
 * denormal (flushed to zero by some GPUs and compositors), infinite or NaN (canonicalised by copies).
 */
export function hashToId(hash: number): CryptoId {
  const exponent = (hash >>> 23) & 0xff;
  return (exponent === 0 || exponent === 0xff ? hash ^ (1 << 23) : hash) >>> 0;
}

/** The ID of a name: the hash of its UTF-8 bytes, converted. */
export function idOfName(name: string): CryptoId {
  return hashToId(murmur3x86_32(utf8.encode(name)));
}

const bits = new DataView(new ArrayBuffer(4));

/** The float32 a rank channel stores for `id`. */
export function idToFloat(id: CryptoId): number {
  bits.setUint32(0, id);
  return bits.getFloat32(0);
}

/** The ID stored as the float32 `value` (its bits). */
export function floatToId(value: number): CryptoId {
  bits.setFloat32(0, value);
  return bits.getUint32(0);
}

/** Eight lowercase hex digits, as manifests write IDs. */
export function idHex(id: CryptoId): string {
  return id.toString(16).padStart(8, '0');
}

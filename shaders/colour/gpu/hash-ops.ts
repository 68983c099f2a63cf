// The key a processor's pipelines are cached by: a 53-bit hash of its op list, tables included.
import type { Op } from '../ops/op.js';

/** cyrb53 over the ops' JSON, each table replaced by its own hash (so a 65³ LUT is hashed once, as bytes). */
export function hashOps(ops: readonly Op[], salt = ''): string {
  const json = JSON.stringify(ops, (_, v: unknown) =>
    v instanceof Float32Array ? `#${hashBytes(new Uint8Array(v.buffer, v.byteOffset, v.byteLength))}` : v,
  );
  return hashString(json + salt);
}

function hashString(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return hashBytes(bytes);
}

function hashBytes(bytes: Uint8Array): string {
  let h1 = 0xdeadbeef,
    h2 = 0x41c6ce57;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    h1 = Math.imul(h1 ^ b, 2654435761);
    h2 = Math.imul(h2 ^ b, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

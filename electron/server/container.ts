// The binary reply container of PROTOCOL.md: a JSON head with each ArrayBuffer replaced by {"$buffer": i}, then the raw buffers 8-aligned.

export const CONTAINER_CONTENT_TYPE = 'application/x-exrview-container';

const ALIGN_BYTES = 8;

/** True when `value` holds an ArrayBuffer (or a typed-array view) anywhere: it then travels as a container. */
export function holdsBuffers(value: unknown): boolean {
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return true;
  if (Array.isArray(value)) return value.some(holdsBuffers);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsBuffers);
  return false;
}

/** Encodes `value` as a container: [u32 LE json length][json][pad to 8][buffer 0][pad][buffer 1]... */
export function encodeContainer(value: unknown): Buffer {
  const buffers: Uint8Array[] = [];
  const head = replaceBuffers(value, buffers);
  // offsets are absolute and the JSON that lists them sits before them: grow until the layout is stable
  let jsonBytes = Buffer.alloc(0);
  let offsets: [number, number][] = [];
  for (let guess = 0; ; ) {
    offsets = layout(buffers, align(4 + guess));
    jsonBytes = Buffer.from(JSON.stringify({ value: head, buffers: offsets }), 'utf8');
    if (align(4 + jsonBytes.length) === align(4 + guess)) break;
    guess = jsonBytes.length;
  }
  const last = offsets[offsets.length - 1];
  const total = last ? last[0] + last[1] : align(4 + jsonBytes.length);
  const out = Buffer.alloc(total);
  out.writeUInt32LE(jsonBytes.length, 0);
  jsonBytes.copy(out, 4);
  buffers.forEach((bytes, i) => out.set(bytes, offsets[i]![0]));
  return out;
}

function layout(buffers: Uint8Array[], start: number): [number, number][] {
  const offsets: [number, number][] = [];
  let at = start;
  for (const bytes of buffers) {
    offsets.push([at, bytes.byteLength]);
    at = align(at + bytes.byteLength);
  }
  return offsets;
}

function align(n: number): number {
  return Math.ceil(n / ALIGN_BYTES) * ALIGN_BYTES;
}

function replaceBuffers(value: unknown, buffers: Uint8Array[]): unknown {
  if (value instanceof ArrayBuffer) {
    buffers.push(new Uint8Array(value));
    return { $buffer: buffers.length - 1 };
  }
  if (ArrayBuffer.isView(value)) {
    buffers.push(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    return { $buffer: buffers.length - 1 };
  }
  if (Array.isArray(value)) return value.map((v) => replaceBuffers(v, buffers));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = replaceBuffers(v, buffers);
    return out;
  }
  return value;
}

/** The inverse, for tests and tools: rebuilds the value with ArrayBuffers in place. */
export function decodeContainer(body: Uint8Array): unknown {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const jsonLength = view.getUint32(0, true);
  const head = JSON.parse(new TextDecoder().decode(body.subarray(4, 4 + jsonLength))) as { value: unknown; buffers: [number, number][] };
  const revive = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(revive);
    if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.$buffer === 'number' && Object.keys(o).length === 1) {
        const [offset, length] = head.buffers[o.$buffer]!;
        return new Uint8Array(body.subarray(offset, offset + length)).buffer;
      }
      return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, revive(x)]));
    }
    return v;
  };
  return revive(head.value);
}

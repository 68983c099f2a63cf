// The binary reply container of PROTOCOL.md: a JSON head with each buffer replaced by {"$buffer": i}, then the raw buffers 8-aligned.
//
// A container is built as a list of pieces that point into the buffers themselves (decoded planes in shared memory
// included): the transports write the pieces out one after the other, so no copy of the pixels is ever made here.

export const CONTAINER_CONTENT_TYPE = 'application/x-exrview-container';

const ALIGN_BYTES = 8;
const PADDING = new Uint8Array(ALIGN_BYTES);

/** True when `value` holds an ArrayBuffer, a SharedArrayBuffer or a typed-array view anywhere: it then travels as a container. */
export function holdsBuffers(value: unknown): boolean {
  if (isBuffer(value) || ArrayBuffer.isView(value)) return true;
  if (Array.isArray(value)) return value.some(holdsBuffers);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsBuffers);
  return false;
}

function isBuffer(value: unknown): value is ArrayBuffer | SharedArrayBuffer {
  return value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer);
}

export interface ContainerPieces {
  /** In order: the head (length, JSON, padding), then each buffer and its padding; views on the values' own memory. */
  pieces: Uint8Array[];
  totalBytes: number;
}

/** Lays `value` out as a container: [u32 LE json length][json][pad to 8][buffer 0][pad][buffer 1]... */
export function containerPieces(value: unknown): ContainerPieces {
  const buffers: Uint8Array[] = [];
  const head = replaceBuffers(value, buffers);
  // offsets are absolute and the JSON that lists them sits before them: grow until the layout is stable
  let jsonBytes = Buffer.alloc(0);
  let offsets: [number, number][] = [];
  for (let guess = 0; ;) {
    offsets = layout(buffers, align(4 + guess));
    jsonBytes = Buffer.from(JSON.stringify({ value: head, buffers: offsets }), 'utf8');
    if (align(4 + jsonBytes.length) === align(4 + guess)) break;
    guess = jsonBytes.length;
  }
  const headBytes = align(4 + jsonBytes.length);
  const headPiece = Buffer.alloc(headBytes);
  headPiece.writeUInt32LE(jsonBytes.length, 0);
  jsonBytes.copy(headPiece, 4);
  const pieces: Uint8Array[] = [headPiece];
  let at = headBytes;
  buffers.forEach((bytes, i) => {
    pieces.push(bytes);
    at = offsets[i]![0] + bytes.byteLength;
    const pad = align(at) - at;
    if (pad > 0 && i < buffers.length - 1) {
      pieces.push(PADDING.subarray(0, pad));
      at += pad;
    }
  });
  return { pieces, totalBytes: at };
}

/** The whole container in one buffer (tests and small replies; the transports write the pieces instead). */
export function encodeContainer(value: unknown): Buffer {
  const { pieces, totalBytes } = containerPieces(value);
  return Buffer.concat(pieces, totalBytes);
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
  if (isBuffer(value)) {
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

// Test support for files still being written: the project's writer's chunks laid down one by one, offset tables zeroed until the end.

import { ExrReader } from '../../codec/reader.js';
import { memorySource } from '../../codec/source.js';
import { encodeExr, type WritePart } from '../../codec/writer.js';

/** A chunk of a file: its part and its index in that part's offset table. */
export interface ChunkId {
  part: number;
  chunk: number;
}

/** One file written chunk by chunk, as a renderer writes it, and every state it passes through. */
export interface ChunkByChunk {
  /** The file once closed: headers, the filled offset tables, every chunk. */
  complete: Uint8Array;
  /** The chunks in the order they are written. */
  order: ChunkId[];
  /** First byte of the first chunk (after the offset tables). */
  tablesEndByte: number;
  /**
   * The file as its writer leaves it after `written` chunks and `intoNext` bytes of the next one (at most all but its
   * last byte: it is still being written): the offset tables still zeros (a writer fills them at close).
   */
  after(written: number, intoNext?: number): Uint8Array;
}

/**
 * `parts` encoded by the project's writer, its chunks then laid down one at a time: in the writer's order, or with
 * `interleaveParts` one chunk of each part in turn (as a renderer writing several parts at once does; each chunk says
 * its part). The closed file's tables point at the chunks where they were laid down.
 */
export function writeChunkByChunk(parts: readonly WritePart[], interleaveParts = false): ChunkByChunk {
  const encoded = encodeExr(parts);
  const [headers, writerTables, ...pieces] = encoded.pieces;
  const written = new Uint8Array(encoded.byteLength);
  let at = 0;
  for (const piece of encoded.pieces) {
    written.set(piece, at);
    at += piece.length;
  }
  const tablesEndByte = headers!.length + writerTables!.length;
  // the writer's pieces in file order, each named by the offset its table gives it
  const tables = ExrReader.open(memorySource(written)).offsets;
  const ids: ChunkId[] = tables.flatMap((t, part) => Array.from(t, (_, chunk) => ({ part, chunk })));
  const offsetOf = (id: ChunkId) => tables[id.part]![id.chunk]!;
  ids.sort((a, b) => offsetOf(a) - offsetOf(b));
  const bytesOf = new Map(ids.map((id, i) => [key(id), pieces[i]!]));

  let order = ids;
  if (interleaveParts) {
    const perPart = tables.map((_, part) => ids.filter((id) => id.part === part));
    order = [];
    for (let round = 0; order.length < ids.length; round++) for (const list of perPart) if (round < list.length) order.push(list[round]!);
  }

  const complete = new Uint8Array(encoded.byteLength);
  complete.set(headers!, 0);
  const view = new DataView(complete.buffer);
  const partTableStart = tables.map((_, part) => headers!.length + 8 * tables.slice(0, part).reduce((n, t) => n + t.length, 0));
  const chunkStart: number[] = [];
  at = tablesEndByte;
  for (const id of order) {
    const bytes = bytesOf.get(key(id))!;
    view.setBigUint64(partTableStart[id.part]! + 8 * id.chunk, BigInt(at), true);
    complete.set(bytes, at);
    chunkStart.push(at);
    at += bytes.length;
  }
  chunkStart.push(at);

  return {
    complete,
    order,
    tablesEndByte,
    after(writtenChunks, intoNext = 0) {
      const start = chunkStart[writtenChunks]!;
      const end = writtenChunks < order.length ? start + Math.min(intoNext, chunkStart[writtenChunks + 1]! - start - 1) : start;
      const state = complete.slice(0, end);
      state.fill(0, headers!.length, tablesEndByte);
      return state;
    },
  };
}

function key(id: ChunkId): string {
  return `${id.part}:${id.chunk}`;
}

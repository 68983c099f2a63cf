// Test support for damaged files: where each chunk of a file lies, and copies of it cut short or with chunks zeroed.

import { ExrReader } from '../../codec/reader.js';
import { memorySource } from '../../codec/source.js';

/** Where each chunk of `part` starts and ends in the file (by chunk index; a chunk ends where the next in the file starts). */
export function chunkSpans(bytes: Uint8Array, part = 0): { start: number; end: number }[] {
  const table = ExrReader.open(memorySource(bytes)).offsets[part]!;
  const starts = [...table];
  const sorted = [...starts].sort((a, b) => a - b);
  return starts.map((start) => ({ start, end: sorted.find((s) => s > start) ?? bytes.length }));
}

/** The file cut `intoBytes` bytes into chunk `chunk` of part 0 (that chunk and those after it in the file are lost). */
export function cutInChunk(bytes: Uint8Array, chunk: number, intoBytes = 10): Uint8Array {
  return bytes.slice(0, chunkSpans(bytes)[chunk]!.start + intoBytes);
}

/** A copy of the file with these chunks of part 0 zeroed (their headers and data). */
export function zeroChunks(bytes: Uint8Array, chunks: readonly number[]): Uint8Array {
  const spans = chunkSpans(bytes);
  const out = bytes.slice();
  for (const c of chunks) out.fill(0, spans[c]!.start, spans[c]!.end);
  return out;
}

// A file's parsed headers and offset tables, handed from the main thread (which reads them to plan a decode) to the
// decode workers, so that a worker's first band of a file opens it without parsing it again.
//
// Why: every worker is an isolate of its own and compiles hot functions on its own thread (worker-process.ts). The
// header parser runs once per file a worker meets, so it turns hot late, in the middle of a folder, and its compiles
// were a large share of what the workers compiled. Handed over, a worker only opens the file and checks it is the
// version the main thread read.

import { deserialize, serialize } from 'node:v8';
import { type ParsedFile, COMPRESSIONS, PIXEL_TYPES } from '../../codec/index.js';

/** The version of a file a parse belongs to (what the reader cache tells a rewritten file by). */
export interface FileIdentity {
  sizeBytes: number;
  mtimeMs: number;
  inode: number;
}

/** A handoff: the identity and the parse, serialized once into memory every worker can read (no copy per band). */
export type HeaderHandoff = SharedArrayBuffer;

export function makeHandoff(identity: FileIdentity, parsed: ParsedFile): HeaderHandoff {
  const bytes = serialize({ identity, parsed });
  const shared = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(shared).set(bytes);
  return shared;
}

/** The parse in `handoff` where it is of the file as `opened` now; null where the file changed since (parse it again). */
export function takeHandoff(handoff: HeaderHandoff, opened: FileIdentity): ParsedFile | null {
  // copied out of shared memory first: the tables then live in the worker's own memory, not in views on the handoff
  const { identity, parsed } = deserialize(new Uint8Array(handoff).slice()) as { identity: FileIdentity; parsed: ParsedFile };
  if (identity.sizeBytes !== opened.sizeBytes || identity.mtimeMs !== opened.mtimeMs || identity.inode !== opened.inode) return null;
  canonicalizeNames(parsed);
  return parsed;
}

/**
 * The deserializer makes every string a fresh copy. V8 turns such a copy into its interned twin the first time it serves
 * as a property key (PIXEL_TYPE_BYTES[pixelType]), so the decode loops, compiled while the warm-up file's names had
 * been interned, met a real file's not yet interned "half" and were thrown away ("wrong instance type" in DWA's row
 * copy, once per worker). The names the codec compares are swapped for the interned constants as they arrive.
 */
function canonicalizeNames(parsed: ParsedFile): void {
  for (const part of parsed.parts) {
    part.compression = COMPRESSIONS.find((c) => c === part.compression) ?? part.compression;
    for (const channel of part.channels) channel.pixelType = PIXEL_TYPES.find((t) => t === channel.pixelType) ?? channel.pixelType;
  }
}

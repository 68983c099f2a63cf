// Test support: edits a written file's header in place of a hand-built one (a `type` attribute added, version flags changed).

import type { AttributeValue } from '../../../codec/attributes.js';
import { encodeAttribute } from '../../../codec/attributes-write.js';
import { ByteWriter } from '../../../codec/byte-writer.js';
import { parseRawHeaders } from '../../../codec/header.js';
import { buildParts } from '../../../codec/part.js';

/**
 * A single-part file with `attribute` appended to its header (the offset table shifted to match)
 * and its version field passed through `flags`.
 */
export function editSinglePartHeader(
  bytes: Uint8Array,
  attribute: { name: string; value: AttributeValue } | null,
  flags: (version: number) => number = (v) => v,
): Uint8Array {
  const raw = parseRawHeaders(bytes, bytes.length);
  if (raw.flags.multipart) throw new Error('editSinglePartHeader edits single-part files');
  const chunks = buildParts(raw, bytes.length)[0]!.chunkCount;
  const w = new ByteWriter();
  if (attribute) encodeAttribute(w, attribute.name, attribute.value);
  const extra = w.finish();
  // the header ends with one NUL: the attribute goes just before it
  const at = raw.headerEndByte - 1;
  const out = new Uint8Array(bytes.length + extra.length);
  out.set(bytes.subarray(0, at), 0);
  out.set(extra, at);
  out.set(bytes.subarray(at), at + extra.length);
  const view = new DataView(out.buffer);
  const table = raw.headerEndByte + extra.length;
  for (let i = 0; i < chunks; i++) view.setBigUint64(table + 8 * i, view.getBigUint64(table + 8 * i, true) + BigInt(extra.length), true);
  view.setInt32(4, flags(view.getInt32(4, true)), true);
  return out;
}

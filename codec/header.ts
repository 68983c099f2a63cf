// Reads the magic number, version flags and every part's attribute list (no validation: see part.ts).

import { decodeAttributeValue, type Attribute } from './attributes.js';
import { ByteReader } from './bytes.js';
import { invalid, unsupported } from './core/errors.js';

export const EXR_MAGIC = 20000630;

export interface VersionFlags {
  version: number;
  singlePartTiled: boolean;
  longNames: boolean;
  nonImage: boolean;
  multipart: boolean;
}

export interface RawHeaders {
  flags: VersionFlags;
  /** One attribute list per part, in file order. */
  parts: Attribute[][];
  /** First byte after the header(s): where the chunk offset tables start. */
  headerEndByte: number;
}

/** Attributes larger than this are refused before they are sliced (a hostile size field). */
export const MAX_ATTRIBUTE_BYTES = 64 * 1024 * 1024;
/** More parts than this is not a real file. */
export const MAX_PARTS = 100_000;

export function isExrMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x76 && bytes[1] === 0x2f && bytes[2] === 0x31 && bytes[3] === 0x01;
}

/**
 * Parses the headers from a prefix of the file. Throws TruncatedPrefixError when the prefix, shorter than the file,
 * ended before the headers did, so that the caller can read more and retry (headersFromPrefix).
 */
export function parseRawHeaders(prefix: Uint8Array, fileSizeBytes: number): RawHeaders {
  const r = new ByteReader(prefix);
  try {
    return parseFrom(r, fileSizeBytes);
  } catch (error) {
    if (prefix.length < fileSizeBytes && error instanceof Error && error.message.startsWith('unexpected end')) {
      throw new TruncatedPrefixError();
    }
    throw error;
  }
}

/**
 * The first read of a file, grown 4x while the headers run past it. Renders' headers are a few KB (a 23-channel one
 * 1.5 KB) and most fit with their offset tables; a larger first read is fresh memory for every open or every file of a
 * folder, which costs more in page faults than it reads.
 */
export const FIRST_HEADER_READ_BYTES = 32 * 1024;

/**
 * The headers parsed from the file's first bytes, read longer while they run past them: yields how many bytes to read
 * from the start of the file, is given them, and returns the parse with the last bytes given. One schedule for callers
 * that read synchronously (a reader's open) and asynchronously (a folder's summaries): each drives it with its own read.
 */
export function* headersFromPrefix(fileSizeBytes: number): Generator<number, { raw: RawHeaders; prefix: Uint8Array }, Uint8Array> {
  let prefixBytes = Math.min(FIRST_HEADER_READ_BYTES, fileSizeBytes);
  for (;;) {
    const prefix = yield prefixBytes;
    try {
      return { raw: parseRawHeaders(prefix, fileSizeBytes), prefix };
    } catch (error) {
      // never past the whole file (a reader that gave fewer bytes than asked would otherwise be asked again forever)
      if (!(error instanceof TruncatedPrefixError) || prefixBytes >= fileSizeBytes) throw error;
      prefixBytes = Math.min(prefixBytes * 4, fileSizeBytes);
    }
  }
}

/** The prefix given to parseRawHeaders was too short. */
export class TruncatedPrefixError extends Error {
  constructor() {
    super('header runs past the bytes read so far');
  }
}

function parseFrom(r: ByteReader, fileSizeBytes: number): RawHeaders {
  if (r.bytes.length < 8) throw invalid('file is too short to be an OpenEXR file');
  if (r.i32Le('magic number') !== EXR_MAGIC) throw invalid('not an OpenEXR file (wrong magic number)');
  const versionField = r.i32Le('version');
  const flags: VersionFlags = {
    version: versionField & 0xff,
    singlePartTiled: (versionField & 0x200) !== 0,
    longNames: (versionField & 0x400) !== 0,
    nonImage: (versionField & 0x800) !== 0,
    multipart: (versionField & 0x1000) !== 0,
  };
  if (flags.version !== 2) throw unsupported(`OpenEXR file format version ${flags.version} (only version 2 exists)`);
  if ((versionField & ~0x1eff) !== 0) throw unsupported(`unknown version flags 0x${(versionField >>> 0).toString(16)}`);
  if (flags.singlePartTiled && (flags.multipart || flags.nonImage)) {
    throw invalid(`version flags say single-part tiled and also ${flags.multipart ? 'multipart' : 'deep'}`);
  }

  const maxNameBytes = flags.longNames ? 255 : 31;
  const parts: Attribute[][] = [];
  for (;;) {
    const attributes = parseAttributeList(r, maxNameBytes, fileSizeBytes);
    if (attributes === null) {
      // an empty header ends the list of a multipart file
      if (!flags.multipart) throw invalid('empty header');
      break;
    }
    parts.push(attributes);
    if (!flags.multipart) break;
    if (parts.length > MAX_PARTS) throw invalid(`more than ${MAX_PARTS} parts`);
    // a multipart header list ends with a single NUL byte
    r.need(1, 'header list terminator');
    if (r.bytes[r.byteOffset] === 0) {
      r.byteOffset++;
      break;
    }
  }
  return { flags, parts, headerEndByte: r.byteOffset };
}

/** One header: attributes until a NUL name; null when the header is empty (the first byte is NUL). */
function parseAttributeList(r: ByteReader, maxNameBytes: number, fileSizeBytes: number): Attribute[] | null {
  const attributes: Attribute[] = [];
  const seen = new Set<string>();
  for (;;) {
    const name = r.cString(maxNameBytes, 'attribute name');
    if (name === '') return attributes.length ? attributes : null;
    const typeName = r.cString(maxNameBytes, `type of attribute "${name}"`);
    if (typeName === '') throw invalid(`attribute "${name}" has an empty type name`);
    const sizeBytes = r.i32Le(`size of attribute "${name}"`);
    if (sizeBytes < 0 || sizeBytes > MAX_ATTRIBUTE_BYTES || sizeBytes > fileSizeBytes) {
      throw invalid(`attribute "${name}" claims ${sizeBytes} bytes`);
    }
    const bytes = r.bytesOf(sizeBytes, `value of attribute "${name}"`);
    if (seen.has(name)) throw invalid(`attribute "${name}" appears twice in one header`);
    seen.add(name);
    attributes.push({ name, typeName, value: decodeAttributeValue(typeName, bytes) });
  }
}

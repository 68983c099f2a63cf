// Header-only parse of one file: the grid's FileSummary, and whether the file is whole or still being written.

import { open } from 'node:fs/promises';
import {
  ExrError,
  type PartInfo,
  headersFromPrefix,
  buildParts,
  minChunkHeaderBytes,
  withTables,
  type ParsedFile,
  prefixSource,
  partLayers,
} from '../../codec/index.js';
import { makeHandoff, type HeaderHandoff } from './header-handoff.js';
import type { FileSummary, LayerSummary, PartSummary } from '../../contract/host-api.js';

/** Offset tables further into the file than this are left to the workers to read (a huge tiled pyramid's). */
const MAX_TABLES_END_BYTE = 16 << 20;

/** handoff: the whole parse for the decode workers (header-handoff.ts); null where they must open the file themselves. */
export type SummaryResult =
  | {
      kind: 'ok';
      sizeBytes: number;
      mtimeMs: number;
      summary: FileSummary;
      parts: PartInfo[];
      headerBytes: number;
      handoff: HeaderHandoff | null;
    }
  /**
   * Header or chunks not all there yet: a file being written (or cut short). `summary` when the header is whole: what
   * chunks there are can be decoded once the file stops changing.
   */
  | { kind: 'incomplete'; sizeBytes: number; mtimeMs: number; reason: string; summary?: FileSummary }
  | { kind: 'error'; sizeBytes: number; mtimeMs: number; reason: string };

interface OpenFile {
  sizeBytes: number;
  read(byteOffset: number, byteLength: number): Promise<Uint8Array>;
}

/** Reads the header (FIRST_HEADER_READ_BYTES first, more only if it runs on), the offset tables and the last chunk's header. */
export async function readSummary(path: string): Promise<SummaryResult> {
  return withFile(path, async (file, identity) => {
    const stat = { sizeBytes: identity.sizeBytes, mtimeMs: identity.mtimeMs };
    try {
      const { parsed, ...summarised } = await summarise(file);
      return { kind: 'ok', ...stat, ...summarised, handoff: parsed && makeHandoff(identity, parsed) };
    } catch (error) {
      if (error instanceof IncompleteFile) return { kind: 'incomplete', ...stat, reason: error.message, summary: error.summary };
      const reason = error instanceof Error ? error.message : String(error);
      // a header cut off at the end of the file is a file still being written, not a broken one (yet)
      if (/unexpected end|too short|too small for its|claims \d+ bytes/.test(reason)) return { kind: 'incomplete', ...stat, reason };
      return { kind: 'error', ...stat, reason };
    }
  });
}

/** Only the parts' headers (no offset tables, no handoff): what planning a decode needs. Throws the codec's error for a bad header. */
export async function readHeaderParts(path: string): Promise<PartInfo[]> {
  return withFile(path, async (file) => (await readParts(file, false)).parts);
}

/** readHeaderParts with the header's size in the file and, where the offset tables could be read, the handoff. */
export async function readHeader(
  path: string,
): Promise<{ parts: PartInfo[]; multipart: boolean; headerBytes: number; handoff: HeaderHandoff | null }> {
  return withFile(path, async (file, identity) => {
    const { parts, multipart, headerEndByte, parsed } = await readParts(file);
    return { parts, multipart, headerBytes: headerEndByte, handoff: parsed && makeHandoff(identity, parsed) };
  });
}

async function withFile<T>(
  path: string,
  use: (file: OpenFile, stat: { sizeBytes: number; mtimeMs: number; inode: number }) => Promise<T>,
): Promise<T> {
  const handle = await open(path, 'r');
  try {
    const stat = await handle.stat();
    const file: OpenFile = {
      sizeBytes: stat.size,
      async read(byteOffset, byteLength) {
        const out = Buffer.allocUnsafe(byteLength);
        let done = 0;
        while (done < byteLength) {
          const { bytesRead } = await handle.read(out, done, byteLength - done, byteOffset + done);
          if (bytesRead === 0) throw new ExrError('invalid', 'unexpected end of data: the file got shorter while it was read');
          done += bytesRead;
        }
        return new Uint8Array(out.buffer, out.byteOffset, byteLength);
      },
    };
    return await use(file, { sizeBytes: stat.size, mtimeMs: stat.mtimeMs, inode: stat.ino });
  } finally {
    await handle.close();
  }
}

/** Chunks missing from a file whose header is whole (`summary`, set once the header is summarised). */
class IncompleteFile extends Error {
  summary?: FileSummary;
}

async function summarise(
  file: OpenFile,
): Promise<{ summary: FileSummary; parts: PartInfo[]; headerBytes: number; parsed: ParsedFile | null }> {
  const { parts, prefix, headerEndByte, multipart, parsed } = await readParts(file);
  const summary = toSummary(parts, multipart);
  try {
    await checkComplete(file, prefix, headerEndByte, parts, multipart);
  } catch (error) {
    if (error instanceof IncompleteFile) error.summary = summary;
    throw error;
  }
  return { summary, parts, headerBytes: headerEndByte, parsed };
}

interface HeaderRead {
  parts: PartInfo[];
  /** The file's first bytes: the headers, and the offset tables where `parsed` is not null. */
  prefix: Uint8Array;
  headerEndByte: number;
  multipart: boolean;
  /** Everything a reader's open parses, as it parses it (handed to the workers); null where the tables are damaged or far in. */
  parsed: ParsedFile | null;
}

/** The headers; with `withOffsetTables`, also the tables parsed as a reader's open parses them (`parsed`). */
async function readParts(file: OpenFile, withOffsetTables = true): Promise<HeaderRead> {
  const reads = headersFromPrefix(file.sizeBytes);
  let step = reads.next();
  while (!step.done) step = reads.next(await file.read(0, step.value));
  const { raw } = step.value;
  let { prefix } = step.value;
  const parts = buildParts(raw, file.sizeBytes);
  const read: HeaderRead = { parts, prefix, headerEndByte: raw.headerEndByte, multipart: raw.flags.multipart, parsed: null };
  const tablesEnd = raw.headerEndByte + parts.reduce((sum, p) => sum + p.chunkCount, 0) * 8;
  if (!withOffsetTables || tablesEnd > MAX_TABLES_END_BYTE) return read;
  if (tablesEnd > prefix.length) read.prefix = prefix = await file.read(0, tablesEnd);
  try {
    // the tables as a reader's open reads them. A damaged one that would be rebuilt by scanning the chunks (past the
    // prefix: prefixSource throws), or one the reader refuses, is left to the worker's own open, which says what is wrong
    // where it matters (summarising the header never failed for its tables)
    read.parsed = withTables(prefixSource(prefix, file.sizeBytes), raw, parts, prefix);
  } catch {
    read.parsed = null;
  }
  return read;
}

/**
 * A file is whole when every offset-table entry points past the tables and inside the file, and the
 * chunk stored last ends inside the file. OpenEXR writers fill the table with zeros and write it
 * for real at the end, so a file being written fails the first test; one cut short fails the second.
 * A second walk of the tables after withTables' (readParts), on purpose: the reader's rules say what a decode can use
 * (a small file's zeroed table it rebuilds by scanning its chunks), these whether a writer has finished.
 */
async function checkComplete(
  file: OpenFile,
  prefix: Uint8Array,
  headerEndByte: number,
  parts: PartInfo[],
  multipart: boolean,
): Promise<void> {
  const totalChunks = parts.reduce((sum, p) => sum + p.chunkCount, 0);
  const tablesEnd = headerEndByte + totalChunks * 8;
  const tables = tablesEnd <= prefix.length ? prefix.subarray(headerEndByte, tablesEnd) : await file.read(headerEndByte, totalChunks * 8);
  const view = new DataView(tables.buffer, tables.byteOffset, tables.byteLength);
  let missing = 0;
  let lastOffset = -1;
  let lastPart: PartInfo | null = null;
  let entry = 0;
  for (const part of parts) {
    for (let i = 0; i < part.chunkCount; i++, entry++) {
      const offset = Number(view.getBigUint64(entry * 8, true));
      if (offset < tablesEnd || offset >= file.sizeBytes) missing++;
      else if (offset > lastOffset) {
        lastOffset = offset;
        lastPart = part;
      }
    }
  }
  if (missing > 0) throw new IncompleteFile(`${missing} of ${totalChunks} chunks are not written yet (or the file was cut short)`);
  if (!lastPart) return;
  const headerBytes = minChunkHeaderBytes(lastPart, multipart);
  if (lastOffset + headerBytes > file.sizeBytes) throw new IncompleteFile('the last chunk is cut short');
  const head = await file.read(lastOffset, headerBytes);
  const hv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const at = (multipart ? 4 : 0) + (lastPart.isTiled ? 16 : 4);
  const payloadBytes = lastPart.isDeep ? Number(hv.getBigUint64(at, true)) + Number(hv.getBigUint64(at + 8, true)) : hv.getInt32(at, true);
  if (payloadBytes < 0 || lastOffset + headerBytes + payloadBytes > file.sizeBytes) {
    throw new IncompleteFile(`the last chunk needs ${lastOffset + headerBytes + payloadBytes} bytes, the file has ${file.sizeBytes}`);
  }
}

const box = (b: { xMin: number; yMin: number; xMax: number; yMax: number }): [number, number, number, number] => [
  b.xMin,
  b.yMin,
  b.xMax,
  b.yMax,
];

/** A string attribute naming a colour space, as OpenImageIO (`oiio:ColorSpace`) and others write one. */
const COLOUR_SPACE_ATTRIBUTE = /(^|[:/])colou?r_?space$/i;

/** The part's `chromaticities` and colour-space name, for the page to match to a config's colour space. */
function colourOf(part: PartInfo): Pick<PartSummary, 'chromaticities' | 'colourSpaceName'> {
  const c = part.chromaticities;
  const named = part.attributes.find((a) => COLOUR_SPACE_ATTRIBUTE.test(a.name) && a.value.type === 'string');
  return {
    ...(c ? { chromaticities: [...c.red, ...c.green, ...c.blue, ...c.white] } : {}),
    ...(named?.value.type === 'string' && named.value.value.trim() !== '' ? { colourSpaceName: named.value.value.trim() } : {}),
  };
}

export function toSummary(parts: PartInfo[], multipart: boolean): FileSummary {
  const first = parts[0]!;
  const views = new Set<string>();
  for (const part of parts) {
    if (part.view) views.add(part.view);
    const multiView = part.attributes.find((a) => a.name === 'multiView');
    if (multiView?.value.type === 'stringvector') for (const v of multiView.value.value) views.add(v);
  }
  return {
    widthPx: first.widthPx,
    heightPx: first.heightPx,
    multipart,
    views: [...views],
    parts: parts.map((part): PartSummary => {
      const grouped = partLayers(part.channels, part.attributes);
      // in a multi-view part the same layer exists once per view: the view leads the name so each is distinct
      const multiView = grouped.views.length > 1;
      const layers: LayerSummary[] = grouped.layers.map((l) => ({
        name: multiView && l.view ? (l.name ? `${l.view}.${l.name}` : l.view) : l.name,
        view: l.view,
        channels: l.channels.map((c) => c.name),
      }));
      return {
        index: part.index,
        name: part.name,
        type: part.type,
        view: part.view,
        compression: part.compression,
        dataWindow: box(part.dataWindow),
        displayWindow: box(part.displayWindow),
        channels: part.channels.map((c) => ({ name: c.name, pixelType: c.pixelType, xSampling: c.xSampling, ySampling: c.ySampling })),
        layers,
        tiled: part.isTiled,
        levelMode: part.tiles ? part.tiles.levelMode : null,
        levelCount: part.levelCountX,
        hasPreview: part.preview !== null,
        ...colourOf(part),
      };
    }),
  };
}

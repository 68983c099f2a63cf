// `exrview info FILE [--json]`: every attribute of every part, laid out as OpenEXR's exrheader shows it.

import { attributeText, type AttributeValue, ExrReader, openFileSource } from '../codec/index.js';

export interface InfoJson {
  file: string;
  version: number;
  flags: number;
  multipart: boolean;
  /** A file still being written (its offset tables not filled yet) or cut short: how many of its chunks are there. */
  incomplete?: { chunksPresent: number; chunksTotal: number };
  parts: { index: number; attributes: { name: string; type: string; value: unknown }[] }[];
}

function versionFlags(reader: ExrReader): number {
  const f = reader.flags;
  return (f.singlePartTiled ? 0x200 : 0) | (f.longNames ? 0x400 : 0) | (f.nonImage ? 0x800 : 0) | (f.multipart ? 0x1000 : 0);
}

function infoJson(path: string, reader: ExrReader): InfoJson {
  return {
    file: path,
    version: reader.flags.version,
    flags: versionFlags(reader),
    multipart: reader.flags.multipart,
    ...(reader.incomplete
      ? { incomplete: { chunksPresent: reader.incomplete.chunksPresent, chunksTotal: reader.incomplete.chunksTotal } }
      : {}),
    parts: reader.parts.map((p) => ({
      index: p.index,
      attributes: p.attributes.map((a) => ({ name: a.name, type: a.typeName, value: jsonValue(a.value) })),
    })),
  };
}

function jsonValue(v: AttributeValue): unknown {
  switch (v.type) {
    case 'preview':
      return { widthPx: v.value.widthPx, heightPx: v.value.heightPx };
    case 'unknown':
      return { base64: Buffer.from(v.value).toString('base64') };
    default:
      return v.value;
  }
}

function formatInfo(path: string, reader: ExrReader): string {
  const f = reader.flags;
  const lines = [`\nfile ${path}:\n`, `file format version: ${f.version}, flags 0x${versionFlags(reader).toString(16)}`];
  const incomplete = reader.incomplete;
  if (incomplete) lines.push(`incomplete: ${incompleteText(incomplete)}`);
  for (const part of reader.parts) {
    if (f.multipart) lines.push(`\n\n part ${part.index}:`);
    const sorted = part.attributes.slice().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const a of sorted) lines.push(attributeText(a));
  }
  return lines.join('\n') + '\n\n';
}

/** How much of a file still being written is there, as the commands say it. */
export function incompleteText(incomplete: { chunksPresent: number; chunksTotal: number }): string {
  const why = 'its offset tables are not filled yet: still being written, or cut short';
  return `${incomplete.chunksPresent} of ${incomplete.chunksTotal} chunks (${why})`;
}

/** The header of every part: exrheader-like text, or JSON. */
export function describeFile(path: string, json: boolean): string {
  const source = openFileSource(path);
  try {
    const reader = ExrReader.open(source);
    return json ? JSON.stringify(infoJson(path, reader)) + '\n' : formatInfo(path, reader);
  } finally {
    source.close();
  }
}

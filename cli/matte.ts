// `exrview matte`: a Cryptomatte layer's matte of picked names written as EXR (float) or PNG (8-bit), or its names listed.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { ExrReader, openFileSource, writeExrFile, type FileSource, type PartInfo } from '../codec/index.js';
import { encodeRgba8 } from '../host/export/encode.js';
import { writeFileAtomically } from '../host/io/atomic-file.js';
import { fsReason } from '../host/io/fs-reason.js';
import { CryptomatteError } from '../shaders/cryptomatte/errors.js';
import { floatToId, idHex, type CryptoId } from '../shaders/cryptomatte/hash.js';
import { findCryptomattes, pickLayer, type CryptomatteLayer, type CryptomatteScan } from '../shaders/cryptomatte/layers.js';
import { idOfPick, nameOfId, parseManifest, type Manifest } from '../shaders/cryptomatte/manifest.js';
import { matteCpu, type RankGroupPlanes } from '../shaders/cryptomatte/matte-cpu.js';
import { optionsOf } from './commands.js';
import { describeFailure, FileError } from './failures.js';
import { folderGivenForFile } from './path-hints.js';
import { parseArgs, UsageError } from './usage.js';

interface Found {
  part: PartInfo;
  layer: CryptomatteLayer;
}

export async function runMatte(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ...optionsOf('matte'));
  if (args.positional.length !== 1)
    throw new UsageError(`matte takes one FILE, got ${args.positional.length === 0 ? 'none' : args.positional.join(' ')}`);
  const file = args.positional[0]!;
  const folder = folderGivenForFile(file, 'matte');
  if (folder) throw folder;
  const layerName = args.flags.get('layer') as string | undefined;
  const json = args.flags.has('json');
  const list = args.flags.has('list');
  const namesArg = args.flags.get('names') as string | undefined;
  const out = args.flags.get('out') as string | undefined;
  if (!list) {
    if (namesArg === undefined) throw new UsageError('matte needs --names (the names to pick, comma-separated), or --list to see them');
    if (out === undefined) throw new UsageError('matte needs --out FILE.exr or FILE.png');
    if (!['.exr', '.png'].includes(extname(out).toLowerCase()))
      throw new UsageError(`--out must end in .exr (float) or .png (8-bit), not "${extname(out) || out}"`);
  } else if (namesArg !== undefined || out !== undefined) throw new UsageError('--list prints names: give it without --names and --out');
  if (json && !list) throw new UsageError('--json goes with --list');

  const { source, reader } = openReader(file);
  try {
    const scans = reader.parts.filter((p) => !p.isDeep).map((part) => ({ part, scan: scanPart(part) }));
    if (list && layerName === undefined && scans.flatMap((s) => s.scan.layers).length !== 1) {
      process.stdout.write(json ? JSON.stringify(layersJson(scans)) + '\n' : layersText(scans));
      return 0;
    }
    const found = findLayer(scans, layerName);
    const manifest = manifestOf(file, found.layer, (warning) => process.stderr.write(`exrview: ${file}: ${warning}\n`));
    if (list) {
      const ids = manifest ? [...manifest.idOf.values()] : idsInPixels(reader, found);
      const names = manifest
        ? manifest.names.map((n) => [n, manifest.idOf.get(n)!] as const)
        : ids.map((id) => [nameOfId(null, id), id] as const);
      process.stdout.write(
        json
          ? JSON.stringify({
              layer: found.layer.name,
              manifest: found.layer.manifest.kind,
              names: Object.fromEntries(names.map(([n, id]) => [n, idHex(id)])),
            }) + '\n'
          : names.map(([n, id]) => `${idHex(id)}  ${printable(n)}\n`).join(''),
      );
      return 0;
    }
    const picks = splitNames(namesArg!);
    const ids = picks.map((pick) => usage(() => idOfPick(manifest, pick, found.layer.name)));
    for (const { names } of manifest?.collisions ?? [])
      if (names.some((n) => picks.includes(n)))
        process.stderr.write(
          `exrview: ${file}: ${names.map((n) => JSON.stringify(n)).join(' and ')} share one ID: the matte holds them all\n`,
        );
    const matte = matteOf(reader, found, ids);
    await writeMatte(out!, matte, found.part);
    const covered = matte.values.reduce((n, v) => n + (v > 0 ? 1 : 0), 0);
    process.stdout.write(
      `${out}: ${found.layer.name} matte of ${picks.length} name${picks.length === 1 ? '' : 's'}, ` +
        `${matte.widthPx}×${matte.heightPx}, ${covered} pixels covered\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof CryptomatteError || !(error instanceof UsageError || error instanceof FileError))
      throw new FileError(file, describeFailure(error));
    throw error;
  } finally {
    source.close();
  }
}

function openReader(file: string): { source: FileSource; reader: ExrReader } {
  let source: FileSource | undefined;
  try {
    source = openFileSource(file);
    return { source, reader: ExrReader.open(source) };
  } catch (error) {
    source?.close();
    throw new FileError(file, describeFailure(error));
  }
}

function scanPart(part: PartInfo): CryptomatteScan {
  const strings = new Map(part.attributes.flatMap((a) => (a.value.type === 'string' ? [[a.name, a.value.value] as const] : [])));
  return findCryptomattes(strings, part.channels);
}

/** A layer or name the file does not have is bad usage (exit 2), with what it does have. */
function usage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof CryptomatteError && (error.kind === 'unknown-layer' || error.kind === 'unknown-name'))
      throw new UsageError(error.message);
    throw error;
  }
}

/** The first part with the layer (or the file's only layer when none is named). */
function findLayer(scans: readonly { part: PartInfo; scan: CryptomatteScan }[], name: string | undefined): Found {
  const all: CryptomatteScan = { layers: scans.flatMap((s) => s.scan.layers), problems: scans.flatMap((s) => s.scan.problems) };
  const layer = usage(() => pickLayer(all, name));
  return { part: scans.find((s) => s.scan.layers.includes(layer))!.part, layer };
}

/** The layer's manifest: inline, or the sidecar beside the image; null (names hashed) with a warning when there is none. */
function manifestOf(file: string, layer: CryptomatteLayer, warn: (text: string) => void): Manifest | null {
  const source = layer.manifest;
  if (source.kind === 'inline') return parseManifest(source.json, `${layer.name}'s manifest`);
  if (source.kind === 'none') {
    warn(`${layer.name} has no manifest: names are hashed, not checked against the file`);
    return null;
  }
  const path = resolve(dirname(file), source.path);
  if (!existsSync(path)) {
    warn(
      `${layer.name}'s manifest file ${source.path} is not beside the image: ` +
        'names are hashed, not checked (put the file back to list them)',
    );
    return null;
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CryptomatteError('missing-sidecar', `${layer.name}'s manifest file ${path} cannot be read: ${fsReason(error)}`);
  }
  return parseManifest(text, `${layer.name}'s manifest file ${source.path}`);
}

function decodeGroups(reader: ExrReader, { part, layer }: Found): { groups: RankGroupPlanes[]; widthPx: number; heightPx: number } {
  const image = reader.decode({ part: part.index, channels: layer.groups.flat() });
  const plane = (name: string) => image.channels.find((c) => c.name === name)!.data as Float32Array;
  return {
    groups: layer.groups.map((names) => names.map(plane) as unknown as RankGroupPlanes),
    widthPx: image.widthPx,
    heightPx: image.heightPx,
  };
}

/** Distinct IDs the layer's pixels hold (0, an unused rank, left out), for --list without a manifest. */
function idsInPixels(reader: ExrReader, found: Found): CryptoId[] {
  const { groups } = decodeGroups(reader, found);
  const ids = new Set<CryptoId>();
  for (const [id0, , id1] of groups)
    for (const plane of [id0, id1]) for (const value of new Uint32Array(plane.buffer, plane.byteOffset, plane.length)) ids.add(value);
  ids.delete(floatToId(0));
  return [...ids].sort((a, b) => a - b);
}

interface Matte {
  values: Float32Array<ArrayBuffer>;
  widthPx: number;
  heightPx: number;
}

function matteOf(reader: ExrReader, found: Found, ids: readonly CryptoId[]): Matte {
  const { groups, widthPx, heightPx } = decodeGroups(reader, found);
  return { values: matteCpu(groups, ids, widthPx * heightPx), widthPx, heightPx };
}

async function writeMatte(out: string, matte: Matte, part: PartInfo): Promise<void> {
  try {
    if (extname(out).toLowerCase() === '.exr') {
      writeExrFile(out, [
        {
          compression: 'zip',
          dataWindow: part.dataWindow,
          displayWindow: part.displayWindow,
          channels: [{ name: 'A', pixelType: 'float', data: matte.values }],
        },
      ]);
      return;
    }
    const rgba = new Uint8Array(matte.values.length * 4);
    matte.values.forEach((v, i) => {
      // NaN (a rank pair holding one) shows as uncovered
      const level = Number.isNaN(v) ? 0 : Math.round(Math.min(1, Math.max(0, v)) * 255);
      rgba.fill(level, i * 4, i * 4 + 3);
      rgba[i * 4 + 3] = 255;
    });
    await writeFileAtomically(out, await encodeRgba8(rgba, matte.widthPx, matte.heightPx, 'png', 0), true);
  } catch (error) {
    throw new FileError(out, `cannot write the matte: ${fsReason(error)}`);
  }
}

/** "a,b" → ["a", "b"]; a comma inside a name is written "\,", a backslash "\\". */
export function splitNames(text: string): string[] {
  const names: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) current += text[++i]!;
    else if (c === ',') {
      names.push(current);
      current = '';
    } else current += c;
  }
  names.push(current);
  const picked = names.map((n) => n.trim()).filter((n) => n !== '');
  if (picked.length === 0) throw new UsageError('--names is empty: give the names to pick, comma-separated (--list shows them)');
  return picked;
}

/** A name on one line: JSON-quoted when it holds a line break or another control character. */
function printable(name: string): string {
  return /[\u0000-\u001f\u007f]/.test(name) ? JSON.stringify(name) : name;
}

function layersText(scans: readonly { part: PartInfo; scan: CryptomatteScan }[]): string {
  const lines: string[] = [];
  for (const { part, scan } of scans) {
    const where = scans.length > 1 ? ` (part ${part.index}${part.name ? ` "${part.name}"` : ''})` : '';
    for (const layer of scan.layers) {
      const ranks = layer.groups.length * 2;
      const manifest = layer.manifest.kind === 'none' ? 'no manifest' : `${layer.manifest.kind} manifest`;
      lines.push(`${layer.name}${where}: ${ranks} ranks, ${manifest}`);
    }
    for (const problem of scan.problems) lines.push(`${problem.layer ?? 'a Cryptomatte layer'}${where}: unusable: ${problem.message}`);
  }
  if (lines.length === 0) lines.push('no Cryptomatte layers');
  return lines.join('\n') + '\n';
}

function layersJson(scans: readonly { part: PartInfo; scan: CryptomatteScan }[]): unknown {
  return {
    layers: scans.flatMap(({ part, scan }) =>
      scan.layers.map((l) => ({ part: part.index, name: l.name, key: l.key, ranks: l.groups.length * 2, manifest: l.manifest.kind })),
    ),
    problems: scans.flatMap(({ part, scan }) =>
      scan.problems.map((p) => ({ part: part.index, layer: p.layer ?? null, kind: p.kind, message: p.message })),
    ),
  };
}

// `exrview matte`: a Cryptomatte layer's matte of picked names written as EXR (float) or PNG (8-bit), or its names listed.

import { extname } from 'node:path';
import { ExrReader, openFileSource, type FileSource, type PartInfo } from '../codec/index.js';
import { encodeMatte, findLayer, idsInPixels, manifestOf, matteOf, scanPart, type Matte } from '../host/export/matte.js';
import { writeFileAtomically } from '../host/io/atomic-file.js';
import { fsReason } from '../host/io/fs-reason.js';
import { CryptomatteError } from '../shaders/cryptomatte/errors.js';
import { idHex } from '../shaders/cryptomatte/hash.js';
import type { CryptomatteScan } from '../shaders/cryptomatte/layers.js';
import { idOfPick, nameOfId } from '../shaders/cryptomatte/manifest.js';
import { optionsOf } from './commands.js';
import { describeFailure, FileError } from './failures.js';
import { folderGivenForFile } from './path-hints.js';
import { parseArgs, UsageError } from './usage.js';

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
    const found = usage(() => findLayer(scans, layerName));
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

async function writeMatte(out: string, matte: Matte, part: PartInfo): Promise<void> {
  const bytes = await encodeMatte(matte, part, extname(out).toLowerCase() === '.exr' ? 'exr' : 'png');
  try {
    await writeFileAtomically(out, bytes, true);
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

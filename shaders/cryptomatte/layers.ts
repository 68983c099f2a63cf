// Finds a part's Cryptomatte layers (spec v1.2) from its `cryptomatte/<key>/…` header attributes and its channels:
// every layer with its rank groups (`<name>00.RGBA`, `<name>01.RGBA`, …, each two (ID, coverage) pairs), or why it cannot be used.

import { CryptomatteError } from './errors.js';

export const HASH_MURMUR3 = 'MurmurHash3_32';
export const CONVERSION_UINT32_TO_FLOAT32 = 'uint32_to_float32';

/** Where a layer's names come from: inline JSON, a sidecar file beside the image (relative path), or nowhere. */
export type ManifestSource = { kind: 'inline'; json: string } | { kind: 'sidecar'; path: string } | { kind: 'none' };

/** One RGBA group: R, B hold IDs and G, A their coverage; group g holds ranks 2g and 2g+1. */
export type RankGroup = readonly [r: string, g: string, b: string, a: string];

export interface CryptomatteLayer {
  /** The `<key>` of its attributes. */
  key: string;
  /** The `name` attribute, e.g. "crypto_object": the prefix of its channels. */
  name: string;
  manifest: ManifestSource;
  /** Channel names, group 00 first. */
  groups: RankGroup[];
}

export interface CryptomatteScan {
  layers: CryptomatteLayer[];
  /** Layers that cannot be used, one error each (a bad layer leaves the others usable). */
  problems: CryptomatteError[];
}

/** What the scan needs of a channel. */
export interface ChannelHeader {
  name: string;
  pixelType: 'uint' | 'half' | 'float';
}

const ATTRIBUTE = /^cryptomatte\/([^/]+)\/(name|hash|conversion|manifest|manif_file)$/;
const COMPONENTS = ['R', 'G', 'B', 'A'] as const;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The part's Cryptomatte layers, from its string attributes (name → value) and its channels. */
export function findCryptomattes(attributes: ReadonlyMap<string, string>, channels: readonly ChannelHeader[]): CryptomatteScan {
  const byKey = new Map<string, Map<string, string>>();
  for (const [attribute, value] of attributes) {
    const m = ATTRIBUTE.exec(attribute);
    if (!m) continue;
    const fields = byKey.get(m[1]!) ?? new Map<string, string>();
    fields.set(m[2]!, value);
    byKey.set(m[1]!, fields);
  }
  const scan: CryptomatteScan = { layers: [], problems: [] };
  for (const [key, fields] of [...byKey].sort(([a], [b]) => (a < b ? -1 : 1))) {
    try {
      scan.layers.push(layerOf(key, fields, channels));
    } catch (error) {
      if (!(error instanceof CryptomatteError)) throw error;
      scan.problems.push(error.layer === undefined ? new CryptomatteError(error.kind, error.message, fields.get('name')) : error);
    }
  }
  return scan;
}

function layerOf(key: string, fields: ReadonlyMap<string, string>, channels: readonly ChannelHeader[]): CryptomatteLayer {
  const name = fields.get('name');
  if (!name)
    throw new CryptomatteError(
      'missing-name',
      `Cryptomatte key ${key} has no cryptomatte/${key}/name attribute, so its channels cannot be found; re-export the file`,
    );
  // the spec defines one hash and one conversion: a file that names no other is read with them
  const hash = fields.get('hash') ?? HASH_MURMUR3;
  if (hash !== HASH_MURMUR3)
    throw new CryptomatteError(
      'unknown-hash',
      `Cryptomatte layer ${name} uses hash "${hash}"; only ${HASH_MURMUR3} is defined (spec v1.2): re-export with it`,
    );
  const conversion = fields.get('conversion') ?? CONVERSION_UINT32_TO_FLOAT32;
  if (conversion !== CONVERSION_UINT32_TO_FLOAT32)
    throw new CryptomatteError(
      'unknown-conversion',
      `Cryptomatte layer ${name} uses conversion "${conversion}"; ` +
        `only ${CONVERSION_UINT32_TO_FLOAT32} is defined (spec v1.2): re-export with it`,
    );
  const inline = fields.get('manifest');
  const sidecar = fields.get('manif_file');
  const manifest: ManifestSource =
    inline !== undefined ? { kind: 'inline', json: inline } : sidecar ? { kind: 'sidecar', path: sidecar } : { kind: 'none' };
  return { key, name, manifest, groups: rankGroups(name, channels) };
}

/** The layer's RGBA groups in rank order: numbered from 00 without a gap, each with all four channels stored as float. */
function rankGroups(name: string, channels: readonly ChannelHeader[]): RankGroup[] {
  const pattern = new RegExp(`^${escapeRegExp(name)}(\\d{2,})\\.([RGBA])$`);
  const found = new Map<number, Map<string, ChannelHeader>>();
  for (const channel of channels) {
    const m = pattern.exec(channel.name);
    if (!m) continue;
    const group = Number(m[1]);
    const components = found.get(group) ?? new Map<string, ChannelHeader>();
    components.set(m[2]!, channel);
    found.set(group, components);
  }
  if (found.size === 0)
    throw new CryptomatteError(
      'no-ranks',
      `Cryptomatte layer ${name} has no rank channels (${name}00.R, ${name}00.G, …); the file lacks its pixels: re-export it`,
    );
  const groups: RankGroup[] = [];
  const count = Math.max(...found.keys()) + 1;
  for (let g = 0; g < count; g++) {
    const label = `${name}${String(g).padStart(2, '0')}`;
    const components = found.get(g);
    if (!components)
      throw new CryptomatteError(
        'missing-rank',
        `Cryptomatte layer ${name} has rank channels up to ${name}${String(count - 1).padStart(2, '0')} but not ${label}; ` +
          'ranks must be numbered from 00 without a gap: re-export the file',
      );
    const missing = COMPONENTS.filter((c) => !components.has(c));
    if (missing.length)
      throw new CryptomatteError(
        'missing-channel',
        `Cryptomatte layer ${name} lacks ${missing.map((c) => `${label}.${c}`).join(', ')}; ` +
          'each rank group needs R, G, B and A: re-export the file',
      );
    const half = COMPONENTS.map((c) => components.get(c)!).find((c) => c.pixelType !== 'float');
    if (half)
      throw new CryptomatteError(
        'not-float',
        `Cryptomatte channel ${half.name} is stored as ${half.pixelType}; ` +
          'IDs need 32-bit float (a half loses their bits): re-render with float',
      );
    groups.push([`${label}.R`, `${label}.G`, `${label}.B`, `${label}.A`]);
  }
  return groups;
}

/** The layer named `name` (or, with one layer and no name, that one); else an error listing the layers there are. */
export function pickLayer(scan: CryptomatteScan, name: string | undefined): CryptomatteLayer {
  const layer = name === undefined && scan.layers.length === 1 ? scan.layers[0] : scan.layers.find((l) => l.name === name);
  if (layer) return layer;
  const broken = scan.problems.find((p) => name !== undefined && p.layer === name);
  if (broken) throw broken;
  const names = scan.layers.map((l) => l.name);
  throw new CryptomatteError(
    'unknown-layer',
    names.length === 0
      ? `no Cryptomatte layer here${scan.problems.length ? ` that can be read (${scan.problems[0]!.message})` : ''}`
      : name === undefined
        ? `there are ${names.length} Cryptomatte layers (${names.join(', ')}): name one with --layer`
        : `no Cryptomatte layer "${name}"; the layers are ${names.join(', ')}`,
  );
}

// Cryptomatte test files made by the project's writer as the specification (v1.2) says: IDs are MurmurHash3 of the names
// converted to float, ranks sorted by coverage, one layer with an inline manifest, one with a sidecar, one with none;
// names that need escaping in JSON and names beyond ASCII. Each layer's per-pixel truth comes back for the tests.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { floatToHalf, writeExrFile, type WriteChannel } from '../../codec/index.js';
import { idHex, idOfName, idToFloat } from '../../shaders/cryptomatte/hash.js';

/** Names a manifest must escape (quote, backslash, control characters), beyond ASCII, and ones that look like syntax. */
export const OBJECT_NAMES = [
  'bunny',
  'default',
  'chair "red"',
  'back\\slash',
  'tab\there',
  'line\nbreak',
  'Zürich café',
  '名前/オブジェクト',
  'rabbit 🐇',
  'a,b',
  '<1234abcd>',
  '/root/set/obj.001',
];
export const MATERIAL_NAMES = ['mtl_wood', 'mtl "glass"', 'mtl_métal', 'mtl\\chrome', 'default'];
export const ASSET_NAMES = ['asset_tree', 'asset_rock', 'asset_ÿ'];

/** A pixel's (name, coverage) pairs as written: sorted by coverage, most first, cut to the layer's ranks. */
export type PixelTruth = readonly (readonly [name: string, coverage: number])[];

export interface LayerTruth {
  name: string;
  names: readonly string[];
  rankGroups: number;
  pixels: PixelTruth[];
}

export interface CryptomatteFixture {
  file: string;
  sidecar: string;
  widthPx: number;
  heightPx: number;
  layers: { object: LayerTruth; material: LayerTruth; asset: LayerTruth };
}

/** A small deterministic generator (mulberry32), so that every run writes the same file. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Per pixel: 0 to 7 distinct names with coverage summing to at most 1, sorted most first and cut to 2 × rankGroups. */
function layerTruth(name: string, names: readonly string[], rankGroups: number, pixelCount: number, seed: number): LayerTruth {
  const next = random(seed);
  const pixels: PixelTruth[] = [];
  for (let i = 0; i < pixelCount; i++) {
    const count = Math.floor(next() * 8);
    const picked = new Set<string>();
    while (picked.size < Math.min(count, names.length)) picked.add(names[Math.floor(next() * names.length)]!);
    const weights = [...picked].map(() => 0.05 + next());
    // a pixel partly empty (coverage below 1) as at an object's edge over nothing
    const total = weights.reduce((a, b) => a + b, 0) * (next() < 0.3 ? 1.25 : 1);
    const pairs = [...picked].map((n, k) => [n, Math.fround(weights[k]! / total)] as const);
    pairs.sort((a, b) => b[1] - a[1] || (idOfName(a[0]) < idOfName(b[0]) ? -1 : 1));
    pixels.push(pairs.slice(0, rankGroups * 2));
  }
  return { name, names, rankGroups, pixels };
}

function rankChannels(truth: LayerTruth, pixelCount: number): WriteChannel[] {
  const channels: WriteChannel[] = [];
  for (let g = 0; g < truth.rankGroups; g++) {
    const planes = [0, 1, 2, 3].map(() => new Float32Array(pixelCount));
    truth.pixels.forEach((pairs, i) => {
      for (const rank of [2 * g, 2 * g + 1]) {
        const pair = pairs[rank];
        if (!pair) continue; // unused ranks stay ID 0, coverage 0
        planes[(rank - 2 * g) * 2]![i] = idToFloat(idOfName(pair[0]));
        planes[(rank - 2 * g) * 2 + 1]![i] = pair[1];
      }
    });
    const label = `${truth.name}${String(g).padStart(2, '0')}`;
    ['R', 'G', 'B', 'A'].forEach((c, k) => channels.push({ name: `${label}.${c}`, pixelType: 'float', data: planes[k]! }));
  }
  return channels;
}

/** The manifest as JSON; `asciiOnly` writes every non-ASCII character as \uXXXX, as some renderers do. */
export function manifestJson(names: readonly string[], asciiOnly = false): string {
  const json = JSON.stringify(Object.fromEntries(names.map((n) => [n, idHex(idOfName(n))])));
  return asciiOnly ? json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}

/** The spec's key of a layer: the first 7 hex digits of its name's hash. */
export function layerKey(name: string): string {
  return idHex(idOfName(name)).slice(0, 7);
}

/** Writes `cryptomatte.exr` (RGBA beauty, crypto_object, crypto_material, crypto_asset) and its sidecar into `dir`. */
export function writeCryptomatteFixture(dir: string, widthPx = 48, heightPx = 32): CryptomatteFixture {
  const pixelCount = widthPx * heightPx;
  const object = layerTruth('crypto_object', OBJECT_NAMES, 3, pixelCount, 1);
  const material = layerTruth('crypto_material', MATERIAL_NAMES, 2, pixelCount, 2);
  const asset = layerTruth('crypto_asset', ASSET_NAMES, 1, pixelCount, 3);
  const sidecarName = 'cryptomatte.crypto_material.json';
  const sidecar = join(dir, sidecarName);
  writeFileSync(sidecar, manifestJson(MATERIAL_NAMES, true));
  const beauty = ['R', 'G', 'B', 'A'].map((c, k): WriteChannel => {
    const data = new Uint16Array(pixelCount);
    for (let i = 0; i < pixelCount; i++) data[i] = floatToHalf(k === 3 ? 1 : ((i * (k + 1)) % 97) / 97);
    return { name: c, pixelType: 'half', data };
  });
  const meta = (truth: LayerTruth) => `cryptomatte/${layerKey(truth.name)}`;
  const string = (value: string) => ({ type: 'string' as const, value });
  const file = join(dir, 'cryptomatte.exr');
  writeExrFile(file, [
    {
      compression: 'zip',
      dataWindow: { xMin: 0, yMin: 0, xMax: widthPx - 1, yMax: heightPx - 1 },
      channels: [...beauty, ...rankChannels(object, pixelCount), ...rankChannels(material, pixelCount), ...rankChannels(asset, pixelCount)],
      attributes: {
        [`${meta(object)}/name`]: string(object.name),
        [`${meta(object)}/hash`]: string('MurmurHash3_32'),
        [`${meta(object)}/conversion`]: string('uint32_to_float32'),
        [`${meta(object)}/manifest`]: string(manifestJson(OBJECT_NAMES)),
        [`${meta(material)}/name`]: string(material.name),
        [`${meta(material)}/hash`]: string('MurmurHash3_32'),
        [`${meta(material)}/conversion`]: string('uint32_to_float32'),
        [`${meta(material)}/manif_file`]: string(sidecarName),
        [`${meta(asset)}/name`]: string(asset.name),
        [`${meta(asset)}/hash`]: string('MurmurHash3_32'),
        [`${meta(asset)}/conversion`]: string('uint32_to_float32'),
      },
    },
  ]);
  return { file, sidecar, widthPx, heightPx, layers: { object, material, asset } };
}

/** The matte the specification gives for `picks` from the generator's own record (not the file): coverage summed in rank order. */
export function expectedMatte(truth: LayerTruth, picks: readonly string[]): Float32Array {
  const set = new Set(picks);
  return Float32Array.from(truth.pixels, (pairs) =>
    pairs.reduce((sum, [name, coverage]) => (set.has(name) ? Math.fround(sum + coverage) : sum), 0),
  );
}

// A Cryptomatte layer's matte of picked names, encoded as EXR (float) or PNG (8-bit): the one code `exrview matte` and the
// viewer's export run, so that both write the same bytes for the same names. Also the layers of a part and their manifests.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ExrReader, writeExr, openFileSource, type PartInfo } from '../../codec/index.js';
import { CryptomatteError } from '../../shaders/cryptomatte/errors.js';
import { floatToId, type CryptoId } from '../../shaders/cryptomatte/hash.js';
import { findCryptomattes, pickLayer, type CryptomatteLayer, type CryptomatteScan } from '../../shaders/cryptomatte/layers.js';
import { idOfPick, parseManifest, type Manifest } from '../../shaders/cryptomatte/manifest.js';
import { matteCpu, type RankGroupPlanes } from '../../shaders/cryptomatte/matte-cpu.js';
import type { CryptomatteHeader } from '../../contract/host-api.js';
import { fsReason } from '../io/fs-reason.js';
import { encodeRgba8 } from './encode.js';

/** A layer and the part that holds it. */
export interface FoundLayer {
  part: PartInfo;
  layer: CryptomatteLayer;
}

export interface Matte {
  values: Float32Array<ArrayBuffer>;
  widthPx: number;
  heightPx: number;
}

/** The part's Cryptomatte layers, from its string attributes and its channels. */
export function scanPart(part: PartInfo): CryptomatteScan {
  const strings = new Map(part.attributes.flatMap((a) => (a.value.type === 'string' ? [[a.name, a.value.value] as const] : [])));
  return findCryptomattes(strings, part.channels);
}

/** The first part with the layer (or the file's only layer when none is named); CryptomatteError when there is none. */
export function findLayer(scans: readonly { part: PartInfo; scan: CryptomatteScan }[], name: string | undefined): FoundLayer {
  const all: CryptomatteScan = { layers: scans.flatMap((s) => s.scan.layers), problems: scans.flatMap((s) => s.scan.problems) };
  const layer = pickLayer(all, name);
  return { part: scans.find((s) => s.scan.layers.includes(layer))!.part, layer };
}

/** The layer's manifest text: inline, or the sidecar beside the image; null (names hashed) with why, when there is none. */
export function manifestText(file: string, layer: CryptomatteLayer): { json: string | null; warning: string | null } {
  const source = layer.manifest;
  if (source.kind === 'inline') return { json: source.json, warning: null };
  if (source.kind === 'none')
    return { json: null, warning: `${layer.name} has no manifest: names are hashed, not checked against the file` };
  const path = resolve(dirname(file), source.path);
  if (!existsSync(path))
    return {
      json: null,
      warning:
        `${layer.name}'s manifest file ${source.path} is not beside the image: ` +
        'names are hashed, not checked (put the file back to list them)',
    };
  try {
    return { json: readFileSync(path, 'utf8'), warning: null };
  } catch (error) {
    throw new CryptomatteError('missing-sidecar', `${layer.name}'s manifest file ${path} cannot be read: ${fsReason(error)}`, layer.name);
  }
}

/** The layer's manifest parsed: null (names hashed) with a warning when there is none. */
export function manifestOf(file: string, layer: CryptomatteLayer, warn: (text: string) => void): Manifest | null {
  const { json, warning } = manifestText(file, layer);
  if (warning) warn(warning);
  if (json === null) return null;
  const where = layer.manifest.kind === 'sidecar' ? `${layer.name}'s manifest file ${layer.manifest.path}` : `${layer.name}'s manifest`;
  return parseManifest(json, where);
}

/** The layer's rank groups decoded as float planes. */
export function decodeGroups(
  reader: ExrReader,
  { part, layer }: FoundLayer,
): { groups: RankGroupPlanes[]; widthPx: number; heightPx: number } {
  const image = reader.decode({ part: part.index, channels: layer.groups.flat() });
  const plane = (name: string) => image.channels.find((c) => c.name === name)!.data as Float32Array;
  return {
    groups: layer.groups.map((names) => names.map(plane) as unknown as RankGroupPlanes),
    widthPx: image.widthPx,
    heightPx: image.heightPx,
  };
}

/** Distinct IDs the layer's pixels hold (0, an unused rank, left out), for a listing without a manifest. */
export function idsInPixels(reader: ExrReader, found: FoundLayer): CryptoId[] {
  const { groups } = decodeGroups(reader, found);
  const ids = new Set<CryptoId>();
  for (const [id0, , id1] of groups)
    for (const plane of [id0, id1]) for (const value of new Uint32Array(plane.buffer, plane.byteOffset, plane.length)) ids.add(value);
  ids.delete(floatToId(0));
  return [...ids].sort((a, b) => a - b);
}

/** The spec's matte of `ids` over the layer (the CPU reference). */
export function matteOf(reader: ExrReader, found: FoundLayer, ids: readonly CryptoId[]): Matte {
  const { groups, widthPx, heightPx } = decodeGroups(reader, found);
  return { values: matteCpu(groups, ids, widthPx * heightPx), widthPx, heightPx };
}

/** The matte as file bytes: EXR (one float channel A, zip, the part's windows) or PNG (8-bit grey, NaN as 0). */
export async function encodeMatte(matte: Matte, part: PartInfo, format: 'exr' | 'png'): Promise<Uint8Array> {
  if (format === 'exr') {
    return writeExr([
      {
        compression: 'zip',
        dataWindow: part.dataWindow,
        displayWindow: part.displayWindow,
        channels: [{ name: 'A', pixelType: 'float', data: matte.values }],
      },
    ]);
  }
  const rgba = new Uint8Array(matte.values.length * 4);
  matte.values.forEach((v, i) => {
    // NaN (a rank pair holding one) shows as uncovered
    const level = Number.isNaN(v) ? 0 : Math.round(Math.min(1, Math.max(0, v)) * 255);
    rgba.fill(level, i * 4, i * 4 + 3);
    rgba[i * 4 + 3] = 255;
  });
  const png = await encodeRgba8(rgba, matte.widthPx, matte.heightPx, 'png', 0);
  return new Uint8Array(png.buffer, png.byteOffset, png.length);
}

/** Opens `file` for reading; the caller closes the source. */
export function openMatteReader(file: string): { reader: ExrReader; close(): void } {
  const source = openFileSource(file);
  try {
    return { reader: ExrReader.open(source), close: () => source.close() };
  } catch (error) {
    source.close();
    throw error;
  }
}

/** The matte of `names` (manifest names, or `<hex>` IDs) from `layer` of `file`, encoded: what the viewer's export writes. */
export async function matteFileBytes(
  file: string,
  layerName: string,
  names: readonly string[],
  format: 'exr' | 'png',
): Promise<Uint8Array> {
  if (names.length === 0) throw new Error('no names are picked: pick the names whose matte to export');
  const { reader, close } = openMatteReader(file);
  try {
    const scans = reader.parts.filter((p) => !p.isDeep).map((part) => ({ part, scan: scanPart(part) }));
    const found = findLayer(scans, layerName);
    const manifest = manifestOf(file, found.layer, () => {});
    const ids = names.map((pick) => idOfPick(manifest, pick, found.layer.name));
    return await encodeMatte(matteOf(reader, found, ids), found.part, format);
  } finally {
    close();
  }
}

/** A part's Cryptomatte layers for the viewer (with each manifest's text, read from the sidecar where there is one). */
export function cryptomatteHeader(file: string, part: PartInfo): CryptomatteHeader | undefined {
  const scan = scanPart(part);
  if (scan.layers.length === 0 && scan.problems.length === 0) return undefined;
  return {
    layers: scan.layers.map((layer) => {
      let manifest: { json: string | null; warning: string | null };
      try {
        manifest = manifestText(file, layer);
      } catch (error) {
        manifest = { json: null, warning: error instanceof Error ? error.message : String(error) };
      }
      return {
        name: layer.name,
        key: layer.key,
        groups: layer.groups.map((g) => [...g]),
        manifestKind: layer.manifest.kind,
        ...(layer.manifest.kind === 'sidecar' ? { manifestPath: layer.manifest.path } : {}),
        manifestJson: manifest.json,
        ...(manifest.warning ? { manifestWarning: manifest.warning } : {}),
      };
    }),
    problems: scan.problems.map((p) => ({ layer: p.layer ?? null, kind: p.kind, message: p.message })),
  };
}

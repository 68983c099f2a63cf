// A Cryptomatte layer as the viewer holds it: its rank planes on the CPU (for the name under the pointer and the checks),
// its manifest, and what is wrong with it (ranks out of order, IDs no name has). Pure.
import { floatToId, idHex, type CryptoId } from '../../shaders/cryptomatte/hash.js';
import { interleaveGroup, type RankGroupPlanes } from '../../shaders/cryptomatte/matte-cpu.js';
import { idOfPick, nameOfId, parseManifest, type Manifest } from '../../shaders/cryptomatte/manifest.js';
import type { CryptomatteHeader } from '../host-client/api-types.js';

export type CryptomatteLayerInfo = CryptomatteHeader['layers'][number];

export interface LoadedLayer {
  name: string;
  manifest: Manifest | null;
  groups: RankGroupPlanes[];
  /** The groups interleaved as the GPU pass uploads them. */
  interleaved: Float32Array<ArrayBuffer>[];
  /** Absolute pixel of the planes' first sample. */
  originX: number;
  originY: number;
  widthPx: number;
  heightPx: number;
  /** Warnings and errors about the layer, each saying what to do. */
  notes: string[];
}

/** The layer's manifest, or null (names hashed) with a note saying why; a manifest that cannot be read is a note too. */
export function manifestOfLayer(info: CryptomatteLayerInfo, notes: string[]): Manifest | null {
  if (info.manifestWarning) notes.push(info.manifestWarning);
  if (info.manifestJson === null) return null;
  const where = info.manifestKind === 'sidecar' ? `${info.name}'s manifest file ${info.manifestPath}` : `${info.name}'s manifest`;
  try {
    const manifest = parseManifest(info.manifestJson, where);
    for (const { names } of manifest.collisions)
      notes.push(`${names.map((n) => JSON.stringify(n)).join(' and ')} share one ID: picking one picks them all`);
    if (manifest.mismatched.length)
      notes.push(
        `${where} lists ${manifest.mismatched.length} name${manifest.mismatched.length === 1 ? '' : 's'} whose ID is not the hash ` +
          `of the name (${manifest.mismatched
            .slice(0, 3)
            .map((n) => JSON.stringify(n))
            .join(', ')}): the listed IDs are used`,
      );
    return manifest;
  } catch (error) {
    notes.push(error instanceof Error ? error.message : String(error));
    return null;
  }
}

/** Builds the layer from its decoded planes (float32, by channel name) and checks it. */
export function loadLayer(
  info: CryptomatteLayerInfo,
  plane: (name: string) => Float32Array | null,
  box: { originX: number; originY: number; widthPx: number; heightPx: number },
): LoadedLayer {
  const notes: string[] = [];
  const manifest = manifestOfLayer(info, notes);
  const pixelCount = box.widthPx * box.heightPx;
  const groups = info.groups.map((names) => {
    const planes = names.map((n) => {
      const p = plane(n);
      if (!p || p.length < pixelCount)
        throw new Error(`${info.name}: the channel ${n} did not arrive whole; reload the image (R) or re-export the file`);
      return p;
    });
    return planes as unknown as RankGroupPlanes;
  });
  notes.push(...checkRanks(info.name, groups, pixelCount, manifest));
  return {
    name: info.name,
    manifest,
    groups,
    interleaved: groups.map((g) => interleaveGroup(g, pixelCount)),
    ...box,
    notes,
  };
}

/** Ranks whose coverage rises (the spec sorts them, most first), IDs no manifest name has, NaN coverage: one note each. */
export function checkRanks(layer: string, groups: readonly RankGroupPlanes[], pixelCount: number, manifest: Manifest | null): string[] {
  let outOfOrder = 0,
    notNumbers = 0;
  const unknown = new Set<CryptoId>();
  const zero = floatToId(0);
  for (let i = 0; i < pixelCount; i++) {
    let previous = Infinity,
      bad = false;
    for (const [id0, c0, id1, c1] of groups)
      for (const [ids, coverage] of [
        [id0, c0],
        [id1, c1],
      ] as const) {
        const c = coverage[i]!;
        if (Number.isNaN(c)) notNumbers++;
        else if (c > previous) bad = true;
        if (!Number.isNaN(c)) previous = c;
        if (manifest && c !== 0) {
          const id = floatToId(ids[i]!);
          if (id !== zero && !manifest.nameOf.has(id)) unknown.add(id);
        }
      }
    if (bad) outOfOrder++;
  }
  const notes: string[] = [];
  if (outOfOrder)
    notes.push(
      `${layer}: ranks are out of order in ${outOfOrder} pixel${outOfOrder === 1 ? '' : 's'} (coverage must fall from rank 0 on); ` +
        'mattes still sum every rank, but the name under the pointer is the most covering one: re-render to fix the file',
    );
  if (notNumbers)
    notes.push(`${layer}: ${notNumbers} rank coverage value${notNumbers === 1 ? ' is' : 's are'} NaN; those ranks add nothing`);
  if (unknown.size)
    notes.push(
      `${layer}: ${unknown.size} ID${unknown.size === 1 ? '' : 's'} in the pixels match no name of the manifest ` +
        `(${[...unknown].slice(0, 3).map(idHex).join(', ')}${unknown.size > 3 ? ', …' : ''}): they show as <hex>; re-export the manifest`,
    );
  return notes;
}

/** What is under absolute pixel (x, y): the most covering ID, its name and coverage; null outside or where nothing is. */
export function idAt(layer: LoadedLayer, x: number, y: number): { id: CryptoId; name: string; coverage: number } | null {
  const px = x - layer.originX,
    py = y - layer.originY;
  if (px < 0 || py < 0 || px >= layer.widthPx || py >= layer.heightPx) return null;
  const i = py * layer.widthPx + px;
  let best: { id: CryptoId; coverage: number } | null = null;
  for (const [id0, c0, id1, c1] of layer.groups)
    for (const [ids, coverage] of [
      [id0, c0],
      [id1, c1],
    ] as const) {
      const c = coverage[i]!;
      if (!(c > 0) || (best && c <= best.coverage)) continue;
      best = { id: floatToId(ids[i]!), coverage: c };
    }
  return best ? { ...best, name: nameOfId(layer.manifest, best.id) } : null;
}

/** The IDs of the picked names; names the manifest lacks are left out and named in `unknown`. */
export function pickedIds(layer: LoadedLayer, picked: readonly string[]): { ids: CryptoId[]; unknown: string[] } {
  const ids: CryptoId[] = [],
    unknown: string[] = [];
  for (const name of picked) {
    try {
      ids.push(idOfPick(layer.manifest, name, layer.name));
    } catch {
      unknown.push(name);
    }
  }
  return { ids, unknown };
}

/** The names the list offers: the manifest's, else the IDs the pixels hold as <hex>. */
export function listedNames(layer: LoadedLayer): { name: string; id: CryptoId }[] {
  if (layer.manifest) return layer.manifest.names.map((name) => ({ name, id: layer.manifest!.idOf.get(name)! }));
  const ids = new Set<CryptoId>();
  for (const [id0, , id1] of layer.groups)
    for (const plane of [id0, id1])
      for (const v of new Uint32Array(plane.buffer, plane.byteOffset, layer.widthPx * layer.heightPx)) ids.add(v);
  ids.delete(floatToId(0));
  return [...ids].sort((a, b) => a - b).map((id) => ({ name: nameOfId(null, id), id }));
}

// A Cryptomatte manifest (JSON: name → 8 hex digits of the ID) parsed, and looked up both ways; without one, names are hashed.

import { CryptomatteError } from './errors.js';
import { idHex, idOfName, type CryptoId } from './hash.js';

export interface Manifest {
  /** Sorted by code point, as `exrview matte --list` prints them. */
  readonly names: readonly string[];
  readonly idOf: ReadonlyMap<string, CryptoId>;
  /** The first name listed for an ID (a collision keeps it and lists the others in `collisions`). */
  readonly nameOf: ReadonlyMap<CryptoId, string>;
  /** Names whose ID another name of the manifest has too: their mattes cannot be told apart. */
  readonly collisions: readonly { id: CryptoId; names: readonly string[] }[];
  /** Names whose listed ID is not the hash of the name (the file's ID is used: it is what the pixels hold). */
  readonly mismatched: readonly string[];
}

const HEX_ID = /^[0-9a-fA-F]{1,8}$/;

/** Parses manifest JSON; `where` names its origin in messages ("the crypto_object manifest", a sidecar's path). */
export function parseManifest(json: string, where: string): Manifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new CryptomatteError(
      'bad-manifest',
      `${where} is not valid JSON (${(error as Error).message}); names are unknown: re-export the file, or pick by ID`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new CryptomatteError('bad-manifest', `${where} is not a JSON object of name: "hex ID" pairs; re-export the file`);
  const idOf = new Map<string, CryptoId>();
  const byId = new Map<CryptoId, string[]>();
  const mismatched: string[] = [];
  for (const [name, hex] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof hex !== 'string' || !HEX_ID.test(hex))
      throw new CryptomatteError(
        'bad-manifest',
        `${where}: the ID of ${JSON.stringify(name)} is ${JSON.stringify(hex)}, not 8 hex digits; re-export the file`,
      );
    const id = parseInt(hex, 16) >>> 0;
    idOf.set(name, id);
    if (idOfName(name) !== id) mismatched.push(name);
    const same = byId.get(id);
    if (same) same.push(name);
    else byId.set(id, [name]);
  }
  const nameOf = new Map<CryptoId, string>();
  const collisions: { id: CryptoId; names: string[] }[] = [];
  for (const [id, names] of byId) {
    nameOf.set(id, names[0]!);
    if (names.length > 1) collisions.push({ id, names });
  }
  return { names: [...idOf.keys()].sort(byCodePoint), idOf, nameOf, collisions, mismatched };
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What to call an ID: its manifest name, else its hex in angle brackets (a layer without a manifest has no names). */
export function nameOfId(manifest: Manifest | null, id: CryptoId): string {
  return manifest?.nameOf.get(id) ?? `<${idHex(id)}>`;
}

/**
 * The ID a picked name stands for: the manifest's, else (no manifest) its hash. `<hex>` picks an ID directly. A name the
 * manifest lacks is an error (a typo would otherwise give an empty matte), saying the nearest listed names.
 */
export function idOfPick(manifest: Manifest | null, pick: string, layer: string): CryptoId {
  // a listed name first: a name may itself look like <hex>
  const id = manifest?.idOf.get(pick);
  if (id !== undefined) return id;
  const hex = /^<([0-9a-fA-F]{1,8})>$/.exec(pick);
  if (hex) return parseInt(hex[1]!, 16) >>> 0;
  if (!manifest) return idOfName(pick);
  throw new CryptomatteError(
    'unknown-name',
    `${JSON.stringify(pick)} is not in ${layer}'s manifest (${manifest.names.length} names); list them with --list, or pick an ID as <hex>`,
  );
}

// Reads an OpenColorIO config from disk with the LUT files it references (search_path, context variables), for the page.

import { open } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { parseConfig, type OcioConfig } from '../../shaders/colour/index.js';
import { LUT_EXTENSIONS, sizeText, unpackOcioz } from '../../shaders/colour/open-config.js';
import type { ColourConfigFile, ColourConfigFiles } from '../../contract/host-api.js';
import { fsReason } from '../io/fs-reason.js';

export interface ConfigReadLimits {
  /** A config is text: a large studio config is a few hundred KB. */
  maxConfigBytes: number;
  /** One LUT file (a 65³ .cube is about 7 MB as text). */
  maxLutBytes: number;
  /** Everything read for one config, archive included. */
  maxTotalBytes: number;
  /** LUT files read for one config. */
  maxFiles: number;
}

export const DEFAULT_CONFIG_READ_LIMITS: ConfigReadLimits = {
  maxConfigBytes: 16 * 2 ** 20,
  maxLutBytes: 64 * 2 ** 20,
  maxTotalBytes: 256 * 2 ** 20,
  maxFiles: 2000,
};

/** OCIO's variables that change which displays, views and colour spaces a config shows. */
const OCIO_OVERRIDES = ['OCIO_ACTIVE_DISPLAYS', 'OCIO_ACTIVE_VIEWS', 'OCIO_INACTIVE_COLORSPACES'];

export type ReadConfigResult = Omit<ColourConfigFiles, 'recentColourConfigs'>;

/** A config that cannot be read at all: the message says which file, what happened and what to do. */
export class ConfigReadError extends Error {
  constructor(
    message: string,
    /** The file is not there (any more): a recent list drops it. */
    readonly missingFile = false,
  ) {
    super(message);
  }
}

/**
 * Reads `path` (an `.ocio`/`.yaml` config or an `.ocioz` archive) and every LUT file it names, resolved as OCIO does:
 * each FileTransform's `src` through the search_path, relative to the config's folder, `$VARS` from `env` over the
 * config's `environment:`. A LUT that cannot be read is listed in `missing` (the view that uses it names it when
 * built); a config that cannot be read or parsed throws, naming the file and line.
 */
export async function readColourConfigFiles(
  path: string,
  env: Record<string, string | undefined> = process.env,
  limits: ConfigReadLimits = DEFAULT_CONFIG_READ_LIMITS,
): Promise<ReadConfigResult> {
  const source = resolve(path);
  if (source.toLowerCase().endsWith('.ocioz')) return readArchive(source, env, limits);
  const text = new TextDecoder().decode(await readLimited(source, limits.maxConfigBytes, 'the OCIO config'));
  const config = parseConfig(text, source, env);
  const name = basename(source);
  const files: ColourConfigFile[] = [{ path: name, text }];
  const missing: ReadConfigResult['missing'] = [];
  let totalBytes = text.length;
  const seen = new Set<string>();
  for (const src of fileSources(config)) {
    const found = resolveLut(config, src, env);
    if ('reason' in found) {
      missing.push({ path: src, reason: found.reason });
      continue;
    }
    let read: { key: string; text: string } | { reason: string } | null = null;
    for (const candidate of found.candidates) {
      if (seen.has(candidate)) {
        read = { key: candidate, text: '' };
        break;
      }
      read = await readLut(resolve(dirname(source), candidate), candidate, limits);
      if (read !== null) break;
    }
    if (read === null) {
      missing.push({ path: src, reason: `not found (looked in ${found.candidates.join(', ')}): check the name and search_path` });
    } else if ('reason' in read) {
      missing.push({ path: src, reason: read.reason });
    } else if (!seen.has(read.key)) {
      seen.add(read.key);
      totalBytes += read.text.length;
      if (files.length > limits.maxFiles || totalBytes > limits.maxTotalBytes)
        throw new ConfigReadError(
          `${source} references more than ${limits.maxFiles} LUT files or ${sizeText(limits.maxTotalBytes)} of them: ` +
            'exrview does not load a config that large; split it, or trim its search_path',
        );
      files.push({ path: read.key, text: read.text });
    }
  }
  return { source, configPath: name, files, env: contextOf(config, env, fileSources(config)), missing };
}

/** A file's bytes when it is a regular file of at most `maxBytes`; else ConfigReadError saying why. */
async function readLimited(path: string, maxBytes: number, what: string): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ConfigReadError(`cannot read ${what} ${path}: no such file; check the path`, true);
    throw new ConfigReadError(`cannot read ${what} ${path}: ${fsReason(error)}`);
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new ConfigReadError(`${path} is a folder: name the .ocio file in it`);
    if (!info.isFile()) throw new ConfigReadError(`${path} is not a regular file: name the .ocio file itself`);
    if (info.size > maxBytes)
      throw new ConfigReadError(
        `${what} ${path} is ${sizeText(info.size)}, more than the ${sizeText(maxBytes)} exrview reads: is it the right file?`,
      );
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/** A LUT's text; null when there is no such file (the next search path is tried), a reason when it is there but not read. */
async function readLut(
  diskPath: string,
  key: string,
  limits: ConfigReadLimits,
): Promise<{ key: string; text: string } | { reason: string } | null> {
  try {
    return { key, text: new TextDecoder().decode(await readLimited(diskPath, limits.maxLutBytes, 'the LUT file')) };
  } catch (error) {
    if (error instanceof ConfigReadError && error.missingFile) return null;
    return { reason: (error as Error).message };
  }
}

/**
 * Where a FileTransform's `src` may lie, in search order, as processor.ts resolves it with the config's folder as '.'
 * (relative to that folder, or absolute): the keys the page looks LUTs up by. Or why it cannot be resolved.
 */
export function resolveLut(
  config: OcioConfig,
  src: string,
  env: Record<string, string | undefined>,
): { candidates: string[] } | { reason: string } {
  const unset: string[] = [];
  const expand = (text: string): string =>
    text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, braced: string | undefined, bare: string | undefined) => {
      const name = (braced ?? bare)!;
      const value = env[name] ?? config.environment[name];
      if (value === undefined) unset.push(name);
      return value ?? '';
    });
  const name = expand(src);
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  const paths = name.startsWith('/')
    ? [name]
    : (config.searchPaths.length ? config.searchPaths : ['.']).map((sp) => joinKey(expand(sp), name));
  if (unset.length)
    return { reason: `context variable $${unset[0]} is not set: set it where exrview runs, or in the config's \`environment:\`` };
  if (!LUT_EXTENSIONS.has(ext)) return { reason: `".${ext}" is not a LUT format exrview reads, so it is not read` };
  return { candidates: paths };
}

/** `dir/file` as processor.ts joins a search path and a name ('.' and '' are the config's folder). */
function joinKey(dir: string, file: string): string {
  if (file.startsWith('/')) return file;
  if (dir === '.' || dir === '') return file.replace(/^\.\//, '');
  return `${dir.replace(/\/$/, '')}/${file.replace(/^\.\//, '')}`;
}

/** Every FileTransform's `src` in the config: colour spaces, looks, view and named transforms, at any depth. */
export function fileSources(config: OcioConfig): string[] {
  const found = new Set<string>();
  const walk = (value: unknown, depth: number): void => {
    if (depth > 64 || typeof value !== 'object' || value === null || value instanceof Set) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
      return;
    }
    const map = value as Record<string, unknown>;
    if (map.$tag === 'FileTransform' && (typeof map.src === 'string' || typeof map.src === 'number')) found.add(String(map.src));
    for (const child of Object.values(map)) walk(child, depth + 1);
  };
  walk([config.colourSpaces, config.looks, config.viewTransforms, config.namedTransforms], 0);
  return [...found];
}

/** The environment's values of the variables the config names, and of OCIO's overrides: the page gets no others. */
function contextOf(config: OcioConfig, env: Record<string, string | undefined>, sources: string[]): Record<string, string> {
  const names = new Set(OCIO_OVERRIDES);
  for (const text of [...config.searchPaths, ...sources, ...config.colourSpaces.map((cs) => cs.name)])
    for (const m of text.matchAll(/\$\{(\w+)\}|\$(\w+)/g)) names.add((m[1] ?? m[2])!);
  const out: Record<string, string> = {};
  for (const name of names) if (env[name] !== undefined) out[name] = env[name]!;
  return out;
}

/** An `.ocioz`: its config and LUT entries, by their paths inside the archive (the page unpacks one the same way). */
async function readArchive(source: string, env: Record<string, string | undefined>, limits: ConfigReadLimits): Promise<ReadConfigResult> {
  const bytes = await readLimited(source, limits.maxTotalBytes, 'the OCIO archive');
  let unpacked;
  try {
    unpacked = await unpackOcioz(bytes, {
      maxEntryBytes: limits.maxLutBytes,
      maxTotalBytes: limits.maxTotalBytes,
      maxFiles: limits.maxFiles,
    });
  } catch (error) {
    throw new ConfigReadError(`${source} is not a readable .ocioz archive (${(error as Error).message}): re-pack it with ocioarchive`);
  }
  const { configPath, files } = unpacked;
  const config = parseConfig(files.find((f) => f.path === configPath)!.text, `${source}/${configPath}`, env);
  return { source, configPath, files, env: contextOf(config, env, fileSources(config)), missing: [] };
}

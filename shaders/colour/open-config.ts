// Opens a config by what the user names: a `.ocio` file, a `.ocioz` archive (its LUTs read from inside), or an `ocio://` built-in.

import { builtinConfigTree, isBuiltinUri, resolveBuiltinUri, BUILTIN_ALIASES, BUILTIN_CONFIGS } from './builtin-configs/index.js';
import { parseConfig, parseConfigTree, type OcioConfig } from './config.js';
import { ColourConfigError } from './errors.js';
import type { ColourFiles } from './processor.js';

/** How files are read where the config is opened (Node: fs; the browser: what the host serves). */
export interface ConfigReader {
  readText(path: string): string;
  readBytes(path: string): Uint8Array;
  env?: Record<string, string | undefined>;
}

export interface OpenedConfig {
  config: OcioConfig;
  /** What the processor builder reads LUTs with: the archive's entries for a `.ocioz`. */
  files: ColourFiles;
  /** The URI an alias such as `ocio://default` resolved to, or the path as given. */
  resolved: string;
}

/** The LUT formats exrview reads: only these (and the config) are taken from a folder or an archive, nothing else. */
export const LUT_EXTENSIONS: ReadonlySet<string> = new Set(['cube', 'spi1d', 'spi3d', 'spimtx', 'clf', 'ctf', '3dl', 'csp']);

/** What an `.ocioz` may unpack to: the sizes its entries declare are checked before any is inflated (zip bombs). */
export interface ArchiveLimits {
  /** One entry, the config or a LUT (a 65³ .cube is about 7 MB as text; OCIO allows 256 MiB). */
  maxEntryBytes: number;
  /** The config and its LUTs together. */
  maxTotalBytes: number;
  /** LUT entries. */
  maxFiles: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = { maxEntryBytes: 256 * 2 ** 20, maxTotalBytes: 256 * 2 ** 20, maxFiles: 2000 };

/** An archive's config and LUT files, by their paths inside it ('luts/tone.spi1d'). */
export interface UnpackedArchive {
  configPath: string;
  files: { path: string; text: string }[];
}

/**
 * Unpacks an `.ocioz` (a zip whose first `.ocio` entry is the config) to its config and LUT files, the host's and the
 * page's one reader. Throws an Error saying what is wrong with it (not a zip, too big, no config); callers name the file.
 */
export async function unpackOcioz(bytes: Uint8Array, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<UnpackedArchive> {
  // the unzipper loads only for an archive: opening a built-in config or a .ocio costs none of it
  const { unzipSync } = await import('fflate');
  let totalBytes = 0;
  let count = 0;
  const entries = unzipSync(bytes, {
    filter: (file) => {
      const ext = file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase();
      if (file.name.endsWith('/') || !(ext === 'ocio' || LUT_EXTENSIONS.has(ext))) return false;
      totalBytes += file.originalSize;
      if (++count > limits.maxFiles + 1) throw new Error(`it holds more than ${limits.maxFiles} LUT files`);
      if (file.originalSize > limits.maxEntryBytes || totalBytes > limits.maxTotalBytes)
        throw new Error(`${file.name} makes it unpack to more than exrview reads (${sizeText(limits.maxEntryBytes)} a file)`);
      return true;
    },
  });
  const configPath = Object.keys(entries).find((name) => name.toLowerCase().endsWith('.ocio'));
  if (!configPath) throw new Error('it holds no .ocio config');
  const decoder = new TextDecoder();
  // an entry that inflates past the size it declared is refused after the fact (fflate sizes its output by the header)
  const files = Object.entries(entries).map(([path, data]) => {
    if (data.length > limits.maxEntryBytes) throw new Error(`${path} unpacks to more than ${sizeText(limits.maxEntryBytes)}`);
    return { path, text: decoder.decode(data) };
  });
  return { configPath, files };
}

/** "64 MiB", "12.5 MiB", "3 KiB", "100 bytes". */
export function sizeText(bytes: number): string {
  if (bytes >= 2 ** 20) return `${Number((bytes / 2 ** 20).toFixed(1))} MiB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

/**
 * A config from its text and LUT files held in memory (picked in a page, unpacked from an archive, read by the host):
 * LUTs are looked up by their path relative to the config's folder, else by file name. Throws ColourConfigError.
 */
export function openConfigFiles(
  configPath: string,
  files: ReadonlyMap<string, string>,
  env: Record<string, string | undefined> = {},
): OpenedConfig {
  const byPath = new Map([...files].map(([path, text]) => [tidy(path), text]));
  const text = byPath.get(tidy(configPath));
  if (text === undefined) throw new ColourConfigError(configPath, undefined, 'the config file was not among the files read');
  const config = parseConfig(text, configPath, env);
  const readText = (path: string): string => {
    const found = byPath.get(tidy(path)) ?? byPath.get(tidy(path).split('/').pop()!);
    if (found === undefined) throw new Error(`${path} not found`);
    return found;
  };
  return { config, files: { readText, env }, resolved: configPath };
}

export async function openConfig(source: string, reader: ConfigReader): Promise<OpenedConfig> {
  const env = reader.env ?? {};
  if (isBuiltinUri(source)) {
    const tree = await builtinConfigTree(source);
    if (tree === undefined) {
      const known = [...Object.keys(BUILTIN_ALIASES), ...BUILTIN_CONFIGS.map((c) => `ocio://${c.name}`)].join(', ');
      throw new ColourConfigError(source, undefined, `no built-in config of that name: use one of ${known}`);
    }
    const resolved = resolveBuiltinUri(source)!;
    return { config: parseConfigTree(tree, resolved, env), files: { readText: reader.readText, env }, resolved };
  }
  if (source.toLowerCase().endsWith('.ocioz')) return openArchive(source, reader);
  let text: string;
  try {
    text = reader.readText(source);
  } catch (error) {
    throw new ColourConfigError(source, undefined, `cannot read the config (${errorCode(error)}): check the path`);
  }
  return { config: parseConfig(text, source, env), files: { readText: reader.readText, env }, resolved: source };
}

/** An `.ocioz`: a zip whose first `.ocio` entry is the config; paths in it resolve from the archive's root. */
async function openArchive(archive: string, reader: ConfigReader): Promise<OpenedConfig> {
  let bytes: Uint8Array;
  try {
    bytes = reader.readBytes(archive);
  } catch (error) {
    throw new ColourConfigError(archive, undefined, `cannot read the archive (${errorCode(error)}): check the path`);
  }
  let unpacked: UnpackedArchive;
  try {
    unpacked = await unpackOcioz(bytes);
  } catch (error) {
    throw new ColourConfigError(
      archive,
      undefined,
      `not a readable .ocioz archive (${(error as Error).message}): re-pack it with ocioarchive`,
    );
  }
  const byName = new Map(unpacked.files.map((f) => [normalise(f.path).toLowerCase(), f.text]));
  const config = parseConfig(
    byName.get(normalise(unpacked.configPath).toLowerCase())!,
    `${archive}/${unpacked.configPath}`,
    reader.env ?? {},
  );
  config.dir = archive;
  const prefix = `${archive}/`;
  const readText = (path: string): string => {
    if (!path.startsWith(prefix)) return reader.readText(path);
    const text = byName.get(normalise(path.slice(prefix.length)).toLowerCase());
    if (text === undefined) throw new Error(`${path} is not in the archive`);
    return text;
  };
  return { config, files: { readText, env: reader.env }, resolved: archive };
}

/** `a/./b/../c` → `a/c`, as the archive's entry names are written. */
function normalise(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}

/** `./luts//a.cube` → `luts/a.cube`; `..` stays (a LUT beside the config's folder keeps its own key). */
function tidy(path: string): string {
  return path
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .join('/');
}

function errorCode(error: unknown): string {
  return (error as { code?: string }).code ?? 'error';
}

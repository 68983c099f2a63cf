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

/** The most an archive entry may hold, as OCIO limits it. */
const MAX_ENTRY_BYTES = 256 * 1024 * 1024;

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
  // the unzipper loads only for an archive: opening a built-in config or a .ocio costs none of it
  const { unzipSync } = await import('fflate');
  let bytes: Uint8Array;
  try {
    bytes = reader.readBytes(archive);
  } catch (error) {
    throw new ColourConfigError(archive, undefined, `cannot read the archive (${errorCode(error)}): check the path`);
  }
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (file) => {
        if (file.originalSize > MAX_ENTRY_BYTES) throw new Error(`the entry ${file.name} holds more than 256 MiB`);
        return !file.name.endsWith('/');
      },
    });
  } catch (error) {
    throw new ColourConfigError(
      archive,
      undefined,
      `not a readable .ocioz archive (${(error as Error).message}): re-pack it with ocioarchive`,
    );
  }
  const byName = new Map(Object.entries(entries).map(([name, data]) => [name.toLowerCase(), data]));
  const configEntry = Object.keys(entries).find((name) => name.toLowerCase().endsWith('.ocio'));
  if (!configEntry) throw new ColourConfigError(archive, undefined, 'the archive holds no .ocio config: re-pack it with ocioarchive');
  const decoder = new TextDecoder();
  const config = parseConfig(decoder.decode(entries[configEntry]), `${archive}/${configEntry}`, reader.env ?? {});
  config.dir = archive;
  const prefix = `${archive}/`;
  const readText = (path: string): string => {
    if (!path.startsWith(prefix)) return reader.readText(path);
    const data = byName.get(normalise(path.slice(prefix.length)).toLowerCase());
    if (!data) throw new Error(`${path} is not in the archive`);
    return decoder.decode(data);
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

function errorCode(error: unknown): string {
  return (error as { code?: string }).code ?? 'error';
}

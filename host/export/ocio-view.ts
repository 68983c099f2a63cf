// The OpenColorIO processor an export or a thumbnail run goes through, built on the host with the same ops the viewer
// draws with: from an `ocio://` built-in, a config the host read for the page, files the page sent, or (the command
// line) any config on disk; kept per view, as a folder shares one.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ProcessorBuilder, openConfig, type ConfigReader } from '../../shaders/colour/index.js';
import { openConfigFiles, type OpenedConfig } from '../../shaders/colour/open-config.js';
import type { OcioDisplay } from '../../shaders/display-params.js';
import type { ViewOcio, ViewOcioFiles } from '../../contract/host-api.js';

/** Reads a config and its LUT files from disk, with the process's environment for `$VAR`s in search paths. */
export const diskReader: ConfigReader = {
  readText: (path) => readFileSync(path, 'utf8'),
  readBytes: (path) => new Uint8Array(readFileSync(path)),
  env: process.env,
};

/** Where a view's config comes from: a key naming its content (same key, same processors), and how to open it. */
export type OcioConfigSource = (v: ViewOcio) => { key: string; open: () => Promise<OpenedConfig> };

/** The command line's: a built-in, or any config file on disk the user names. */
export const diskConfigs: OcioConfigSource = (v) => ({ key: v.config, open: () => openConfig(v.config, diskReader) });

/** A page's: a built-in, the files it sent, or a config `hostRead` says the host read for it; never another file. */
export function pageConfigs(hostRead: (path: string) => { key: string; opened: OpenedConfig } | undefined): OcioConfigSource {
  return (v) => {
    if (v.config.startsWith('ocio://')) return { key: v.config, open: () => openConfig(v.config, noFiles) };
    const files = v.files;
    if (files) return { key: sentKey(files), open: async () => openConfigFiles(files.configPath, textsOf(files), files.env ?? {}) };
    const read = hostRead(v.config);
    if (!read)
      throw new Error(`the OCIO config ${v.config} was not loaded in this viewer: load it (OCIO…, or a recent config) and export again`);
    return { key: read.key, open: async () => read.opened };
  };
}

const noFiles: ConfigReader = {
  readText: (path) => {
    throw new Error(`${path}: a built-in config reads no files`);
  },
  readBytes: (path) => {
    throw new Error(`${path}: a built-in config reads no files`);
  },
};

/** Processor builders by config key, and processors by view; the oldest go past these counts. */
const MAX_BUILDERS = 16;
const MAX_DISPLAYS = 256;
const builders = new Map<string, Promise<ProcessorBuilder>>();
const displays = new Map<string, OcioDisplay>();

/** The processor from the view's input colour space through its display, view and looks; throws ColourConfigError. */
export async function ocioDisplayOf(v: ViewOcio, configs: OcioConfigSource = diskConfigs): Promise<OcioDisplay> {
  const source = configs(v);
  const id = JSON.stringify([source.key, v.inputSpace, v.display, v.view, v.looks ?? null]);
  const known = displays.get(id);
  if (known) return known;
  let builder = builders.get(source.key);
  if (!builder) {
    builder = source.open().then((opened) => new ProcessorBuilder(opened.config, opened.files));
    remember(builders, source.key, builder, MAX_BUILDERS);
    builder.catch(() => builders.delete(source.key)); // a fixed config file is read again next time
  }
  const ops = (await builder).displayView(v.inputSpace, v.display, v.view, v.looks);
  const display = { ops, key: id };
  remember(displays, id, display, MAX_DISPLAYS);
  return display;
}

function remember<T>(map: Map<string, T>, key: string, value: T, max: number): void {
  map.set(key, value);
  for (const old of map.keys()) {
    if (map.size <= max) break;
    map.delete(old);
  }
}

/** Sent files are hashed once per request (its many files share the object). */
const sentKeys = new WeakMap<ViewOcioFiles, string>();

function sentKey(files: ViewOcioFiles): string {
  let key = sentKeys.get(files);
  if (key === undefined) {
    const hash = createHash('sha256');
    hash.update(JSON.stringify([files.configPath, files.env ?? {}]));
    for (const f of files.files) hash.update(`\0${f.path}\0${f.text.length}\0`).update(f.text);
    key = `sent:${hash.digest('hex')}`;
    sentKeys.set(files, key);
  }
  return key;
}

function textsOf(files: ViewOcioFiles): Map<string, string> {
  return new Map(files.files.map((f) => [f.path, f.text]));
}

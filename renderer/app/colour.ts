// OpenColorIO in the viewer: a config the user picked read with its LUT files (in the page, or by the host from disk:
// $OCIO, a recent config), Reload, and the processor kept in the view's display params as the colour slice and the
// image on screen change (the engine draws with what it is given).
import {
  colourErrorMessage,
  fileSetOfHostRead,
  inputSpaceOf,
  loadColourConfig,
  ocioDisplayOf,
  withConfig,
  type ColourFileSet,
  type LoadedColourConfig,
  type ColourSource,
} from '../state/colour.js';
import type { AppState, AppStore, StoreActions } from '../state/store.js';
import { colourHintsOf } from '../state/file-colour-space.js';
import { BUILTIN_CONFIGS, ProcessorBuilder, openConfig } from '../../shaders/colour/index.js';
import { LUT_EXTENSIONS, sizeText, unpackOcioz, type ArchiveLimits } from '../../shaders/colour/open-config.js';
import type { HostApi, HostInfo, ViewOcio } from '../../contract/host-api.js';
import { MAX_SENT_CONFIG_CHARS, MAX_SENT_CONFIG_FILES } from '../../contract/validate-args.js';

/** What of the host the colour code uses: reading a config from disk. */
export type ColourHost = Pick<HostApi, 'readColourConfig'>;

/** A built-in config the config picker offers: its `ocio://` URI and the label shown. */
export interface BuiltinChoice {
  uri: string;
  label: string;
}

/** The latest ACES configs first (one click from the toolbar), then OCIO's default alias and every versioned config. */
export const BUILTIN_CHOICES: readonly BuiltinChoice[] = [
  { uri: 'ocio://cg-config-latest', label: 'ACES 2.0 CG (ocio://cg-config-latest)' },
  { uri: 'ocio://studio-config-latest', label: 'ACES 2.0 Studio (ocio://studio-config-latest)' },
  { uri: 'ocio://default', label: 'default (ocio://default)' },
  ...BUILTIN_CONFIGS.map((c) => ({ uri: `ocio://${c.name}`, label: c.uiName.replace('Academy Color Encoding System - ', 'ACES ') })),
];

/** The config one click away when none is loaded. */
export const DEFAULT_BUILTIN = BUILTIN_CHOICES[0]!;

/** The biggest file read: configs are text, their LUTs a few MB (a 65³ .cube is about 7 MB). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** What an `.ocioz` picked in the page may unpack to (the host reads at most as much). */
const ARCHIVE_LIMITS: ArchiveLimits = { maxEntryBytes: MAX_FILE_BYTES, maxTotalBytes: 256 * 2 ** 20, maxFiles: 2000 };

export function isConfigFile(name: string): boolean {
  return /\.(ocio|ya?ml)$/i.test(name);
}

function isArchive(name: string): boolean {
  return /\.ocioz$/i.test(name);
}

/**
 * Has the host read a config from disk (with its LUTs, through search_path and context variables) and makes it the
 * view's config: `$OCIO`, a recent config, Reload of one; no path: Electron's file picker (nothing when cancelled).
 */
export async function loadHostColour(
  host: ColourHost,
  actions: StoreActions,
  store: AppStore,
  path: string | undefined,
  source: ColourSource,
  why = '',
): Promise<void> {
  let read;
  try {
    read = await host.readColourConfig(path);
  } catch (error) {
    fail(actions, `could not load the OCIO config: ${colourErrorMessage(error)}`);
    return;
  }
  if (!read) return;
  actions.setColour({ recent: read.recentColourConfigs });
  // a view that uses an unread LUT names it when built; the status says so now
  const count = read.missing.length;
  const unread = count
    ? `; ${count} LUT file${count === 1 ? '' : 's'} not read: ${read.missing.map((m) => `${m.path} (${m.reason})`).join('; ')}`
    : '';
  applyFileSet(actions, store, fileSetOfHostRead(read), source, `${why}${unread}`);
}

/** The files of the config picked last, so that Reload reads them again. */
let picked: File[] = [];

/** Reads a picked config (.ocio) and the LUT files picked with it (or its folder's), and makes it the view's config. */
export async function loadColourFiles(actions: StoreActions, store: AppStore, files: File[], source: ColourSource = 'file'): Promise<void> {
  const archive = files.find((f) => isArchive(f.name));
  if (archive) return loadColourArchive(actions, store, archive, source);
  const config = files.find((f) => isConfigFile(f.name));
  if (!config) {
    fail(
      actions,
      'no OCIO config among the files picked: pick the .ocio file together with its LUT files (or its folder), or an .ocioz archive',
    );
    return;
  }
  const texts = new Map<string, string>();
  const base = relativePath(config).split('/').slice(0, -1).join('/');
  try {
    for (const f of files) {
      if (f.size > MAX_FILE_BYTES) continue; // not a config or LUT this viewer reads: a LUT it names fails by name
      const rel = relativePath(f);
      texts.set(base && rel.startsWith(`${base}/`) ? rel.slice(base.length + 1) : rel, await f.text());
    }
  } catch (error) {
    fail(actions, `could not read ${config.name}: ${colourErrorMessage(error)}. Pick the config again`);
    return;
  }
  picked = files;
  const set: ColourFileSet = { configPath: config.name, texts };
  applyFileSet(actions, store, set, source);
}

/** Unpacks a picked `.ocioz` (its config and LUT files, as the host reads one) and makes it the view's config. */
async function loadColourArchive(actions: StoreActions, store: AppStore, archive: File, source: ColourSource): Promise<void> {
  let set: ColourFileSet;
  try {
    if (archive.size > ARCHIVE_LIMITS.maxTotalBytes)
      throw new Error(`it is ${sizeText(archive.size)}, more than the ${sizeText(ARCHIVE_LIMITS.maxTotalBytes)} exrview reads`);
    const unpacked = await unpackOcioz(new Uint8Array(await archive.arrayBuffer()), ARCHIVE_LIMITS);
    set = { configPath: unpacked.configPath, texts: new Map(unpacked.files.map((f) => [f.path, f.text])) };
  } catch (error) {
    const why = colourErrorMessage(error);
    fail(actions, `could not load the OCIO config: ${archive.name} is not a readable .ocioz archive (${why}): re-pack it with ocioarchive`);
    return;
  }
  picked = [archive];
  applyFileSet(actions, store, set, source, '', archive.name);
}

/** Opens a built-in config (`ocio://NAME`: shipped as data, no files to read) and makes it the view's config. */
export async function loadBuiltinColour(
  actions: StoreActions,
  store: AppStore,
  uri: string,
  source: ColourSource = 'builtin',
): Promise<void> {
  const noFiles = (path: string): never => {
    throw new Error(`${path}: a built-in config reads no files`);
  };
  try {
    const opened = await openConfig(uri, { readText: noFiles, readBytes: noFiles });
    const files: ColourFileSet = { configPath: uri, texts: new Map() };
    const loaded = { builder: new ProcessorBuilder(opened.config, opened.files), source, name: uri, files };
    actions.setColour(withConfig(store.getState().colour, loaded));
    actions.setUi({ status: `OCIO config ${uri} loaded` });
  } catch (error) {
    fail(actions, `could not load the OCIO config: ${colourErrorMessage(error)}`);
  }
}

/**
 * The config the viewer starts with: the environment's `$OCIO` as the host reports it (a built-in URI, or a config
 * file the host reads), else none: the tone-map presets. The recent configs the host remembers join the picker.
 */
export async function startColour(
  host: ColourHost,
  actions: StoreActions,
  store: AppStore,
  info: Pick<HostInfo, 'ocio' | 'recentColourConfigs'>,
): Promise<void> {
  if (info.recentColourConfigs) actions.setColour({ recent: info.recentColourConfigs });
  const ocio = info.ocio;
  if (!ocio) return;
  if (ocio.startsWith('ocio://')) await loadBuiltinColour(actions, store, ocio, 'env');
  else await loadHostColour(host, actions, store, ocio, 'env');
}

/** Reads the config and its LUT files again (after they were edited): from disk through the host, or the picked files. */
export async function reloadColour(host: ColourHost, actions: StoreActions, store: AppStore): Promise<void> {
  const config = store.getState().colour.config;
  if (config?.files.hostPath !== undefined) {
    await loadHostColour(host, actions, store, config.files.hostPath, config.source);
    return;
  }
  if (picked.length === 0 || config?.files.texts.size === 0) return;
  await loadColourFiles(actions, store, picked, config?.source ?? 'file');
}

/** Parses the set and switches to it; a failure names the file and line, and the previous config stays. */
export function applyFileSet(
  actions: StoreActions,
  store: AppStore,
  set: ColourFileSet,
  source: ColourSource,
  note = '',
  name?: string,
): void {
  try {
    const loaded = loadColourConfig(set, source);
    if (name) loaded.name = name;
    actions.setColour(withConfig(store.getState().colour, loaded));
    actions.setUi({ status: `OCIO config ${loaded.name} loaded${note}` });
  } catch (error) {
    fail(actions, `could not load the OCIO config: ${colourErrorMessage(error)}`);
  }
}

/**
 * The config an export goes through, as the host builds it again: a built-in by its URI, a config the host read by
 * its path, one picked in the page with its text and LUT files; or why it cannot be sent.
 */
export function exportConfigOf(loaded: LoadedColourConfig): Pick<ViewOcio, 'config' | 'files'> | { refused: string } {
  const set = loaded.files;
  if (set.configPath.startsWith('ocio://')) return { config: set.configPath };
  if (set.hostPath !== undefined) return { config: set.hostPath };
  const files = [...set.texts]
    .filter(([path]) => path === set.configPath || LUT_EXTENSIONS.has(path.slice(path.lastIndexOf('.') + 1).toLowerCase()))
    .map(([path, text]) => ({ path, text }));
  const chars = files.reduce((sum, f) => sum + f.text.length, 0);
  if (chars > MAX_SENT_CONFIG_CHARS || files.length > MAX_SENT_CONFIG_FILES)
    return {
      refused:
        `The OCIO config ${loaded.name} and its LUT files are larger than an export carries (${sizeText(MAX_SENT_CONFIG_CHARS)}): ` +
        'open it from disk (the Electron app, or $OCIO where the server runs) to export through it. The tone-map is used.',
    };
  return { config: loaded.name, files: { configPath: set.configPath, files, ...(set.env ? { env: set.env } : {}) } };
}

/**
 * Reads the config again when the host says its file (or a LUT of it) changed on disk: the view follows the edit with
 * no click; a config that now fails says so (file, line) and the previous view stays.
 */
export function installColourReload(host: ColourHost & Pick<HostApi, 'onEvent'>, actions: StoreActions, store: AppStore): () => void {
  return host.onEvent((event) => {
    if (event.type !== 'colour-config-changed') return;
    const config = store.getState().colour.config;
    if (config?.files.hostPath === event.path) void loadHostColour(host, actions, store, event.path, config.source, ' (changed on disk)');
  });
}

/** The next (+1) or previous (-1) config of the list: none, then the built-in ones (a config from a file counts as none). */
export function stepColourConfig(actions: StoreActions, store: AppStore, delta: 1 | -1): Promise<void> | void {
  const uris = ['', ...BUILTIN_CHOICES.map((b) => b.uri)];
  const at = Math.max(0, uris.indexOf(store.getState().colour.config?.files.configPath ?? ''));
  const next = uris[(at + delta + uris.length) % uris.length]!;
  return next ? loadBuiltinColour(actions, store, next) : removeColour(actions);
}

/** Back to the tone-map presets. */
export function removeColour(actions: StoreActions): void {
  actions.setColour({ config: null, error: null });
}

function fail(actions: StoreActions, message: string): void {
  actions.setColour({ error: message });
  actions.setUi({ status: message });
}

function relativePath(f: File): string {
  return (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name;
}

/** The image on screen's path (for the config's file rules) and what its header says of its colour. */
function currentFile(s: AppState): { path: string; hints: ReturnType<typeof colourHintsOf> } {
  const file = s.library.files.find((f) => f.id === s.image.currentFileId);
  return { path: file?.relativePath ?? '', hints: colourHintsOf(file, s.image.part) };
}

/**
 * Keeps `view.display.ocio` the processor of the colour slice for the image on screen: built when the config, display,
 * view, looks or input space change (each built once per config), never on pan, zoom or exposure.
 */
export function installColour(store: AppStore, actions: StoreActions): () => void {
  const update = (s: AppState): void => {
    let ocio = null;
    try {
      const { path, hints } = currentFile(s);
      ocio = ocioDisplayOf(s.colour, inputSpaceOf(s.colour, s.image.currentFileId, path, hints));
    } catch (error) {
      // the previous view stays on screen
      fail(actions, `could not build the view ${s.colour.display} / ${s.colour.view}: ${colourErrorMessage(error)}`);
      return;
    }
    if ((ocio?.key ?? '') !== (s.view.display.ocio?.key ?? '')) actions.setDisplay({ ocio });
  };
  return store.subscribe((s, prev) => {
    // the file's summary may come after it is on screen (its header read later): its chromaticities with it
    if (
      s.colour === prev.colour &&
      s.image.currentFileId === prev.image.currentFileId &&
      s.image.part === prev.image.part &&
      s.library.files === prev.library.files
    )
      return;
    update(s);
  });
}

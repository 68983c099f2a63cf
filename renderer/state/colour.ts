// The colour slice: the OpenColorIO config the view goes through (or none: the tone-map presets), its display, view
// and looks, and each image's input colour space; and the pure step from it to the processor the engine draws with.
import { ColourConfigError, ProcessorBuilder, findColourSpace, parseConfig, type ColourFiles } from '../../shaders/colour/index.js';
import { activeDisplays, activeViews, matchFileRule } from '../../shaders/colour/rules.js';
import { hashOps } from '../../shaders/colour/gpu/hash-ops.js';
import type { OcioDisplay } from '../../shaders/display-params.js';
import type { ColourConfigFiles } from '../../contract/host-api.js';
import { colourSpaceFromFile, type FileColourHints } from './file-colour-space.js';

/** Where a config came from: `$OCIO` passed by the host, a file the user picked, a recent config, or a built-in default. */
export type ColourSource = 'env' | 'file' | 'recent' | 'builtin';

export interface LoadedColourConfig {
  builder: ProcessorBuilder;
  source: ColourSource;
  /** The config's file name (or built-in name), shown beside the pickers. */
  name: string;
  /** The files it was read from, kept so Reload reads the same ones again. */
  files: ColourFileSet;
}

/** A config's text and the LUT files beside it, by path relative to the config's folder ('luts/tone.spi1d'). */
export interface ColourFileSet {
  configPath: string;
  texts: Map<string, string>;
  /** Where the host read it from (absolute), when it did: Reload and the recent list read it there again. */
  hostPath?: string;
  /** Context variables the host's environment sets for it. */
  env?: Record<string, string>;
}

/** What the host read, as the file set a config is parsed from (paths normalised as the builder's lookups are). */
export function fileSetOfHostRead(read: ColourConfigFiles): ColourFileSet {
  return {
    configPath: normalise(read.configPath),
    texts: new Map(read.files.map((f) => [normalise(f.path), f.text])),
    hostPath: read.source,
    env: read.env,
  };
}

export interface ColourSlice {
  config: LoadedColourConfig | null;
  display: string;
  view: string;
  /** Looks instead of the view's own ('' for none); null: the view's own looks. */
  looks: string | null;
  /** The input colour space the user picked, by file id; others get the config's file rules, or what the file says. */
  inputSpaces: Record<string, string>;
  /** Config files the host read before, most recent first (absolute paths), offered in the config picker. */
  recent: string[];
  /** The last failure (file, line, what to do), shown until the next success. */
  error: string | null;
}

export function initialColour(): ColourSlice {
  return { config: null, display: '', view: '', looks: null, inputSpaces: {}, recent: [], error: null };
}

/** The readable message of a config failure: ColourConfigError already names the file and line. */
export function colourErrorMessage(error: unknown): string {
  if (error instanceof ColourConfigError) return `${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** Parses a file set into a config with a processor builder; throws ColourConfigError naming the file and line. */
export function loadColourConfig(
  files: ColourFileSet,
  source: ColourSource,
  env: Record<string, string | undefined> = files.env ?? {},
): LoadedColourConfig {
  const text = files.texts.get(files.configPath);
  if (text === undefined) throw new ColourConfigError(files.configPath, undefined, 'the config file was not among the files read');
  const config = parseConfig(text, files.configPath, env);
  const reader: ColourFiles = {
    env,
    readText: (path) => {
      const found = files.texts.get(normalise(path)) ?? files.texts.get(normalise(path).split('/').pop()!);
      if (found === undefined) throw new Error(`${path} not found`);
      return found;
    },
  };
  return { builder: new ProcessorBuilder(config, reader), source, name: files.configPath.split('/').pop()!, files };
}

function normalise(path: string): string {
  return path
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .join('/');
}

/** The slice after a config loaded: its first active display and that display's first view, unless the old ones exist. */
export function withConfig(slice: ColourSlice, loaded: LoadedColourConfig): ColourSlice {
  const displays = activeDisplays(loaded.builder.config);
  const display = displays.find((d) => d.name === slice.display) ?? displays[0];
  const views = display ? activeViews(loaded.builder.config, display) : [];
  const view = views.find((v) => v.name === slice.view) ?? views[0];
  return { ...slice, config: loaded, display: display?.name ?? '', view: view?.name ?? '', error: null };
}

/** The input colour space of an image: the user's pick, else the config's file rules, else what the file says. */
export function inputSpaceOf(slice: ColourSlice, fileId: string | null, path: string, hints: FileColourHints = {}): string {
  return inputSpaceChoice(slice, fileId, path, hints).name;
}

/** An image's input colour space and what chose it. */
export interface InputSpaceChoice {
  name: string;
  /** 'picked'; the name of the config's file rule ('Default' when none matched); or the file's attribute that said it. */
  chosenBy: string;
  kind: 'picked' | 'rule' | 'file' | '';
}

/** How the input-space picker says where the space came from. */
export function chosenByText(choice: InputSpaceChoice): string {
  if (choice.kind === 'picked') return 'picked';
  return choice.kind === 'file' ? `from file: ${choice.chosenBy}` : `rule ${choice.chosenBy}`;
}

/**
 * The user's pick; else a file rule that names the path (the config's policy); else the file's own colour-space
 * attribute or `chromaticities` matched to a config space; else the Default rule.
 */
export function inputSpaceChoice(slice: ColourSlice, fileId: string | null, path: string, hints: FileColourHints = {}): InputSpaceChoice {
  if (!slice.config) return { name: '', chosenBy: '', kind: '' };
  const picked = fileId !== null ? slice.inputSpaces[fileId] : undefined;
  if (picked !== undefined) return { name: picked, chosenBy: 'picked', kind: 'picked' };
  const config = slice.config.builder.config;
  const { rule, colourSpace } = matchFileRule(config, path);
  if (rule.name.toLowerCase() === 'default') {
    const fromFile = colourSpaceFromFile(slice.config.builder, hints);
    if (fromFile) return { name: fromFile.name, chosenBy: fromFile.from, kind: 'file' };
  }
  return { name: findColourSpace(config, colourSpace)?.name ?? colourSpace, chosenBy: rule.name, kind: 'rule' };
}

const built = new WeakMap<ProcessorBuilder, Map<string, OcioDisplay>>();

/** The processor from `input` through the slice's display and view (null without a config); cached per config. */
export function ocioDisplayOf(slice: ColourSlice, input: string): OcioDisplay | null {
  const config = slice.config;
  if (!config || slice.display === '' || slice.view === '') return null;
  let cache = built.get(config.builder);
  if (!cache) built.set(config.builder, (cache = new Map()));
  const id = JSON.stringify([input, slice.display, slice.view, slice.looks]);
  let ocio = cache.get(id);
  if (!ocio) {
    const ops = config.builder.displayView(input, slice.display, slice.view, slice.looks ?? undefined);
    ocio = { ops, key: hashOps(ops) };
    cache.set(id, ocio);
  }
  return ocio;
}

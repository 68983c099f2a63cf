// The colour slice: the OpenColorIO config the view goes through (or none: the tone-map presets), its display, view
// and looks, and each image's input colour space; and the pure step from it to the processor the engine draws with.
import { ColourConfigError, ProcessorBuilder, findColourSpace, parseConfig, type ColourFiles } from '../../shaders/colour/index.js';
import { activeDisplays, activeViews, matchFileRule } from '../../shaders/colour/rules.js';
import { hashOps } from '../../shaders/colour/gpu/hash-ops.js';
import type { OcioDisplay } from '../../shaders/display-params.js';

/** Where a config came from: `$OCIO` passed by the host, a file the user picked, or a built-in default. */
export type ColourSource = 'env' | 'file' | 'builtin';

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
}

export interface ColourSlice {
  config: LoadedColourConfig | null;
  display: string;
  view: string;
  /** Looks instead of the view's own ('' for none); null: the view's own looks. */
  looks: string | null;
  /** The input colour space the user picked, by file id; others get the config's file rules. */
  inputSpaces: Record<string, string>;
  /** The last failure (file, line, what to do), shown until the next success. */
  error: string | null;
}

export function initialColour(): ColourSlice {
  return { config: null, display: '', view: '', looks: null, inputSpaces: {}, error: null };
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
  env: Record<string, string | undefined> = {},
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

/** The input colour space of an image: the user's pick, else the config's file rules on its path. */
export function inputSpaceOf(slice: ColourSlice, fileId: string | null, path: string): string {
  return inputSpaceChoice(slice, fileId, path).name;
}

/** An image's input colour space and what chose it: the user's pick, or the file rule that matched its path. */
export interface InputSpaceChoice {
  name: string;
  /** 'picked', or the name of the config's file rule ('Default' when none matched). */
  chosenBy: string;
}

export function inputSpaceChoice(slice: ColourSlice, fileId: string | null, path: string): InputSpaceChoice {
  if (!slice.config) return { name: '', chosenBy: '' };
  const picked = fileId !== null ? slice.inputSpaces[fileId] : undefined;
  if (picked !== undefined) return { name: picked, chosenBy: 'picked' };
  const config = slice.config.builder.config;
  const { rule, colourSpace } = matchFileRule(config, path);
  return { name: findColourSpace(config, colourSpace)?.name ?? colourSpace, chosenBy: rule.name };
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

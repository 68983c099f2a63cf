// An OCIO v1/v2 config as data: roles, colour spaces, displays and views, looks, view transforms, named transforms, rules, environment.

import { ColourConfigError } from './errors.js';
import { parseYamlTree, type TaggedMap } from './yaml-tree.js';

export type ReferenceSpace = 'scene' | 'display';

export interface ColourSpace {
  name: string;
  aliases: string[];
  family: string;
  categories: string[];
  encoding: string;
  description: string;
  isData: boolean;
  referenceSpace: ReferenceSpace;
  /** To the reference (v2 `to_scene_reference`/`to_display_reference`, v1 `to_reference`). */
  toReference?: TaggedMap;
  fromReference?: TaggedMap;
  line: number;
}

export interface View {
  name: string;
  /** A view without a view transform: the colour space it converts to. */
  colourSpace?: string;
  viewTransform?: string;
  displayColourSpace?: string;
  looks: string;
  /** The viewing rule that limits which colour spaces the view is offered for ('' for all). */
  rule: string;
  /** The view names its colour space as `<USE_DISPLAY_NAME>` (resolved above to the display's name). */
  usesDisplayName?: boolean;
  line: number;
}

export interface Display {
  name: string;
  views: View[];
}

export interface Look {
  name: string;
  processSpace: string;
  transform?: TaggedMap;
  inverseTransform?: TaggedMap;
  line: number;
}

export interface ViewTransform {
  name: string;
  toScene?: TaggedMap;
  fromScene?: TaggedMap;
  toDisplay?: TaggedMap;
  fromDisplay?: TaggedMap;
  line: number;
}

/** A named transform: a transform usable as a colour space in conversions, without a reference space of its own. */
export interface NamedTransform {
  name: string;
  aliases: string[];
  family: string;
  categories: string[];
  encoding: string;
  description: string;
  transform?: TaggedMap;
  inverseTransform?: TaggedMap;
  line: number;
}

/** One of `file_rules`: Default, ColorSpaceNamePathSearch, a glob pattern with an extension, or a regex. */
export interface FileRule {
  name: string;
  colourSpace: string;
  pattern?: string;
  extension?: string;
  regex?: string;
  line: number;
}

/** One of `viewing_rules`: the colour spaces or encodings a view that names it is offered for. */
export interface ViewingRule {
  name: string;
  colourSpaces: string[];
  encodings: string[];
  line: number;
}

export interface OcioConfig {
  /** The config's path as given, for messages; `dir` is where relative LUT paths start. */
  file: string;
  dir: string;
  version: number;
  name: string;
  description: string;
  roles: Record<string, string>;
  colourSpaces: ColourSpace[];
  displays: Display[];
  looks: Look[];
  viewTransforms: ViewTransform[];
  namedTransforms: NamedTransform[];
  fileRules: FileRule[];
  viewingRules: ViewingRule[];
  defaultViewTransform?: string;
  searchPaths: string[];
  environment: Record<string, string>;
  inactive: Set<string>;
  activeDisplays: string[];
  activeViews: string[];
}

const USE_DISPLAY_NAME = '<USE_DISPLAY_NAME>';

/**
 * Parses a config's text. `file` is its path (for messages and relative LUT paths); `env` is the process environment,
 * whose OCIO_INACTIVE_COLORSPACES, OCIO_ACTIVE_DISPLAYS and OCIO_ACTIVE_VIEWS override the config's lists as in OCIO.
 */
export function parseConfig(text: string, file: string, env: Record<string, string | undefined> = {}): OcioConfig {
  return parseConfigTree(parseYamlTree(text, file), file, env);
}

/** A config from its YAML already parsed (`parseYamlTree`'s output, as the built-in configs ship it). */
export function parseConfigTree(root: unknown, file: string, env: Record<string, string | undefined> = {}): OcioConfig {
  if (!isMap(root)) throw new ColourConfigError(file, 1, 'not an OCIO config (the top level is not a YAML map): open a .ocio file');
  const fail = (line: number | undefined, reason: string): never => {
    throw new ColourConfigError(file, line, reason);
  };
  const versionText = String(root.ocio_profile_version ?? '');
  const version = Number.parseFloat(versionText);
  if (!(version >= 1 && version < 3))
    fail(root.$line, `ocio_profile_version "${versionText}" is not 1 or 2: this is not an OCIO config OCIO 1 or 2 reads`);

  const colourSpaces: ColourSpace[] = [];
  const addSpaces = (list: unknown, referenceSpace: ReferenceSpace): void => {
    if (list === undefined || list === null) return;
    if (!Array.isArray(list))
      return fail(root.$line, `"${referenceSpace === 'scene' ? 'colorspaces' : 'display_colorspaces'}" must be a list`);
    for (const entry of list) {
      if (!isMap(entry) || (typeof entry.name !== 'string' && typeof entry.name !== 'number')) {
        fail(
          isMap(entry) ? entry.$line : (list as { $line?: number }).$line,
          'a colour space without a name: give each colour space a `name:`',
        );
      }
      const cs = entry as TaggedMap;
      const toRef = referenceSpace === 'scene' ? (cs.to_scene_reference ?? cs.to_reference) : cs.to_display_reference;
      const fromRef = referenceSpace === 'scene' ? (cs.from_scene_reference ?? cs.from_reference) : cs.from_display_reference;
      colourSpaces.push({
        name: String(cs.name),
        aliases: stringList(cs.aliases),
        family: String(cs.family ?? ''),
        categories: stringList(cs.categories),
        encoding: String(cs.encoding ?? ''),
        description: String(cs.description ?? '').trim(),
        isData: cs.isdata === true || cs.isdata === 'true',
        referenceSpace,
        toReference: transformOf(toRef, file),
        fromReference: transformOf(fromRef, file),
        line: cs.$line,
      });
    }
  };
  addSpaces(root.colorspaces, 'scene');
  addSpaces(root.display_colorspaces, 'display');
  // OCIO keeps one list in the order the file gives, whichever section comes first
  colourSpaces.sort((a, b) => a.line - b.line);
  const seen = new Map<string, number>();
  for (const cs of colourSpaces) {
    for (const name of [cs.name, ...cs.aliases]) {
      const key = name.toLowerCase();
      if (seen.has(key)) fail(cs.line, `the colour space name "${name}" is used twice (first at line ${seen.get(key)}): rename one`);
      seen.set(key, cs.line);
    }
  }

  const roles: Record<string, string> = {};
  if (isMap(root.roles)) for (const [role, name] of entries(root.roles)) roles[role] = String(name);

  const sharedViews = new Map<string, View>();
  if (Array.isArray(root.shared_views)) for (const v of root.shared_views) if (isMap(v)) sharedViews.set(String(v.name), viewOf(v));
  const displays: Display[] = [];
  if (isMap(root.displays)) {
    for (const [name, list] of entries(root.displays)) {
      const views: View[] = [],
        shared: View[] = [];
      for (const item of Array.isArray(list) ? list : []) {
        if (Array.isArray(item)) {
          // !<Views> [a, b]: shared views by name, which OCIO lists after the display's own
          for (const sharedName of item) {
            const view = sharedViews.get(String(sharedName));
            if (!view)
              fail(
                (item as { $line?: number }).$line,
                `display "${name}" lists the shared view "${sharedName}", which shared_views does not define`,
              );
            else shared.push(resolveDisplayName(view, name));
          }
        } else if (isMap(item)) {
          views.push(resolveDisplayName(viewOf(item), name));
        }
      }
      displays.push({ name, views: [...views, ...shared] });
    }
  }

  const looks: Look[] = [];
  for (const look of Array.isArray(root.looks) ? root.looks : []) {
    if (!isMap(look)) continue;
    looks.push({
      name: String(look.name),
      processSpace: String(look.process_space ?? ''),
      transform: transformOf(look.transform, file),
      inverseTransform: transformOf(look.inverse_transform, file),
      line: look.$line,
    });
  }
  const viewTransforms: ViewTransform[] = [];
  for (const vt of Array.isArray(root.view_transforms) ? root.view_transforms : []) {
    if (!isMap(vt)) continue;
    viewTransforms.push({
      name: String(vt.name),
      toScene: transformOf(vt.to_scene_reference ?? vt.to_reference, file),
      fromScene: transformOf(vt.from_scene_reference ?? vt.from_reference, file),
      toDisplay: transformOf(vt.to_display_reference, file),
      fromDisplay: transformOf(vt.from_display_reference, file),
      line: vt.$line,
    });
  }

  const namedTransforms: NamedTransform[] = [];
  for (const nt of Array.isArray(root.named_transforms) ? root.named_transforms : []) {
    if (!isMap(nt)) continue;
    if (nt.transform === undefined && nt.inverse_transform === undefined)
      fail(nt.$line, `named transform "${String(nt.name)}" has neither transform nor inverse_transform: give it one`);
    namedTransforms.push({
      name: String(nt.name),
      aliases: stringList(nt.aliases),
      family: String(nt.family ?? ''),
      categories: stringList(nt.categories),
      encoding: String(nt.encoding ?? ''),
      description: String(nt.description ?? '').trim(),
      transform: transformOf(nt.transform, file),
      inverseTransform: transformOf(nt.inverse_transform, file),
      line: nt.$line,
    });
  }
  const fileRules = fileRulesOf(root.file_rules, version, fail);
  const viewingRules: ViewingRule[] = [];
  for (const rule of Array.isArray(root.viewing_rules) ? root.viewing_rules : []) {
    if (!isMap(rule)) continue;
    const colourSpaces = stringList(rule.colorspaces),
      encodings = stringList(rule.encodings);
    if (colourSpaces.length === 0 && encodings.length === 0)
      fail(rule.$line, `viewing rule "${String(rule.name)}" needs colorspaces or encodings`);
    if (colourSpaces.length > 0 && encodings.length > 0)
      fail(rule.$line, `viewing rule "${String(rule.name)}" names both colorspaces and encodings: keep one`);
    viewingRules.push({ name: String(rule.name), colourSpaces, encodings, line: rule.$line });
  }

  const environment: Record<string, string> = {};
  if (isMap(root.environment)) for (const [key, value] of entries(root.environment)) environment[key] = value === null ? '' : String(value);
  const searchPaths = Array.isArray(root.search_path)
    ? root.search_path.map(String)
    : typeof root.search_path === 'string'
      ? root.search_path.split(':').filter((p) => p !== '')
      : [];
  const lastSlash = file.lastIndexOf('/');
  return {
    file,
    dir: lastSlash >= 0 ? file.slice(0, lastSlash) : '.',
    version,
    name: String(root.name ?? ''),
    description: String(root.description ?? '').trim(),
    roles,
    colourSpaces,
    displays,
    looks,
    viewTransforms,
    namedTransforms,
    fileRules,
    viewingRules,
    defaultViewTransform: typeof root.default_view_transform === 'string' ? root.default_view_transform : undefined,
    searchPaths,
    environment,
    inactive: new Set(envList(env.OCIO_INACTIVE_COLORSPACES) ?? commaList(root.inactive_colorspaces)),
    activeDisplays: envList(env.OCIO_ACTIVE_DISPLAYS) ?? commaList(root.active_displays),
    activeViews: envList(env.OCIO_ACTIVE_VIEWS) ?? commaList(root.active_views),
  };
}

/** A colour space by name, alias or role (case-insensitive, as OCIO). */
export function findColourSpace(config: OcioConfig, name: string): ColourSpace | undefined {
  const key = name.toLowerCase();
  const direct = config.colourSpaces.find((cs) => cs.name.toLowerCase() === key || cs.aliases.some((a) => a.toLowerCase() === key));
  if (direct) return direct;
  const role = Object.entries(config.roles).find(([r]) => r.toLowerCase() === key);
  if (role && role[1].toLowerCase() !== key) return findColourSpace(config, role[1]);
  return undefined;
}

/** A named transform by name or alias (case-insensitive), when no colour space has that name. */
export function findNamedTransform(config: OcioConfig, name: string): NamedTransform | undefined {
  const key = name.toLowerCase();
  return config.namedTransforms.find((nt) => nt.name.toLowerCase() === key || nt.aliases.some((a) => a.toLowerCase() === key));
}

function viewOf(map: TaggedMap): View {
  return {
    name: String(map.name),
    colourSpace: map.colorspace === undefined ? undefined : String(map.colorspace),
    viewTransform: map.view_transform === undefined ? undefined : String(map.view_transform),
    displayColourSpace: map.display_colorspace === undefined ? undefined : String(map.display_colorspace),
    looks: map.looks === undefined || map.looks === null ? '' : String(map.looks),
    rule: map.rule === undefined || map.rule === null ? '' : String(map.rule),
    line: map.$line,
  };
}

function resolveDisplayName(view: View, display: string): View {
  const swap = (name: string | undefined): string | undefined => (name === USE_DISPLAY_NAME ? display : name);
  const usesDisplayName = view.colourSpace === USE_DISPLAY_NAME || view.displayColourSpace === USE_DISPLAY_NAME;
  return { ...view, colourSpace: swap(view.colourSpace), displayColourSpace: swap(view.displayColourSpace), usesDisplayName };
}

function transformOf(value: unknown, file: string): TaggedMap | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) {
    // a bare list of transforms is a group
    return { $tag: 'GroupTransform', $line: (value as { $line?: number }).$line ?? 0, children: value };
  }
  if (!isMap(value) || value.$tag === undefined) {
    throw new ColourConfigError(
      file,
      isMap(value) ? value.$line : undefined,
      'a transform without a type: write it as `!<MatrixTransform> {...}` or similar',
    );
  }
  if (value.$tag === 'GroupTransform') checkGroup(value, file);
  return value;
}

/** A group's children, checked here so that the processor builder meets only typed transforms (an empty `- ` is null). */
function checkGroup(group: TaggedMap, file: string): void {
  const children = group.children;
  if (children === undefined || children === null) return;
  if (!Array.isArray(children))
    throw new ColourConfigError(file, group.$line, "a GroupTransform's `children` must be a list of transforms");
  for (const child of children) {
    if (!isMap(child) || child.$tag === undefined) {
      const line = isMap(child) ? child.$line : ((children as { $line?: number }).$line ?? group.$line);
      throw new ColourConfigError(file, line, 'a GroupTransform child without a type: write it as `!<MatrixTransform> {...}` or similar');
    }
    if (child.$tag === 'GroupTransform') checkGroup(child, file);
  }
}

export function isMap(value: unknown): value is TaggedMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function entries(map: TaggedMap): [string, unknown][] {
  return Object.entries(map).filter(([key]) => key !== '$tag' && key !== '$line');
}

function stringList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string' && value !== '')
    return value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  return [];
}

function commaList(value: unknown): string[] {
  return stringList(value);
}

/** An environment override: undefined when the variable is unset or blank (OCIO then keeps the config's list). */
function envList(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return stringList(value);
}

/** `file_rules`, with OCIO's defaults: a v1 config searches the path for colour space names before the Default rule. */
function fileRulesOf(list: unknown, version: number, fail: (line: number | undefined, reason: string) => never): FileRule[] {
  const rules: FileRule[] = [];
  for (const rule of Array.isArray(list) ? list : []) {
    if (!isMap(rule)) continue;
    const name = String(rule.name ?? '');
    const text = (key: string): string | undefined => (rule[key] === undefined || rule[key] === null ? undefined : String(rule[key]));
    const entry: FileRule = { name, colourSpace: text('colorspace') ?? '', line: rule.$line };
    const [pattern, extension, regex] = [text('pattern'), text('extension'), text('regex')];
    if (regex !== undefined) {
      if (pattern !== undefined || extension !== undefined)
        fail(rule.$line, `file rule "${name}" has a regex and a pattern or extension: keep one kind`);
      entry.regex = regex;
    } else if (pattern !== undefined || extension !== undefined) {
      entry.pattern = pattern ?? '';
      entry.extension = extension ?? '';
    } else if (name.toLowerCase() !== 'default' && name !== 'ColorSpaceNamePathSearch') {
      fail(rule.$line, `file rule "${name}" has no pattern, extension or regex: add one`);
    }
    rules.push(entry);
  }
  const defaultAt = rules.findIndex((r) => r.name.toLowerCase() === 'default');
  if (defaultAt >= 0 && defaultAt !== rules.length - 1)
    fail(rules[defaultAt]!.line, 'the Default file rule must be the last one: move it to the end of file_rules');
  if (defaultAt < 0) rules.push({ name: 'Default', colourSpace: 'default', line: 0 });
  if (version < 2 && !rules.some((r) => r.name === 'ColorSpaceNamePathSearch'))
    rules.unshift({ name: 'ColorSpaceNamePathSearch', colourSpace: '', line: 0 });
  return rules;
}

// A config's rules as OCIO applies them: file rules (a path → its colour space), viewing rules, active displays and views.

import { findColourSpace, type Display, type FileRule, type OcioConfig, type View } from './config.js';
import { ColourConfigError } from './errors.js';

/** The colour space OCIO's file rules give `path` (the first rule that matches; Default always does), a role resolved to its space. */
export function colourSpaceOfPath(config: OcioConfig, path: string): string {
  const { colourSpace } = matchFileRule(config, path);
  return findColourSpace(config, colourSpace)?.name ?? colourSpace;
}

/** The rule that matches `path` and the colour space it names (a colour space, role or named transform). */
export function matchFileRule(config: OcioConfig, path: string): { rule: FileRule; colourSpace: string } {
  for (const rule of config.fileRules) {
    if (rule.name === 'ColorSpaceNamePathSearch') {
      const found = colourSpaceNamedInPath(config, path);
      if (found !== undefined) return { rule, colourSpace: found };
      continue;
    }
    if (rule.name.toLowerCase() === 'default') return { rule, colourSpace: defaultRuleSpace(config, rule) };
    if (new RegExp(ruleRegex(config, rule)).test(path)) return { rule, colourSpace: rule.colourSpace };
  }
  const last = config.fileRules[config.fileRules.length - 1]!;
  return { rule: last, colourSpace: defaultRuleSpace(config, last) };
}

/** The regular expression (anchored: OCIO matches the whole path) a glob or regex rule stands for. */
export function ruleRegex(config: OcioConfig, rule: FileRule): string {
  try {
    if (rule.regex !== undefined) {
      new RegExp(rule.regex);
      return `^(?:${rule.regex})$`;
    }
    const pattern = rule.pattern === '' || rule.pattern === undefined ? '.*' : globToRegex(rule.pattern, false);
    const extension = rule.extension === '' || rule.extension === undefined ? '\\..*' : `\\.${globToRegex(rule.extension, true)}`;
    return `^(?:(?:${pattern})(?:${extension}))$`;
  } catch (error) {
    throw new ColourConfigError(
      config.file,
      rule.line,
      `file rule "${rule.name}": ${(error as Error).message.replace(/^Invalid regular expression: /, 'invalid regular expression ')}`,
    );
  }
}

/**
 * A glob as OCIO converts it: `*` and `?` as in shells, `[...]` sets with `!` for negation, other regex characters
 * escaped. An extension without glob characters matches in any case.
 */
function globToRegex(glob: string, caseless: boolean): string {
  const hasGlob = /[[*?]/.test(glob);
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') out += '.*';
    else if (ch === '?') out += '.';
    else if (ch === ']') throw new Error(`unbalanced "]" in "${glob}"`);
    else if (ch === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) throw new Error(`unclosed "[" in "${glob}"`);
      const body = glob.slice(i + 1, end);
      if (body === '' || body === '!') throw new Error(`empty set "[${body}]" in "${glob}"`);
      out += `[${body.replace(/^!/, '^').replace(/[\\\]{}()|+$]/g, (c) => `\\${c}`)}]`;
      i = end;
    } else if (caseless && !hasGlob && /[a-z]/i.test(ch)) out += `[${ch.toLowerCase()}${ch.toUpperCase()}]`;
    else out += ch.replace(/[.+^${}()|\\]/g, (c) => `\\${c}`);
  }
  return out;
}

/** The colour space whose name or alias ends furthest right in the path (case-insensitive; the longer name wins a tie). */
export function colourSpaceNamedInPath(config: OcioConfig, path: string): string | undefined {
  const lower = path.toLowerCase();
  let bestPos = -1,
    bestLength = 0,
    best: string | undefined;
  for (const cs of config.colourSpaces) {
    for (const name of [cs.name, ...cs.aliases]) {
      const key = name.toLowerCase();
      if (key === '') continue;
      const at = lower.lastIndexOf(key);
      if (at < 0) continue;
      const pos = at + key.length;
      if (pos > bestPos || (pos === bestPos && key.length > bestLength)) {
        bestPos = pos;
        bestLength = key.length;
        best = cs.name;
      }
    }
  }
  return best;
}

/** The Default rule's space; without a `default` role OCIO falls back to a data space named raw, any data space, then the first. */
function defaultRuleSpace(config: OcioConfig, rule: FileRule): string {
  const named = findColourSpace(config, rule.colourSpace);
  if (named) return rule.colourSpace;
  if (config.namedTransforms.some((nt) => nt.name === rule.colourSpace)) return rule.colourSpace;
  const raw = findColourSpace(config, 'raw');
  if (raw?.isData) return raw.name;
  const data = config.colourSpaces.find((cs) => cs.isData && cs.referenceSpace === 'scene');
  if (data) return data.name;
  const first = config.colourSpaces.find((cs) => !config.inactive.has(cs.name)) ?? config.colourSpaces[0];
  if (!first) throw new ColourConfigError(config.file, rule.line, 'the config has no colour spaces: add one');
  return first.name;
}

/** The displays OCIO shows: `active_displays` (or $OCIO_ACTIVE_DISPLAYS) in its order, else all. */
export function activeDisplays(config: OcioConfig): Display[] {
  return filterInOrder(config.displays, config.activeDisplays);
}

/**
 * A display's views OCIO shows: `active_views` in its order, else all; with `colourSpace`, only the views whose viewing
 * rule (if any) names that space (or a role for it) or its encoding.
 */
export function activeViews(config: OcioConfig, display: Display, colourSpace?: string): View[] {
  const views = filterInOrder(display.views, config.activeViews);
  if (colourSpace === undefined) return views;
  const cs = findColourSpace(config, colourSpace);
  if (!cs) throw new ColourConfigError(config.file, undefined, `no colour space "${colourSpace}": name one from \`exrview ocio list\``);
  return views.filter((view) => {
    if (view.rule === '') return true;
    const rule = config.viewingRules.find((r) => r.name.toLowerCase() === view.rule.toLowerCase());
    if (!rule) return false;
    if (rule.colourSpaces.some((name) => (config.roles[name] ?? name).toLowerCase() === cs.name.toLowerCase())) return true;
    return cs.encoding !== '' && rule.encodings.some((e) => e.toLowerCase() === cs.encoding);
  });
}

function filterInOrder<T extends { name: string }>(items: T[], active: string[]): T[] {
  if (active.length === 0) return items;
  const byName = new Map(items.map((item) => [item.name.toLowerCase(), item]));
  return active.map((name) => byName.get(name.toLowerCase())).filter((item): item is T => item !== undefined);
}

// A config's contents as JSON-ready data, in the shape `ocio_apply CONFIG list` prints, plus the rules and inactive spaces.

import type { OcioConfig } from './config.js';
import { activeDisplays, activeViews, ruleRegex } from './rules.js';

export function describeConfig(config: OcioConfig, resolved: string = config.file): object {
  const displays = activeDisplays(config);
  const active = <T extends { name: string }>(items: T[]): T[] => items.filter((item) => !config.inactive.has(item.name));
  return {
    configName: config.name,
    configResolved: resolved,
    profileVersion: config.version,
    description: config.description,
    // sorted, as OCIO holds roles
    roles: Object.fromEntries(Object.entries(config.roles).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    colorSpaces: active(config.colourSpaces).map((cs) => ({
      name: cs.name,
      family: cs.family,
      encoding: cs.encoding,
      referenceSpace: cs.referenceSpace,
      isData: cs.isData,
      aliases: cs.aliases,
      categories: cs.categories,
    })),
    inactiveColorSpaces: [...config.inactive],
    defaultDisplay: displays[0]?.name ?? null,
    displays: displays.map((d) => {
      const views = activeViews(config, d);
      return {
        name: d.name,
        defaultView: views[0]?.name ?? null,
        views: views.map((v) => ({
          name: v.name,
          colorSpace: v.usesDisplayName ? '<USE_DISPLAY_NAME>' : (v.displayColourSpace ?? v.colourSpace ?? ''),
          viewTransform: v.viewTransform ?? '',
          looks: v.looks,
          rule: v.rule,
        })),
      };
    }),
    looks: config.looks.map((l) => ({ name: l.name, processSpace: l.processSpace })),
    viewTransforms: config.viewTransforms.map((t) => t.name),
    namedTransforms: active(config.namedTransforms).map((nt) => ({
      name: nt.name,
      family: nt.family,
      encoding: nt.encoding,
      aliases: nt.aliases,
      categories: nt.categories,
    })),
    fileRules: config.fileRules.map((rule) => ({
      name: rule.name,
      colorSpace: rule.colourSpace,
      ...(rule.pattern !== undefined ? { pattern: rule.pattern, extension: rule.extension } : {}),
      ...(rule.regex !== undefined ? { regex: rule.regex } : {}),
      ...(rule.regex !== undefined || rule.pattern !== undefined ? { matches: ruleRegex(config, rule) } : {}),
    })),
    viewingRules: config.viewingRules.map((rule) => ({ name: rule.name, colorSpaces: rule.colourSpaces, encodings: rule.encodings })),
  };
}

// A config's contents as JSON-ready data: colour spaces, displays with their views, looks, view transforms and roles.

import type { OcioConfig } from './config.js';

export function describeConfig(config: OcioConfig): object {
  return {
    configName: config.name,
    profileVersion: config.version,
    description: config.description,
    roles: config.roles,
    colorSpaces: config.colourSpaces.map((cs) => ({
      name: cs.name,
      family: cs.family,
      encoding: cs.encoding,
      referenceSpace: cs.referenceSpace,
      isData: cs.isData,
      aliases: cs.aliases,
      categories: cs.categories,
      inactive: config.inactive.has(cs.name),
    })),
    displays: config.displays.map((d) => ({
      name: d.name,
      defaultView: d.views[0]?.name ?? null,
      views: d.views.map((v) => ({
        name: v.name,
        colorSpace: v.displayColourSpace ?? v.colourSpace ?? null,
        viewTransform: v.viewTransform ?? null,
        looks: v.looks,
      })),
    })),
    looks: config.looks.map((l) => ({ name: l.name, processSpace: l.processSpace })),
    viewTransforms: config.viewTransforms.map((t) => t.name),
  };
}

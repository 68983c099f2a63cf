// `exrview ocio list` field by field against `ocio_apply CONFIG list`: the test configs and every built-in config OCIO 2.5 has.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_ALIASES, BUILTIN_CONFIGS, describeConfig, openConfig, ProcessorBuilder } from '../../shaders/colour/index.js';
import { CONFIG_DIR, OCIO_APPLY, oraclePresent } from './oracle.js';

interface Listed {
  configName: string;
  configResolved: string;
  roles: Record<string, string>;
  colorSpaces: { name: string; family: string; encoding: string; referenceSpace: string; isData: boolean; aliases: string[] }[];
  defaultDisplay: string;
  displays: { name: string; defaultView: string; views: { name: string; colorSpace: string; viewTransform: string; looks: string }[] }[];
  looks: { name: string; processSpace: string }[];
  viewTransforms: string[];
  namedTransforms: ({ name: string } | string)[];
}

const reader = { readText: (p: string) => readFileSync(p, 'utf8'), readBytes: (p: string) => readFileSync(p) };

/** The fields both list, in ocio_apply's shape. */
function comparable(list: Listed): object {
  return {
    configName: list.configName,
    roles: list.roles,
    colorSpaces: list.colorSpaces.map(({ name, family, encoding, referenceSpace, isData, aliases }) => ({
      name,
      family,
      encoding,
      referenceSpace,
      isData,
      aliases,
    })),
    defaultDisplay: list.defaultDisplay,
    displays: list.displays.map((d) => ({
      name: d.name,
      defaultView: d.defaultView,
      views: d.views.map(({ name, colorSpace, viewTransform, looks }) => ({ name, colorSpace, viewTransform, looks })),
    })),
    looks: list.looks,
    viewTransforms: list.viewTransforms,
    namedTransforms: list.namedTransforms.map((nt) => (typeof nt === 'string' ? nt : nt.name)),
  };
}

const sources = [
  join(CONFIG_DIR, 'studio-test.ocio'),
  join(CONFIG_DIR, 'v1-test.ocio'),
  join(CONFIG_DIR, 'formats-test.ocio'),
  ...Object.keys(BUILTIN_ALIASES),
  ...BUILTIN_CONFIGS.map((c) => `ocio://${c.name}`),
];

describe.skipIf(!oraclePresent)('ocio list against ocio_apply list', () => {
  for (const source of sources) {
    it(source.replace(/.*\//, ''), async () => {
      const expected = JSON.parse(execFileSync(OCIO_APPLY, [source, 'list'], { encoding: 'utf8' })) as Listed;
      const opened = await openConfig(source, reader);
      const actual = describeConfig(opened.config, opened.resolved) as Listed;
      expect(comparable(actual)).toEqual(comparable(expected));
      expect(actual.configResolved).toBe(source.startsWith('ocio://') ? expected.configResolved : source);
    });
  }

  it('knows the built-in configs and aliases OCIO has', () => {
    const expected = JSON.parse(execFileSync(OCIO_APPLY, ['ocio://default', 'list'], { encoding: 'utf8' })) as {
      builtinConfigs: unknown[];
      builtinAliases: Record<string, string>;
    };
    expect(BUILTIN_CONFIGS).toEqual(expected.builtinConfigs);
    expect(BUILTIN_ALIASES).toEqual(expected.builtinAliases);
  });
});

describe('built-in configs', () => {
  it('ocio://default loads with no config installed and builds a processor', async () => {
    const opened = await openConfig('ocio://default', { readText: () => '', readBytes: () => new Uint8Array(), env: {} });
    expect(opened.resolved).toBe('ocio://cg-config-v4.0.0_aces-v2.0_ocio-v2.5');
    const builder = new ProcessorBuilder(opened.config, opened.files);
    expect(builder.colourSpace('ACES2065-1', 'ACEScg').length).toBeGreaterThan(0);
  });

  it('an unknown ocio:// name says which exist', async () => {
    await expect(openConfig('ocio://nope', reader)).rejects.toThrow(
      /ocio:\/\/nope: no built-in config of that name: use one of ocio:\/\/default/,
    );
  });
});

// File rules, viewing rules, inactive colour spaces and named transforms as OCIO documents them, on the formats test config.

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConfig, type OcioConfig } from './config.js';
import { describeConfig } from './list.js';
import { activeViews, colourSpaceOfPath, matchFileRule } from './rules.js';

const configs = resolve(dirname(fileURLToPath(import.meta.url)), '../../testing/colour/configs');
const load = (name: string, env: Record<string, string> = {}): OcioConfig =>
  parseConfig(readFileSync(`${configs}/${name}`, 'utf8'), `${configs}/${name}`, env);

describe('file rules', () => {
  const config = load('formats-test.ocio');

  it('takes the first rule that matches: glob pattern with extension, regex, name in the path, Default', () => {
    expect(colourSpaceOfPath(config, '/show/shot/plate_v2.dpx')).toBe('CSP Grade');
    expect(colourSpaceOfPath(config, '/show/shot/plate_v2.DPX')).toBe('CSP Grade'); // an extension without glob characters ignores case
    expect(colourSpaceOfPath(config, 'renders/beauty.0001.EXR')).toBe('Linear');
    expect(colourSpaceOfPath(config, '/show/tex/wood.png')).toBe('CLF Nodes');
    expect(colourSpaceOfPath(config, '/show/tex/wood.PNG')).toBe('Linear'); // a regex keeps its case
    expect(colourSpaceOfPath(config, '/show/grade_lustre_v3.tif')).toBe('Lustre');
    expect(colourSpaceOfPath(config, '/show/unknown.jpg')).toBe('Linear');
    expect(matchFileRule(config, '/show/unknown.jpg').rule.name).toBe('Default');
  });

  it('searches the path for the right-most colour space name, the longer name winning a tie', () => {
    expect(colourSpaceOfPath(config, '/a/lustre/csp grade.tif')).toBe('CSP Grade');
    expect(colourSpaceOfPath(config, '/a/lustre inverse.tif')).toBe('Lustre Inverse');
  });

  it('a pattern matches the whole path, as std::regex_match does', () => {
    expect(matchFileRule(config, 'renders/beauty.exr').rule.name).toBe('Renders');
    expect(matchFileRule(config, 'renders/beauty.exr.bak').rule.name).not.toBe('Renders');
    expect(matchFileRule(config, 'x/renders/beauty.exr').rule.name).not.toBe('Renders');
  });

  it('a v1 config searches the path for names before its Default rule', () => {
    const v1 = load('v1-test.ocio');
    expect(v1.fileRules.map((r) => r.name)).toEqual(['ColorSpaceNamePathSearch', 'Default']);
    expect(colourSpaceOfPath(v1, '/plates/shot_lg10.dpx')).toBe('lg10');
    expect(colourSpaceOfPath(v1, '/plates/shot.dpx')).toBe('linear');
  });

  it('rejects a Default rule before others and a glob with an unclosed set, naming the line', () => {
    const text = readFileSync(`${configs}/formats-test.ocio`, 'utf8');
    const early = text.replace(
      '  - !<Rule> {name: Plates,',
      '  - !<Rule> {name: Default, colorspace: default}\n  - !<Rule> {name: Plates,',
    );
    expect(() => parseConfig(early, 'early.ocio')).toThrow(/early\.ocio:\d+: the Default file rule must be the last/);
    const bad = parseConfig(text.replace('pattern: "*plate*"', 'pattern: "*pl[ate*"'), 'bad.ocio');
    expect(() => colourSpaceOfPath(bad, 'a.dpx')).toThrow(/bad\.ocio:\d+: file rule "Plates": unclosed "\["/);
  });
});

describe('viewing rules', () => {
  const config = load('formats-test.ocio');
  const screen = config.displays[0]!;
  const names = (cs: string): string[] => activeViews(config, screen, cs).map((v) => v.name);

  it('offers a view with a rule only for the colour spaces or encodings it names (roles included)', () => {
    expect(names('Linear')).toEqual(['Lustre', 'Linear view', 'Film look']);
    expect(names('CSP Grade')).toEqual(['Lustre', 'Graded view', 'Film look']);
    expect(names('Lustre')).toEqual(['Lustre', 'Film look']);
    expect(activeViews(config, screen).map((v) => v.name)).toEqual(['Lustre', 'Linear view', 'Graded view', 'Film look']);
  });
});

describe('inactive colour spaces and named transforms', () => {
  it('hides inactive spaces from the list; $OCIO_INACTIVE_COLORSPACES overrides the config', () => {
    const listed = (env: Record<string, string>): string[] =>
      (describeConfig(load('formats-test.ocio', env)) as { colorSpaces: { name: string }[] }).colorSpaces.map((cs) => cs.name);
    expect(listed({})).not.toContain('Unused Inactive');
    const overridden = listed({ OCIO_INACTIVE_COLORSPACES: 'Lustre, CTF Nodes' });
    expect(overridden).toContain('Unused Inactive');
    expect(overridden).not.toContain('Lustre');
    expect(overridden).not.toContain('CTF Nodes');
    expect(listed({ OCIO_INACTIVE_COLORSPACES: '  ' })).not.toContain('Unused Inactive');
  });

  it('lists named transforms, file rules and viewing rules', () => {
    const listed = describeConfig(load('formats-test.ocio')) as {
      namedTransforms: { name: string; aliases: string[] }[];
      fileRules: { name: string; colorSpace: string; matches?: string }[];
      viewingRules: { name: string; colorSpaces: string[]; encodings: string[] }[];
    };
    expect(listed.namedTransforms).toEqual([
      { name: 'Film Look', family: 'Looks', encoding: '', aliases: ['film_look'], categories: [] },
      { name: 'Shaper Out', family: '', encoding: '', aliases: [], categories: [] },
    ]);
    expect(listed.fileRules.map((r) => `${r.name}:${r.colorSpace}`)).toEqual([
      'Plates:CSP Grade',
      'Renders:Linear',
      'Textures:CLF Nodes',
      'ColorSpaceNamePathSearch:',
      'Default:default',
    ]);
    expect(listed.fileRules[0]!.matches).toBe('^(?:(?:.*plate.*)(?:\\.[dD][pP][xX]))$');
    expect(listed.viewingRules).toEqual([
      { name: 'Linear only', colorSpaces: [], encodings: ['scene-linear'] },
      { name: 'Graded', colorSpaces: ['CSP Grade', 'color_timing'], encodings: [] },
    ]);
  });

  it('rejects a named transform without a transform, naming its line', () => {
    const text = readFileSync(`${configs}/formats-test.ocio`, 'utf8').replace(
      '    inverse_transform: !<FileTransform> {src: shaper.cube, direction: inverse}\n',
      '',
    );
    expect(() => parseConfig(text, 'nt.ocio')).toThrow(
      /nt\.ocio:\d+: named transform "Shaper Out" has neither transform nor inverse_transform/,
    );
  });
});

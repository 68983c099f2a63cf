// Config loading: v1 and v2 structure, and every failure a user can meet names the file and line and says what to do.

import { describe, expect, it } from 'vitest';
import { findColourSpace, parseConfig } from './config.js';
import { ColourConfigError } from './errors.js';
import { ProcessorBuilder } from './processor.js';

const V2 = `ocio_profile_version: 2
environment: {SHOW: demo}
search_path: [luts, "$SHOW/luts"]
roles: {scene_linear: lin, data: raw}
shared_views:
  - !<View> {name: Film, view_transform: Film, display_colorspace: <USE_DISPLAY_NAME>}
displays:
  sRGB:
    - !<Views> [Film]
    - !<View> {name: Raw, colorspace: raw}
view_transforms:
  - !<ViewTransform> {name: Film, from_scene_reference: !<ExponentTransform> {value: 2}}
display_colorspaces:
  - !<ColorSpace> {name: sRGB, from_display_reference: !<ExponentTransform> {value: 2.2, direction: inverse}}
colorspaces:
  - !<ColorSpace> {name: lin, aliases: [linear], categories: [file-io], family: Linear}
  - !<ColorSpace> {name: raw, isdata: true}
  - !<ColorSpace> {name: old, to_scene_reference: !<MatrixTransform> {offset: [1, 0, 0, 0]}}
inactive_colorspaces: [old]
looks:
  - !<Look> {name: grade, process_space: lin, transform: !<CDLTransform> {slope: [2, 2, 2]}}
`;

function errorOf(run: () => unknown): ColourConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ColourConfigError) return error;
    throw error;
  }
  throw new Error('expected a ColourConfigError');
}

const noFiles = {
  readText: (path: string): string => {
    throw new Error(`no file ${path}`);
  },
};

describe('parseConfig', () => {
  it('reads roles, aliases, categories, shared views with <USE_DISPLAY_NAME>, view transforms, looks, inactive spaces', () => {
    const config = parseConfig(V2, '/show/config.ocio');
    expect(config.version).toBe(2);
    expect(config.dir).toBe('/show');
    expect(config.searchPaths).toEqual(['luts', '$SHOW/luts']);
    expect(findColourSpace(config, 'LINEAR')?.name).toBe('lin');
    expect(findColourSpace(config, 'scene_linear')?.name).toBe('lin');
    expect(config.colourSpaces.find((cs) => cs.name === 'lin')?.categories).toEqual(['file-io']);
    // OCIO lists a display's own views before its shared ones (as `ocio_apply list` shows)
    expect(config.displays[0]!.views.map((v) => [v.name, v.displayColourSpace ?? v.colourSpace])).toEqual([
      ['Raw', 'raw'],
      ['Film', 'sRGB'],
    ]);
    expect(config.inactive.has('old')).toBe(true);
    expect(config.colourSpaces.find((cs) => cs.name === 'sRGB')?.referenceSpace).toBe('display');
  });

  it('builds a view through its view transform and the display colour space', () => {
    const builder = new ProcessorBuilder(parseConfig(V2, 'c.ocio'), noFiles);
    expect(builder.displayView('lin', 'sRGB', 'Film').map((op) => op.type)).toEqual(['gamma', 'gamma']);
    expect(builder.displayView('raw', 'sRGB', 'Film')).toEqual([]);
    expect(builder.colourSpace('lin', 'linear')).toEqual([]);
  });

  it('reads a v1 config (to_reference/from_reference)', () => {
    const v1 = `ocio_profile_version: 1
roles: {reference: lin}
displays: {sRGB: [!<View> {name: Gamma, colorspace: g22}]}
colorspaces:
  - !<ColorSpace> {name: lin, bitdepth: 32f}
  - !<ColorSpace> {name: g22, from_reference: !<ExponentTransform> {value: [2.2, 2.2, 2.2, 1], direction: inverse}}
`;
    const builder = new ProcessorBuilder(parseConfig(v1, 'v1.ocio'), noFiles);
    expect(builder.config.version).toBe(1);
    expect(builder.displayView('lin', 'sRGB', 'Gamma')).toHaveLength(1);
  });

  it('names the file and line of malformed YAML', () => {
    const error = errorOf(() => parseConfig('ocio_profile_version: 2\nroles: {a: b\ncolorspaces: []\n', 'bad.ocio'));
    expect(error.message).toMatch(/^bad\.ocio:\d+: not valid YAML .*fix the syntax/);
  });

  it('names an unknown transform and its line', () => {
    const error = errorOf(() =>
      parseConfig(
        'ocio_profile_version: 2\ncolorspaces:\n  - !<ColorSpace> {name: a, to_scene_reference: !<MatrixTransfrom> {}}\n',
        'x.ocio',
      ),
    );
    expect(error.message).toBe('x.ocio:3: unknown transform or tag "!<MatrixTransfrom>": OCIO 2 has no such type; check its spelling');
  });

  it('rejects what is not an OCIO config', () => {
    expect(errorOf(() => parseConfig('- a\n- b\n', 'list.ocio')).message).toMatch(/not an OCIO config/);
    expect(errorOf(() => parseConfig('ocio_profile_version: 7\n', 'v7.ocio')).message).toMatch(/^v7\.ocio:1: ocio_profile_version "7"/);
  });

  it('names a missing LUT with where it looked, and expands context variables', () => {
    const config = parseConfig(
      `ocio_profile_version: 2
environment: {SHOW: demo}
search_path: [luts, "$SHOW/luts"]
colorspaces:
  - !<ColorSpace> {name: a}
  - !<ColorSpace> {name: b, to_scene_reference: !<FileTransform> {src: "\${SHOW}_grade.cube"}}
`,
      '/cfg/config.ocio',
    );
    const looked: string[] = [];
    const builder = new ProcessorBuilder(config, {
      readText: (path) => {
        looked.push(path);
        throw new Error('ENOENT');
      },
    });
    const error = errorOf(() => builder.colourSpace('b', 'a'));
    expect(looked).toEqual(['/cfg/luts/demo_grade.cube', '/cfg/demo/luts/demo_grade.cube']);
    expect(error.message).toMatch(
      /^\/cfg\/config\.ocio:6: LUT file "demo_grade\.cube" not found \(looked in .*\): check the name and search_path$/,
    );
  });

  it('stops a circular reference with the loop in the message, not a hang', () => {
    const config = parseConfig(
      `ocio_profile_version: 2
colorspaces:
  - !<ColorSpace> {name: ref}
  - !<ColorSpace> {name: a, to_scene_reference: !<ColorSpaceTransform> {src: b, dst: ref}}
  - !<ColorSpace> {name: b, to_scene_reference: !<ColorSpaceTransform> {src: a, dst: ref}}
`,
      'loop.ocio',
    );
    const error = errorOf(() => new ProcessorBuilder(config, noFiles).colourSpace('a', 'ref'));
    expect(error.message).toMatch(/^loop\.ocio:\d+: circular reference: .*a.*b.*; break the loop$/);
  });

  it('names a transform exrview cannot apply yet', () => {
    const config = parseConfig(
      'ocio_profile_version: 2\ncolorspaces:\n  - !<ColorSpace> {name: r}\n  - !<ColorSpace> {name: a, to_scene_reference: !<TruelightTransform> {}}\n',
      'b.ocio',
    );
    expect(errorOf(() => new ProcessorBuilder(config, noFiles).colourSpace('a', 'r')).message).toBe(
      'b.ocio:4: TruelightTransform is not supported yet: exrview cannot apply this part of the config',
    );
  });

  it('names a LUT whose size does not match its data', () => {
    const config = parseConfig(
      'ocio_profile_version: 2\ncolorspaces:\n  - !<ColorSpace> {name: r}\n  - !<ColorSpace> {name: a, to_scene_reference: !<FileTransform> {src: short.cube}}\n',
      '/c/s.ocio',
    );
    const builder = new ProcessorBuilder(config, { readText: () => 'LUT_3D_SIZE 2\n0 0 0\n1 1 1\n' });
    expect(errorOf(() => builder.colourSpace('a', 'r')).message).toBe(
      '/c/short.cube:2: the LUT declares 8 entries but has 2: regenerate it or fix its size line',
    );
  });
});

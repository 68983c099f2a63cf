// BuiltinTransform and FixedFunctionTransform in a config: the ops they build and the messages for styles exrview does not know.

import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config.js';
import { ProcessorBuilder } from '../processor.js';

const noFiles = {
  readText: (path: string): string => {
    throw new Error(`no file ${path}`);
  },
};

function builderFor(transform: string): ProcessorBuilder {
  const text = `ocio_profile_version: 2.5\ncolorspaces:\n  - !<ColorSpace> {name: r}\n  - !<ColorSpace> {name: a, to_scene_reference: ${transform}}\n`;
  return new ProcessorBuilder(parseConfig(text, 't.ocio'), noFiles);
}

describe('BuiltinTransform and FixedFunctionTransform', () => {
  it('builds a built-in as the op chain OCIO builds for it', () => {
    const ops = builderFor('!<BuiltinTransform> {style: ACEScct_to_ACES2065-1}').colourSpace('a', 'r');
    expect(ops.map((op) => op.type)).toEqual(['log', 'matrix']);
  });

  it('matches built-in style names without regard to case', () => {
    expect(builderFor('!<BuiltinTransform> {style: acescg_to_aces2065-1}').colourSpace('a', 'r')).toHaveLength(1);
  });

  it('inverts a fixed function by flipping its direction', () => {
    const ops = builderFor('!<FixedFunctionTransform> {style: ACES_RedMod03, direction: inverse}').colourSpace('a', 'r');
    expect(ops).toEqual([{ type: 'fixedFunction', style: 'ACES_RedMod03', direction: 'inverse', params: [] }]);
  });

  it('names an unknown built-in style', () => {
    expect(() => builderFor('!<BuiltinTransform> {style: NOT_A_STYLE}').colourSpace('a', 'r')).toThrow(
      /^t\.ocio:4: BuiltinTransform style "NOT_A_STYLE" is not one exrview knows/,
    );
  });

  it('names a fixed function given the wrong number of params', () => {
    expect(() => builderFor('!<FixedFunctionTransform> {style: REC2100_Surround, params: [1, 2]}').colourSpace('a', 'r')).toThrow(
      /REC2100_Surround takes 1 numeric params, not 2/,
    );
  });

  it('names an unknown fixed-function style', () => {
    expect(() => builderFor('!<FixedFunctionTransform> {style: NOPE}').colourSpace('a', 'r')).toThrow(
      /FixedFunctionTransform style "NOPE" is not supported/,
    );
  });
});

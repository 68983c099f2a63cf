// A file's chromaticities matched to the config's colour space with the same primaries and white, through the
// config's own to-reference matrices (Bradford- or CAT02-adapted where the whites differ); a colour-space name first.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ProcessorBuilder, openConfig, parseConfig } from '../../shaders/colour/index.js';
import { colourSpaceFromFile, rgbToXyz } from './file-colour-space.js';

const PRIMARIES = {
  AP0: [0.7347, 0.2653, 0.0, 1.0, 0.0001, -0.077, 0.32168, 0.33767],
  AP1: [0.713, 0.293, 0.165, 0.83, 0.128, 0.044, 0.32168, 0.33767],
  'Rec.709': [0.64, 0.33, 0.3, 0.6, 0.15, 0.06, 0.3127, 0.329],
  'P3-D65': [0.68, 0.32, 0.265, 0.69, 0.15, 0.06, 0.3127, 0.329],
  'Rec.2020': [0.708, 0.292, 0.17, 0.797, 0.131, 0.046, 0.3127, 0.329],
};
const noFiles = (path: string): never => {
  throw new Error(`${path}: not read`);
};

async function builtin(uri: string): Promise<ProcessorBuilder> {
  const opened = await openConfig(uri, { readText: noFiles, readBytes: noFiles });
  return new ProcessorBuilder(opened.config, opened.files);
}

/** As a file stores them: float32. */
const stored = (c: number[]) => ({ chromaticities: c.map(Math.fround) });

describe("an image's colour space from its file", () => {
  it.each(['ocio://cg-config-latest', 'ocio://studio-config-latest', 'ocio://cg-config-v2.1.0_aces-v1.3_ocio-v2.3'])(
    'matches AP0, AP1, Rec.709, P3-D65 and Rec.2020 to their linear spaces in %s, and nothing to odd primaries',
    async (uri) => {
      const builder = await builtin(uri);
      const names = Object.fromEntries(Object.entries(PRIMARIES).map(([k, c]) => [k, colourSpaceFromFile(builder, stored(c))?.name]));
      expect(names).toEqual({
        AP0: 'ACES2065-1',
        AP1: 'ACEScg',
        'Rec.709': 'Linear Rec.709 (sRGB)',
        'P3-D65': 'Linear P3-D65',
        'Rec.2020': 'Linear Rec.2020',
      });
      // Rec.709's primaries with an ACES white: no config space is that
      expect(colourSpaceFromFile(builder, stored([...PRIMARIES['Rec.709'].slice(0, 6), 0.32168, 0.33767]))).toBeNull();
      expect(colourSpaceFromFile(builder, { chromaticities: [0.64, 0.33, 0.3, 0.6, 0.15, 0.06, 0.3127, 0] })).toBeNull();
    },
  );

  it('a colour-space attribute naming a space (or alias, or role) comes before the chromaticities', async () => {
    const builder = await builtin('ocio://cg-config-latest');
    expect(colourSpaceFromFile(builder, { colourSpaceName: 'acescg', ...stored(PRIMARIES.AP0) })).toEqual({
      name: 'ACEScg',
      from: 'colour-space attribute',
    });
    expect(colourSpaceFromFile(builder, { colourSpaceName: 'no such space', ...stored(PRIMARIES.AP0) })).toEqual({
      name: 'ACES2065-1',
      from: 'chromaticities',
    });
  });

  it('carries the primaries to a config without interchange roles through a space it knows by name (studio-test: Linear Rec.709)', () => {
    const text = readFileSync('testing/colour/configs/studio-test.ocio', 'utf8');
    const builder = new ProcessorBuilder(parseConfig(text, 'studio-test.ocio'), { readText: noFiles });
    expect(colourSpaceFromFile(builder, stored(PRIMARIES['Rec.709']))?.name).toBe('Linear Rec.709');
    // a config whose spaces are all unknown by name: nothing to carry the primaries to
    const bare = parseConfig('ocio_profile_version: 2\nroles: {default: a}\ncolorspaces:\n  - !<ColorSpace> {name: a}\n', 'bare.ocio');
    expect(colourSpaceFromFile(new ProcessorBuilder(bare, { readText: noFiles }), stored(PRIMARIES['Rec.709']))).toBeNull();
  });

  it("derives RGB → XYZ from primaries: Rec.709's is the sRGB standard's matrix", () => {
    const m = rgbToXyz(PRIMARIES['Rec.709'])!;
    const srgb = [0.4124, 0.3576, 0.1805, 0.2126, 0.7152, 0.0722, 0.0193, 0.1192, 0.9505];
    m.forEach((v, i) => expect(v).toBeCloseTo(srgb[i]!, 3));
  });
});

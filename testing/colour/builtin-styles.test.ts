// Every BuiltinTransform style exrview knows and every FixedFunctionTransform style, value for value against ocio_apply (lossless).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_STYLES } from '../../shaders/colour/builtins/registry.js';
import { P3_D60, REC2020, REC709, REC709_D60, toXyzD65, type Primaries } from '../../shaders/colour/ops/aces2/primaries.js';
import { inParallel, ocioApplyAsync } from './oracle-async.js';
import { difference, encodedPixels, latticePixels, loadBuilder, oraclePresent, runExrview } from './oracle.js';

/** Absolute on display values, relative above 1 (`difference` measures it that way). */
const TOLERANCE = 1e-4;
/**
 * The JMh-domain ACES 2.0 stages take J and M up to 65504 on this lattice, far outside any colour; there float32
 * cancellation in OCIO's compression steps leaves up to 3e-3 between two float implementations.
 */
const JMH_TOLERANCE = 5e-3;

const FIXED_FUNCTIONS: [string, number[]][] = [
  ['ACES_RedMod03', []],
  ['ACES_RedMod10', []],
  ['ACES_Glow03', []],
  ['ACES_Glow10', []],
  ['ACES_DarkToDim10', []],
  ['ACES_GamutComp13', [1.147, 1.264, 1.312, 0.815, 0.803, 0.88, 1.2]],
  ['ACES2_OutputTransform', [1000, 0.708, 0.292, 0.17, 0.797, 0.131, 0.046, 0.3127, 0.329]],
  ['ACES2_RGB_TO_JMh', [0.713, 0.293, 0.165, 0.83, 0.128, 0.044, 0.32168, 0.33767]],
  ['ACES2_TonescaleCompress', [1000]],
  ['ACES2_GamutCompress', [1000, 0.708, 0.292, 0.17, 0.797, 0.131, 0.046, 0.3127, 0.329]],
  ['REC2100_Surround', [0.78]],
  ['RGB_TO_HSV', []],
  ['XYZ_TO_xyY', []],
  ['XYZ_TO_uvY', []],
  ['XYZ_TO_LUV', []],
  ['Lin_TO_PQ', []],
  ['Lin_TO_GammaLog', [-0.05641088, 0.01, 2, 47.28711236, 0.05641088, 2, 0.08550479, 0.69336945, 1, 0.00964052]],
  [
    'Lin_TO_DoubleLog',
    [
      10, -0.0126, 0.0126, -0.36726845, 0.12783901, -16.64805555555556, 1, 0.36726845, 0.12240537, 16.64805555555556, 1, 1.9754798,
      0.12512219,
    ],
  ],
];

/**
 * ACES 2.0 output transforms: the configs' views check those they use; here the variants that add white scaling, a linear
 * scale and XYZ-E encoding. Their inverses are checked inside the display gamut, see `ACES2_INVERSE_GAMUT`.
 */
const ACES2_SAMPLED = new Set(['SDR-100nit-REC709-D60-in-P3-D65', 'SDR-100nit-P3-D60-in-XYZ-E', 'HDR-108nit-P3-D60-in-P3-D65']);
const isAces2Output = (style: string): boolean => style.endsWith('_2.0');
const styles = BUILTIN_STYLES.filter((s) => !isAces2Output(s) || [...ACES2_SAMPLED].some((name) => s.includes(`- ${name}_2.0`)));

function writeConfig(path: string): void {
  const quote = (s: string): string => JSON.stringify(s);
  const space = (name: string, transform: string): string =>
    `  - !<ColorSpace>\n    name: ${quote(name)}\n    to_scene_reference: ${transform}\n`;
  const spaces = [
    ...styles.map((s) => space(`B ${s}`, `!<BuiltinTransform> {style: ${quote(s)}}`)),
    ...FIXED_FUNCTIONS.map(([s, p]) =>
      space(`F ${s}`, `!<FixedFunctionTransform> {style: ${s}${p.length ? `, params: [${p.join(', ')}]` : ''}}`),
    ),
  ];
  const header = 'ocio_profile_version: 2.5\nroles:\n  default: ref\n  scene_linear: ref\n';
  const displays = 'displays:\n  d:\n    - !<View> {name: v, colorspace: ref}\nactive_displays: []\nactive_views: []\n';
  writeFileSync(path, `${header}${displays}colorspaces:\n  - !<ColorSpace>\n    name: ref\n${spaces.join('')}`);
}

const lattice = latticePixels(),
  encoded = encodedPixels();
const pixels = new Float32Array(lattice.length + encoded.length);
pixels.set(lattice);
pixels.set(encoded, lattice.length);
/**
 * Inputs for the inverse ACES 2.0 (and two ACES 1.3) output transforms: a lattice inside the display gamut (limiting-primaries
 * RGB from 0 to 95% of the peak, as XYZ for the built-ins). Outside it the inverse diverges (OCIO's own default and lossless
 * paths differ there).
 */
const ACES2_INVERSE_GAMUT: Record<string, { limiting: Primaries; range: number; xyz: boolean }> = {
  'F ACES2_OutputTransform': { limiting: REC2020, range: 10, xyz: false },
  'B ACES-OUTPUT - ACES2065-1_to_CIE-XYZ-D65 - SDR-100nit-REC709-D60-in-P3-D65_2.0': { limiting: REC709_D60, range: 1, xyz: true },
  'B ACES-OUTPUT - ACES2065-1_to_CIE-XYZ-D65 - SDR-100nit-P3-D60-in-XYZ-E_2.0': { limiting: P3_D60, range: 1, xyz: true },
  'B ACES-OUTPUT - ACES2065-1_to_CIE-XYZ-D65 - HDR-108nit-P3-D60-in-P3-D65_2.0': { limiting: P3_D60, range: 2.25 * 0.48, xyz: true },
  /*
   * ACES 1.3 video outputs with no primary clamp: far outside the display (XYZ Y = 0 with X = 4) the inverse dark-to-dim
   * divides by a luminance near 0, and OCIO's own default and lossless paths differ by up to 0.16 there.
   */
  'B ACES-OUTPUT - ACES2065-1_to_CIE-XYZ-D65 - SDR-VIDEO_1.0': { limiting: REC709, range: 1, xyz: true },
  'B ACES-OUTPUT - ACES2065-1_to_CIE-XYZ-D65 - SDR-VIDEO-D60sim-D65_1.0': { limiting: REC709, range: 1, xyz: true },
};

function inGamutLattice(g: { limiting: Primaries; range: number; xyz: boolean }): Float32Array {
  const steps = Array.from({ length: 13 }, (_, i) => (0.95 * g.range * i) / 12);
  const m = toXyzD65(g.limiting, 'none');
  const out: number[] = [];
  for (const r of steps)
    for (const gr of steps)
      for (const b of steps) {
        const v = g.xyz ? [0, 1, 2].map((k) => m[k * 3]! * r + m[k * 3 + 1]! * gr + m[k * 3 + 2]! * b) : [r, gr, b];
        out.push(v[0]!, v[1]!, v[2]!, 1);
      }
  return Float32Array.from(out);
}

describe.skipIf(!oraclePresent)('OCIO oracle: built-in and fixed-function styles', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'exrview-ocio-')), 'styles.ocio');
  if (oraclePresent) writeConfig(path);
  const builder = oraclePresent ? loadBuilder(path) : undefined;
  const cases = (builder?.config.colourSpaces ?? [])
    .filter((cs) => cs.name !== 'ref')
    .flatMap((cs) => [
      { args: ['cs', cs.name, 'ref'], input: pixels },
      { args: ['cs', 'ref', cs.name], input: ACES2_INVERSE_GAMUT[cs.name] ? inGamutLattice(ACES2_INVERSE_GAMUT[cs.name]!) : pixels },
    ]);
  const expected: Float32Array[] = [];
  beforeAll(async () => {
    expected.push(
      ...(await inParallel(
        cases.map((c) => () => ocioApplyAsync(path, c.args, c.input)),
        4,
      )),
    );
  }, 120_000);
  cases.forEach((c, k) => {
    it(c.args.join(' / '), () => {
      const diff = difference(c.input, expected[k]!, runExrview(builder!, c.args, c.input));
      const jmhDomain = /F ACES2_(GamutCompress|TonescaleCompress)/.test(c.args.join(' '));
      expect(
        diff.maxError,
        JSON.stringify(diff.worst, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)),
      ).toBeLessThan(jmhDomain ? JMH_TOLERANCE : TOLERANCE);
    });
  });
});

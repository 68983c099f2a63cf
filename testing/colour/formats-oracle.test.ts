// Value for value against OpenColorIO (ocio_apply, lossless): one colour space per LUT file format, both directions,
// named transforms as sources and destinations, and a .ocioz archive that ocioarchive packs.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openConfig, ProcessorBuilder } from '../../shaders/colour/index.js';
import {
  CONFIG_DIR,
  difference,
  encodedPixels,
  latticePixels,
  loadBuilder,
  oraclePresent,
  OCIO_APPLY,
  runExrview,
  runOcioApply,
} from './oracle.js';

const TOLERANCE = 1e-4;

const lattice = latticePixels(),
  encoded = encodedPixels();

/** Scene-linear inputs on the wide lattice; from an encoded space (LUT outputs), its -0.1 to 1.2 range as well. */
function check(path: string, builder: ProcessorBuilder, args: string[], env: Record<string, string>): void {
  const fromEncoded = args[0] === 'cs' && args[1] !== 'Linear' && args[1] !== 'linear';
  for (const pixels of fromEncoded ? [lattice, encoded] : [lattice]) {
    const diff = difference(pixels, runOcioApply(path, args, pixels, env), runExrview(builder, args, pixels));
    expect(
      diff.maxError,
      JSON.stringify(diff.worst, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)),
    ).toBeLessThan(TOLERANCE);
  }
}

describe.skipIf(!oraclePresent)('OCIO oracle: LUT file formats (formats-test.ocio)', () => {
  const lutDir = mkdtempSync(join(tmpdir(), 'exrview-format-luts-'));
  execFileSync(process.execPath, [join(CONFIG_DIR, 'make-format-luts.mjs'), lutDir]);
  afterAll(() => rmSync(lutDir, { recursive: true, force: true }));
  const env = { FORMAT_LUTS: lutDir };
  const path = join(CONFIG_DIR, 'formats-test.ocio');
  const builder = loadBuilder(path, env);
  const pairs: string[][] = [];
  for (const cs of builder.config.colourSpaces) if (cs.name !== 'Linear') pairs.push(['cs', cs.name, 'Linear'], ['cs', 'Linear', cs.name]);
  for (const display of builder.config.displays) for (const view of display.views) pairs.push(['dv', 'Linear', display.name, view.name]);
  pairs.push(
    ['cs', 'Film Look', 'Linear'],
    ['cs', 'Linear', 'film_look'],
    ['cs', 'Linear', 'Shaper Out'],
    ['cs', 'Shaper Out', 'Film Look'],
  );
  for (const args of pairs) it(args.join(' / '), () => check(path, builder, args, env));
});

describe.skipIf(!oraclePresent)('OCIO oracle: a .ocioz archive', () => {
  const dir = mkdtempSync(join(tmpdir(), 'exrview-ocioz-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const archive = join(dir, 'v1-test.ocioz');
  execFileSync(join(dirname(OCIO_APPLY), 'ocioarchive'), ['--iconfig', join(CONFIG_DIR, 'v1-test.ocio'), archive], { stdio: 'ignore' });

  it('reads the config and its LUTs from inside the archive, as OCIO does', async () => {
    const reader = {
      readText: (p: string) => readFileSync(p, 'utf8'),
      readBytes: (p: string) => readFileSync(p),
    };
    const opened = await openConfig(archive, reader);
    expect(opened.config.colourSpaces.map((cs) => cs.name)).toContain('cube_look');
    const builder = new ProcessorBuilder(opened.config, opened.files);
    // every LUT of the config: the spi1d film view with its look, the .cube (and its inverse), the .spimtx
    for (const args of [
      ['dv', 'linear', 'sRGB', 'Film Graded'],
      ['cs', 'linear', 'cube_look'],
      ['cs', 'cube_look', 'linear'],
      ['cs', 'srgb8', 'linear'],
    ])
      check(archive, builder, args, {});
  });

  it('names the archive and the entry when a LUT is missing from it', async () => {
    const reader = { readText: (p: string) => readFileSync(p, 'utf8'), readBytes: (p: string) => readFileSync(p) };
    const opened = await openConfig(archive, reader);
    opened.config.searchPaths = ['elsewhere'];
    const builder = new ProcessorBuilder(opened.config, opened.files);
    expect(() => builder.displayView('linear', 'sRGB', 'Film')).toThrow(/v1-test\.ocioz\/elsewhere\/.* not found|LUT file .* not found/);
  });
});

// Value for value against OpenColorIO (ocio_apply, lossless): every view and colour-space pair of the test configs.

import { describe, expect, it } from 'vitest';
import {
  CONFIG_DIR,
  difference,
  encodedPixels,
  latticePixels,
  loadBuilder,
  OCIO_APPLY,
  oraclePresent,
  processorsOf,
  runExrview,
  runOcioApply,
} from './oracle.js';

/** Absolute on display values, relative above 1 (`difference` measures it that way). */
const TOLERANCE = 1e-4;

for (const name of ['studio-test.ocio', 'v1-test.ocio']) {
  describe.skipIf(!oraclePresent)(`OCIO oracle: ${name}`, () => {
    const path = `${CONFIG_DIR}/${name}`;
    const builder = loadBuilder(path);
    const lattice = latticePixels();
    const encoded = encodedPixels();
    for (const args of processorsOf(builder)) {
      it(args.join(' / '), () => {
        for (const pixels of [lattice, encoded]) {
          const expected = runOcioApply(path, args, pixels);
          const diff = difference(pixels, expected, runExrview(builder, args, pixels));
          expect(
            diff.maxError,
            JSON.stringify(diff.worst, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)),
          ).toBeLessThan(TOLERANCE);
        }
      });
    }
    it('looks overridden as ocio_apply does with OCIO_LOOKS', () => {
      const args = [
        'dv',
        name === 'v1-test.ocio' ? 'linear' : 'Linear Rec.709',
        name === 'v1-test.ocio' ? 'sRGB' : 'sRGB - Display',
        name === 'v1-test.ocio' ? 'Film Graded' : 'Log',
      ];
      for (const looks of ['', name === 'v1-test.ocio' ? '-grade' : '-Grade, +Warm']) {
        const expected = runOcioApply(path, args, lattice, { OCIO_LOOKS: looks });
        const ops = runExrview(builder, args, lattice, looks);
        expect(difference(lattice, expected, ops).maxError).toBeLessThan(TOLERANCE);
      }
    });
  });
}

describe.skipIf(oraclePresent)('OCIO oracle', () => {
  it.skip(`skipped: ${OCIO_APPLY} is absent (the OpenColorIO tools live in ../shared beside the repository)`, () => {});
});

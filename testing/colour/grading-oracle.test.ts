// OCIO's Grading transforms (Primary, RGBCurve, Tone, HueCurve, from YAML and CTF) in each style, forward and inverse,
// value for value against ocio_apply.

import { describe, expect, it } from 'vitest';
import { CONFIG_DIR, difference, encodedPixels, latticePixels, loadBuilder, oraclePresent, runExrview, runOcioApply } from './oracle.js';

/** Absolute on display values, relative above 1 (`difference` measures it that way). */
const TOLERANCE = 1e-4;

describe.skipIf(!oraclePresent).each(['grading-test.ocio', 'grading-tone-hue-test.ocio'])('OCIO oracle: %s', (file) => {
  const path = `${CONFIG_DIR}/${file}`;
  const builder = loadBuilder(path);
  const pixels = [latticePixels(), encodedPixels()];
  for (const cs of builder.config.colourSpaces.filter((c) => c.name !== 'ref')) {
    for (const args of [
      ['cs', cs.name, 'ref'],
      ['cs', 'ref', cs.name],
    ]) {
      it(args.join(' / '), () => {
        for (const input of pixels) {
          const diff = difference(input, runOcioApply(path, args, input), runExrview(builder, args, input));
          expect(
            diff.maxError,
            JSON.stringify(diff.worst, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)),
          ).toBeLessThan(TOLERANCE);
        }
      });
    }
  }
});

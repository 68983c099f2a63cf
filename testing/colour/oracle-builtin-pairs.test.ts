// Whole (colour space → display, view) processors of the built-in ACES configs against ocio_apply (lossless), sampled so that
// every colour space (camera logs on their encoded range too) and every view is checked at least once.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inParallel, ocioApplyAsync } from './oracle-async.js';
import { difference, encodedPixels, latticePixels, loadBuilder, OCIO_APPLY, oraclePresent, runExrview } from './oracle.js';

/** Absolute on display values, relative above 1 (`difference` measures it that way). */
const TOLERANCE = 1e-4;
const OCIOCHECK = join(dirname(OCIO_APPLY), 'ociocheck');
const present = oraclePresent && existsSync(OCIOCHECK);
/**
 * builtin-configs.test.ts checks every space to the reference and every view from ACES2065-1; the full products (27 × 37,
 * 57 × 51 and 25 × 18 pairs, an OCIO start each) would be minutes. Here whole pairs are sampled: every colour space (camera
 * logs included) and every view at least once, max(spaces, views) processors per config.
 */
function sampledPairs(builder: ReturnType<typeof loadBuilder>): string[][] {
  const views = builder.config.displays.flatMap((d) => d.views.map((v) => [d.name, v.name]));
  const spaces = builder.config.colourSpaces.map((cs) => cs.name);
  // a step prime to the view count, so that consecutive spaces meet views far apart and every view comes up
  const step = [7, 11, 13, 17, 19, 1].find((s) => views.length % s !== 0)!;
  const count = Math.max(spaces.length, views.length);
  return Array.from({ length: count }, (_, k) => ['dv', spaces[k % spaces.length]!, ...views[(k * step) % views.length]!]);
}

const pixels = (() => {
  const lattice = latticePixels(),
    encoded = encodedPixels();
  const all = new Float32Array(lattice.length + encoded.length);
  all.set(lattice);
  all.set(encoded, lattice.length);
  return all;
})();

for (const uri of ['ocio://cg-config-latest', 'ocio://studio-config-latest', 'ocio://cg-config-v2.2.0_aces-v1.3_ocio-v2.4']) {
  describe.skipIf(!present)(`OCIO oracle, sampled space → view pairs: ${uri}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'exrview-ocio-pairs-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, `${uri.slice('ocio://'.length)}.ocio`);
    if (present) {
      const written = spawnSync(OCIOCHECK, ['--iconfig', uri, '--oconfig', path]);
      if (written.status !== 0) throw new Error(`ociocheck could not write ${uri}: ${written.stderr.toString()}`);
    }
    const builder = present ? loadBuilder(path) : undefined;
    const pairs = builder ? sampledPairs(builder) : [];
    const expected = new Map<string, Float32Array>();
    beforeAll(async () => {
      const outputs = await inParallel(
        pairs.map((args) => () => ocioApplyAsync(path, args, pixels)),
        4,
      );
      pairs.forEach((args, k) => expected.set(args.join('|'), outputs[k]!));
    }, 120_000);

    it('samples every colour space, camera logs included, and every view', () => {
      const config = builder!.config;
      expect(config.colourSpaces.some((cs) => cs.encoding === 'log')).toBe(true);
      expect(new Set(pairs.map((p) => p[1])).size).toBe(config.colourSpaces.length);
      expect(new Set(pairs.map((p) => `${p[2]}|${p[3]}`)).size).toBe(config.displays.reduce((n, d) => n + d.views.length, 0));
    });

    for (const args of pairs) {
      it(args.join(' / '), () => {
        const diff = difference(pixels, expected.get(args.join('|'))!, runExrview(builder!, args, pixels));
        expect(
          diff.maxError,
          JSON.stringify(diff.worst, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)),
        ).toBeLessThan(TOLERANCE);
      });
    }
  });
}

describe.skipIf(present)('OCIO oracle: sampled built-in pairs', () => {
  it.skip(`skipped: ${OCIO_APPLY} or ociocheck is absent (the OpenColorIO tools live in ../shared beside the repository)`, () => {});
});

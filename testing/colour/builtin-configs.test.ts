// Value for value against OpenColorIO (ocio_apply, lossless) on OCIO's built-in ACES configs, written out by ociocheck at test time.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { difference, encodedPixels, latticePixels, loadBuilder, OCIO_APPLY, oraclePresent, runExrview } from './oracle.js';
import { inParallel, ocioApplyAsync } from './oracle-async.js';

/** Absolute on display values, relative above 1 (`difference` measures it that way). */
const TOLERANCE = 1e-4;
const OCIOCHECK = join(dirname(OCIO_APPLY), 'ociocheck');
const present = oraclePresent && existsSync(OCIOCHECK);

/**
 * The processors checked: every colour space to ACES2065-1 (the scene reference), every display-referred space to
 * CIE-XYZ-D65 (the display reference) and every (display, view) from ACES2065-1. The configs hold 1701 and 6099
 * processors; OCIO starting per processor makes all of them minutes of work, so the rest are sampled elsewhere.
 */
function processorsOf(builder: ReturnType<typeof loadBuilder>): string[][] {
  const out: string[][] = [];
  const aces = builder.config.roles.aces_interchange ?? 'ACES2065-1';
  const xyz = builder.config.roles.cie_xyz_d65_interchange;
  for (const cs of builder.config.colourSpaces) {
    if (cs.name !== aces) out.push(['cs', cs.name, aces]);
    if (xyz && cs.referenceSpace === 'display' && cs.name !== xyz) out.push(['cs', cs.name, xyz]);
  }
  for (const display of builder.config.displays) for (const view of display.views) out.push(['dv', aces, display.name, view.name]);
  return out;
}

const pixels = (() => {
  const lattice = latticePixels(),
    encoded = encodedPixels();
  const all = new Float32Array(lattice.length + encoded.length);
  all.set(lattice);
  all.set(encoded, lattice.length);
  return all;
})();

// The latest CG and studio configs (ACES 2.0), and the ACES 1.3 CG config whose views use the ACES 1.x output transforms.
for (const uri of ['ocio://cg-config-latest', 'ocio://studio-config-latest', 'ocio://cg-config-v2.2.0_aces-v1.3_ocio-v2.4']) {
  describe.skipIf(!present)(`OCIO oracle: ${uri}`, () => {
    const path = join(mkdtempSync(join(tmpdir(), 'exrview-ocio-')), `${uri.slice('ocio://'.length)}.ocio`);
    if (present) {
      const written = spawnSync(OCIOCHECK, ['--iconfig', uri, '--oconfig', path]);
      if (written.status !== 0) throw new Error(`ociocheck could not write ${uri}: ${written.stderr.toString()}`);
    }
    const builder = present ? loadBuilder(path) : undefined;
    const processors = builder ? processorsOf(builder) : [];
    const expected = new Map<string, Float32Array>();
    beforeAll(async () => {
      const outputs = await inParallel(
        processors.map((args) => () => ocioApplyAsync(path, args, pixels)),
        4,
      );
      processors.forEach((args, k) => expected.set(args.join('|'), outputs[k]!));
    }, 120_000);
    for (const args of processors) {
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

describe.skipIf(present)('OCIO oracle: built-in configs', () => {
  it.skip(`skipped: ${OCIO_APPLY} or ociocheck is absent (the OpenColorIO tools live in ../shared beside the repository)`, () => {});
});

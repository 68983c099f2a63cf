// The Cryptomatte matte on the GPU (Dawn, in a child process) against the CPU reference, bit for bit, on the generated
// file: every layer, single names, pairs, no pick and a long pick list, two workgroup shapes. Needs a Vulkan driver.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleDawnChild, dawnSkipReason, runDawnChild } from '../dawn-child.js';
import { ASSET_NAMES, MATERIAL_NAMES, OBJECT_NAMES } from './fixtures.js';
import type { GpuCase } from './matte-gpu-child.js';

const why = dawnSkipReason();
if (why) console.warn(`matte-gpu.test: skipped: ${why}`);

describe.skipIf(!!why)('Cryptomatte matte: GPU against the CPU reference', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await bundleDawnChild('testing/cryptomatte/matte-gpu-child.ts', 'cryptomatte-gpu-test');
  });
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('matches matteCpu in every bit', () => {
    const out = join(dir, 'out.json');
    const { died, stderr } = runDawnChild(dir, [dir, out]);
    expect(died, `${died}\n${stderr}`).toBe('');
    const result = JSON.parse(readFileSync(out, 'utf8')) as { adapter: string; pixels: number; cases: GpuCase[] };
    console.log(`matte-gpu.test: ${result.cases.length} cases of ${result.pixels} pixels on ${result.adapter}`);
    // per layer: no pick, each name, two names, all names with 100 absent IDs; each at two workgroup shapes
    expect(result.cases.length).toBe(2 * [OBJECT_NAMES, MATERIAL_NAMES, ASSET_NAMES].reduce((n, names) => n + names.length + 3, 0));
    expect(result.cases.filter((c) => c.mismatches !== 0)).toEqual([]);
    // the comparison means something: most single-name mattes cover pixels, and no pick covers none
    expect(result.cases.filter((c) => c.picks === 0).every((c) => c.covered === 0)).toBe(true);
    expect(result.cases.filter((c) => c.picks === 1 && c.covered > 0).length).toBeGreaterThan(30);
  });
});

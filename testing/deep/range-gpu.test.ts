// The depth-range composite on the GPU (Dawn, in a child process) against the CPU reference on a generated deep file
// with overlapping volumes: three slot sets, five ranges, two workgroup shapes. Needs a Vulkan driver.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleDawnChild, dawnSkipReason, runDawnChild } from '../dawn-child.js';
import type { RangeCase } from './range-gpu-child.js';

const why = dawnSkipReason();
if (why) console.warn(`range-gpu.test: skipped: ${why}`);

describe.skipIf(!!why)('deep depth range: GPU against the CPU reference', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await bundleDawnChild('testing/deep/range-gpu-child.ts', 'deep-range-gpu-test');
  });
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('matches compositeRange: in every bit where no volume is cut, within float32 rounding where one is', () => {
    const out = join(dir, 'out.json');
    const { died, stderr } = runDawnChild(dir, [dir, out]);
    expect(died, `${died}\n${stderr}`).toBe('');
    const result = JSON.parse(readFileSync(out, 'utf8')) as { adapter: string; pixels: number; cases: RangeCase[] };
    console.log(`range-gpu.test: ${result.cases.length} cases of ${result.pixels} pixels on ${result.adapter}`);
    console.log(
      `range-gpu.test: largest relative error where a volume is cut: ${Math.max(...result.cases.map((c) => c.maxError)).toExponential(2)}`,
    );
    expect(result.cases.length).toBe(3 * 5 * 2);
    // a cut volume's alpha is 1 - exp2(x log2(1 - a)) on the GPU, -expm1(x log1p(-a)) in the reference
    for (const c of result.cases) {
      if (!c.splits) expect(c.mismatches, `${c.slots} over ${c.range}`).toBe(0);
      expect(c.maxError, `${c.slots} over ${c.range}`).toBeLessThan(2e-5);
    }
    // the comparison means something: the whole range covers most pixels, an empty one none
    expect(result.cases.find((c) => c.range === '0..100')!.covered).toBeGreaterThan(result.pixels / 2);
    expect(result.cases.filter((c) => c.range === '50..60').every((c) => c.covered === 0)).toBe(true);
    expect(result.cases.some((c) => c.splits)).toBe(true);
  });
});

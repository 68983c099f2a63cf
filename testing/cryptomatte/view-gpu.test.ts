// The Cryptomatte coloured view on the GPU (Dawn, in a child process) against the CPU reference the viewer's CPU path
// draws (shaders/cryptomatte/view-cpu.ts): the ID view, overlay, alpha and isolate over the generated file's layers and
// over rank pairs with NaN, ±Inf and out-of-range coverage. Needs a Vulkan driver.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleDawnChild, dawnSkipReason, runDawnChild } from '../dawn-child.js';
import type { ViewCase } from './view-gpu-child.js';

const why = dawnSkipReason();
if (why) console.warn(`view-gpu.test: skipped: ${why}`);

/**
 * WGSL lets a GPU divide within 2.5 ULPs (the colour's two divisions by 255, the overlay's tint) and fuse a multiply
 * into an add; the squares and sums after them carry that on. Everything else is IEEE float32, as the reference.
 */
const MAX_ULPS = 16;

describe.skipIf(!!why)('Cryptomatte view: GPU against the CPU reference', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await bundleDawnChild('testing/cryptomatte/view-gpu-child.ts', 'cryptomatte-view-gpu-test');
  });
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('colours every ID as the reference does, in every mode, within a few ULPs', () => {
    const out = join(dir, 'out.json');
    const { died, stderr } = runDawnChild(dir, [dir, out]);
    expect(died, `${died}\n${stderr}`).toBe('');
    const result = JSON.parse(readFileSync(out, 'utf8')) as { adapter: string; pixels: number; cases: ViewCase[] };
    const exact = result.cases.reduce((n, c) => n + c.exact, 0);
    const components = result.cases.reduce((n, c) => n + c.components, 0);
    for (const c of result.cases)
      console.log(`  ${c.layer}, mode ${c.mode}: ${c.exact} of ${c.components} exact, ${c.maxUlps.toFixed(2)} ULPs`);
    console.log(
      `view-gpu.test: ${result.cases.length} cases of ${result.pixels} pixels on ${result.adapter}: ` +
        `${exact} of ${components} components bit-exact, at most ${Math.max(...result.cases.map((c) => c.maxUlps)).toFixed(2)} ULPs`,
    );
    // three generated layers and the broken one, four modes each
    expect(result.cases).toHaveLength(16);
    expect(result.cases.filter((c) => !(c.maxUlps <= MAX_ULPS))).toEqual([]);
    // the comparison means something: the ID view colours most pixels of every layer, the broken one too
    for (const c of result.cases.filter((c) => c.mode === 0)) expect(c.coloured, c.layer).toBeGreaterThan(result.pixels / 2);
    // and many values agree in every bit (alpha, isolate and the overlay where no division rounds differently)
    expect(exact).toBeGreaterThan(components * 0.25);
  });
});

// Channel expressions on the GPU (Dawn, in a child process) against the CPU reference on HDR planes with NaN, ±Inf,
// negatives and zeros: every operator and function, within each case's tolerance (cases.ts). Needs a Vulkan driver.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleDawnChild, dawnSkipReason, runDawnChild } from '../dawn-child.js';
import type { GpuCase } from './expr-gpu-child.js';
import { EXPRESSION_CASES, PLANE_READ_CASES } from './cases.js';

const why = dawnSkipReason();
if (why) console.warn(`expr-gpu.test: skipped: ${why}`);

describe.skipIf(!!why)('channel expressions: GPU against the CPU reference', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await bundleDawnChild('testing/expressions/expr-gpu-child.ts', 'expr-gpu-test');
  });
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('every case within its tolerance, NaN and infinities alike', () => {
    const out = join(dir, 'out.json');
    const { died, stderr } = runDawnChild(dir, [out]);
    expect(died, `${died}\n${stderr}`).toBe('');
    const result = JSON.parse(readFileSync(out, 'utf8')) as {
      adapter: string;
      pixels: number;
      maxSampledTextures: number;
      cases: GpuCase[];
    };
    console.log(`expr-gpu.test: ${result.cases.length} expressions of ${result.pixels} pixels on ${result.adapter}`);
    expect(result.cases.map((c) => c.text)).toEqual([...EXPRESSION_CASES, ...PLANE_READ_CASES].map((c) => c.text));
    // the wide case must exercise the packing fallback: more planes than the child's device binds (WebGPU's default 16)
    const wide = result.cases.at(-1)!;
    expect(wide.planes).toBeGreaterThan(result.maxSampledTextures);
    expect(wide.packed).toBeGreaterThan(0);
    // issue 40: a build reads the cache's plane textures and reuses its scratch, so it creates no texture; only the
    // first build that packs may make the device's scratch, once
    const creating = result.cases
      .filter((c) => c.texturesCreated[1] !== 0 || (c.packed === 0 && c.texturesCreated[0] !== 0))
      .map((c) => `${c.text}: ${c.texturesCreated.join(' then ')} textures created`);
    expect(creating).toEqual([]);
    const failed = result.cases
      .filter((c) => c.mismatches > 0)
      .map((c) => `${c.text} (${c.tolerance}): ${c.mismatches} off, worst ${c.worst} at ${c.at}`);
    expect(failed).toEqual([]);
  });
});

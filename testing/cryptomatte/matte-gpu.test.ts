// The Cryptomatte matte on the GPU (Dawn, in a child process) against the CPU reference, bit for bit, on the generated
// file: every layer, single names, pairs, no pick and a long pick list, two workgroup shapes. Needs a Vulkan driver.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dawnChildEnv } from '../../host/thumbnails/gpu/dawn.js';
import { ASSET_NAMES, MATERIAL_NAMES, OBJECT_NAMES } from './fixtures.js';
import type { GpuCase } from './matte-gpu-child.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = dawnChildEnv();
const why = !existsSync(join(root, 'node_modules/webgpu/package.json'))
  ? 'the webgpu package is not installed'
  : !env.VK_ICD_FILENAMES && !env.VK_DRIVER_FILES && !existsSync('/usr/share/vulkan/icd.d')
    ? 'no Vulkan driver found (install chromium or mesa-vulkan-drivers)'
    : '';
if (why) console.warn(`matte-gpu.test: skipped: ${why}`);

describe.skipIf(!!why)('Cryptomatte matte: GPU against the CPU reference', () => {
  let dir = '';
  beforeAll(async () => {
    // inside the project (dist/ is ignored): the bundle's `import 'webgpu'` resolves from node_modules above it
    mkdirSync(join(root, 'dist'), { recursive: true });
    dir = mkdtempSync(join(root, 'dist', 'cryptomatte-gpu-test-'));
    await build({
      absWorkingDir: root,
      entryPoints: [{ in: 'testing/cryptomatte/matte-gpu-child.ts', out: 'child' }],
      outdir: dir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      external: ['webgpu'],
      loader: { '.wgsl': 'text' },
      logLevel: 'warning',
      banner: { js: "import { createRequire as __childRequire } from 'node:module'; const require = __childRequire(import.meta.url);" },
    });
  });
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('matches matteCpu in every bit', () => {
    const out = join(dir, 'out.json');
    const r = spawnSync(process.execPath, [join(dir, 'child.mjs'), dir, out], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
    const died = r.signal ? `killed by ${r.signal}` : r.status !== 0 ? `exit ${r.status}` : '';
    expect(died, `${died}\n${r.stderr.slice(-2000)}`).toBe('');
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

#!/usr/bin/env node
// GPU time of the OpenColorIO view transform against the plain tone-map at 4K (Node + Dawn): bundles bench/gpu/ocio.ts
// into dist/ocio-gpu-bench/ (where esbuild is installed) and runs it; prints one JSON object on its last line.
// Here: `node bench/ocio-gpu.mjs [--quick]` (VK_ICD_FILENAMES picks SwiftShader). On the lent GPU machine: bundle here
// (`node bench/ocio-gpu.mjs --build-only`), prepare `.gpu/` with ../shared/tools/gpu-kit.sh, carry `.gpu` and `dist`,
// and run `source .gpu/enter.sh; node bench/ocio-gpu.mjs` there (it runs the bundle without building again). The run
// ends with each ACES 2.0 view's and grading op's GPU result against the CPU reference on that adapter (`accuracy`);
// `--experiments` times instead the ACES 2.0 SDR and HDR views' WGSL with one part cut at a time (wrong values: where time goes).
// `--timing-only` skips the accuracy check (a repeat of the timings).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = 'dist/ocio-gpu-bench';
const bundle = `${root}${outdir}/ocio.mjs`;
const args = process.argv.slice(2);

if (args.includes('--build-only') || !existsSync(bundle)) {
  const { bundleBench } = await import('./bundle.mjs');
  await bundleBench([{ in: 'bench/gpu/ocio.ts', out: 'ocio' }], outdir);
  if (args.includes('--build-only')) process.exit(0);
}
const r = spawnSync(process.execPath, [bundle, ...args], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);

#!/usr/bin/env node
// GPU time of a channel expression over six layers at 4K (Node + Dawn): bundles bench/gpu/expr.ts into
// dist/expr-gpu-bench/ (where esbuild is installed) and runs it; prints one JSON object on its last line.
// Here: `node bench/expr-gpu.mjs [--quick]` (VK_ICD_FILENAMES picks SwiftShader). On the lent GPU machine: bundle here
// (`node bench/expr-gpu.mjs --build-only`), prepare `.gpu/` with ../shared/tools/gpu-kit.sh, carry `.gpu` and `dist`,
// and run `source .gpu/enter.sh; node bench/expr-gpu.mjs` there (it runs the bundle without building again).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = 'dist/expr-gpu-bench';
const bundle = `${root}${outdir}/expr.mjs`;
const args = process.argv.slice(2);

if (args.includes('--build-only') || !existsSync(bundle)) {
  const { bundleBench } = await import('./bundle.mjs');
  await bundleBench([{ in: 'bench/gpu/expr.ts', out: 'expr' }], outdir);
  if (args.includes('--build-only')) process.exit(0);
}
const r = spawnSync(process.execPath, [bundle, ...args], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);

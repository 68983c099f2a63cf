// Bundles the GPU bench into dist/gpu-bench/ (bench.mjs and its CPU worker) so that only the `webgpu` package must travel to the GPU machine.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outdir = process.argv[2] ?? 'dist/gpu-bench';
await build({
  absWorkingDir: root,
  entryPoints: [
    { in: 'bench/gpu/main.ts', out: 'bench' },
    { in: 'bench/gpu/cpu-worker.ts', out: 'cpu-worker' },
  ],
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  external: ['webgpu'],
  loader: { '.wgsl': 'text' },
  sourcemap: 'inline',
  logLevel: 'warning',
  banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
});
console.log(`${outdir}/bench.mjs`);

// Bundles the GPU bench into one file (dist/gpu-bench/bench.mjs) so that only the `webgpu` package must travel to the GPU machine.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outfile = process.argv[2] ?? 'dist/gpu-bench/bench.mjs';
await build({
  absWorkingDir: root,
  entryPoints: ['bench/gpu/main.ts'],
  outfile,
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
console.log(outfile);

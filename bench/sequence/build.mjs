// Bundles the sequence playback bench into dist/sequence-bench/bench.mjs: Node alone runs it (webgpu loaded only for --upload dawn).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outdir = process.argv[2] ?? 'dist/sequence-bench';
await build({
  absWorkingDir: root,
  entryPoints: [{ in: 'bench/sequence/main.ts', out: 'bench' }],
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

// Bundles a Node-side bench into OUTDIR/*.mjs that Node alone runs: WGSL as text, `webgpu` (Dawn) left to load at run time.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** `entryPoints`: esbuild's { in, out } pairs, relative to the repository root. Prints OUTDIR/bench.mjs when done. */
export async function bundleBench(entryPoints, outdir) {
  await build({
    absWorkingDir: root,
    entryPoints,
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
    // bundled CommonJS (and the webgpu package) call require: an ES module has none of its own
    banner: {
      js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);",
    },
  });
  console.log(`${outdir}/bench.mjs`);
}

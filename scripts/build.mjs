// Builds what runs: the Node side with esbuild (CLI, decode worker, Electron main/preload), the renderer with Vite,
// the optional native kernels (build-native.mjs) and the committed WebAssembly ones (build-wasm.mjs).
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildNative } from './build-native.mjs';
import { copyWasm } from './build-wasm.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// Pure-JavaScript packages go into the bundles, so the command runs with Node alone (the 16-core kit sends no
// node_modules); packages with native parts or their own WebAssembly loaders stay external.
const BUNDLED_PACKAGES = ['yaml', '@xmldom/xmldom', 'fflate'];
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
const externalPackages = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies), 'webgpu'].filter(
  (name) => !BUNDLED_PACKAGES.includes(name),
);
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  external: externalPackages,
  logLevel: 'warning',
  loader: { '.wgsl': 'text' },
};

const nodeEntries = [
  { in: 'cli/main.ts', out: 'cli' },
  { in: 'host/worker/worker.ts', out: 'decode-worker' },
  { in: 'host/samples/make-samples.ts', out: 'make-samples' },
  // the host alone, for benches that drive it without the command (bench/preview-path.mjs)
  { in: 'host/host.ts', out: 'host' },
  // the GPU thumbnail process of `exrview thumbs --gpu` (Dawn's webgpu package stays external, loaded only there)
  { in: 'host/thumbnails/gpu/child.ts', out: 'gpu-thumbs-child' },
].filter((e) => existsSync(`${root}/${e.in}`));

const t0 = performance.now();
// dist/native/exr_kernels.node, found at run time beside the bundles (or never, and the TypeScript codecs run)
buildNative(root);
// dist/wasm/exr_kernels.wasm, the committed WebAssembly kernels (the tier below the native ones), beside the bundles too
copyWasm(root);
await build({
  ...common,
  format: 'esm',
  entryPoints: nodeEntries,
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  // CommonJS packages bundled into ESM may call require(): give them one
  banner: {
    js: "import { createRequire as __exrviewCreateRequire } from 'node:module'; const require = __exrviewCreateRequire(import.meta.url);",
  },
});

const electronEntries = [
  { in: 'electron/main.ts', out: 'main' },
  { in: 'electron/preload.ts', out: 'preload' },
].filter((e) => existsSync(`${root}/${e.in}`));
if (electronEntries.length) {
  await build({
    ...common,
    format: 'cjs',
    entryPoints: electronEntries,
    // modules that find files beside themselves check __dirname first; import.meta is only their ESM fallback
    logOverride: { 'empty-import-meta': 'silent' },
    outdir: 'dist/electron',
    outExtension: { '.js': '.cjs' },
    external: [...externalPackages, 'electron'],
  });
}

if (existsSync(`${root}/renderer/index.html`)) {
  const { build: viteBuild } = await import('vite');
  await viteBuild({ root: `${root}/renderer`, configFile: `${root}/vite.config.ts`, logLevel: 'warn' });
}
// the first-start sample images are made by our own writer, not committed
// (turntable.1024.exr: the last frame of the sample sequence, written last)
if (
  existsSync(`${root}/dist/make-samples.mjs`) &&
  !['layers.exr', 'turntable.1024.exr'].every((n) => existsSync(`${root}/assets/samples/${n}`))
) {
  const { spawnSync } = await import('node:child_process');
  const made = spawnSync(process.execPath, [`${root}/dist/make-samples.mjs`, `${root}/assets/samples`], { stdio: 'inherit' });
  if (made.status !== 0) console.warn('exrview: could not write the sample images (see above); the app still starts without them');
}
// the app icon in every size and format, from assets/icon.svg (made here, not committed)
try {
  const icons = await import('./make-icons.mjs');
  if (!icons.iconsUpToDate()) await icons.makeIcons();
} catch (error) {
  console.warn(`exrview: could not make the icons (${error.message}); the app runs without them, \`npm run dist\` stops on it`);
}
console.log(`exrview: built in ${Math.round(performance.now() - t0)} ms`);

// Vite build of the renderer (root renderer/, out dist/renderer/): WGSL imported as text, relative base for Electron's file://.
import { defineConfig, type Plugin } from 'vite';
import { fileURLToPath } from 'node:url';

/** `import src from './x.wgsl'` → the file's text (esbuild does the same with its text loader on the Node side). */
export function wgslText(): Plugin {
  return {
    name: 'exrview-wgsl-text',
    transform(code, id) {
      if (!id.endsWith('.wgsl')) return null;
      return { code: `export default ${JSON.stringify(code)};`, map: null };
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: [wgslText()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
  },
  worker: { format: 'es', plugins: () => [wgslText()] },
});

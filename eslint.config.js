// Lint: TypeScript rules plus the process layering of DESIGN.md, at error level.
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'zlib', 'worker_threads', 'child_process', 'http', 'net', 'crypto', 'url', 'stream'];

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'native/build/**', '.gpu/**', '.gl/**', 'test-results/**', 'playwright-report/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // the codec imports nothing of the app; node:zlib/fs only at its edge
    files: ['electron/exr/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { regex: '^electron(/(main|renderer|common|utility))?$', message: 'Only electron/main.ts and electron/preload.ts import electron.' },
          { group: ['../host/*', '../cli/*', '../server/*', '../../renderer/*', '../../shaders/*', '**/host/**', '**/cli/**', '**/server/**', '**/renderer/**'], message: 'electron/exr is the codec: it imports nothing of the app.' },
        ],
      }],
    },
  },
  {
    // only main.ts and preload.ts touch electron
    files: ['electron/**/*.ts', 'renderer/**/*.{ts,tsx}', 'shaders/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts'],
    ignores: ['electron/main.ts', 'electron/preload.ts', 'electron/exr/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: '^electron(/(main|renderer|common|utility))?$', message: 'Only electron/main.ts and electron/preload.ts import electron.' }],
      }],
    },
  },
  {
    // the renderer never imports Node-side code (type-only imports of the HostApi contract aside)
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: nodeBuiltins.filter((n) => !n.includes('*')).map((name) => ({ name, message: 'The renderer runs in the browser: no Node modules.' })),
        patterns: [
          { group: ['node:*'], message: 'The renderer runs in the browser: no Node modules.' },
          { regex: '^electron(/(main|renderer|common|utility))?$', message: 'Only electron/main.ts and electron/preload.ts import electron.' },
          { group: ['**/electron/exr/**', '**/electron/host/**', '**/electron/cli/**', '**/electron/server/**'], allowTypeImports: true, message: 'The renderer talks to the host only through HostApi (type-only imports).' },
        ],
      }],
    },
  },
  {
    // shaders/ depends on nothing
    files: ['shaders/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*', 'electron', '**/electron/**', '**/renderer/**'], message: 'shaders/ depends on nothing but WebGPU.' },
        ],
      }],
    },
  },
);

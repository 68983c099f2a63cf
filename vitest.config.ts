// Unit tests sit beside the code (*.test.ts); e2e tests run under Playwright (scripts/e2e.mjs).
// Projects: every test with the native kernels on (where they were built); the codec's conformance tests again with
// EXRVIEW_NATIVE=0 (the WebAssembly kernels) and with EXRVIEW_WASM=0 too (the TypeScript codecs, and the thumbnails'
// output), so that every tier stays checked; and the native kernels' comparisons with the vector units capped
// (EXRVIEW_NATIVE_VECTORS).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { wgslText } from './vite.config.js';
import { SOURCE_ROOMS } from './scripts/rooms.mjs';

const addon = fileURLToPath(new URL('./dist/native/exr_kernels.node', import.meta.url));
const wasmModule = fileURLToPath(new URL('./native/wasm/exr_kernels.wasm', import.meta.url));

/** What decodes pixels: conformance against OpenEXR, damaged and hostile files, every codec, the thumbnail decoder. */
const CODEC_CONFORMANCE = [
  'codec/reference.test.ts',
  'codec/generated.test.ts',
  'codec/damaged.test.ts',
  'codec/hostile.test.ts',
  'codec/reader.test.ts',
  'codec/deep.test.ts',
  'codec/stats.test.ts',
  'codec/compression/*.test.ts',
  'testing/codec/fuzz/regressions.test.ts',
  'host/thumbnails/binned-decode.test.ts',
  'host/thumbnails/on-pool.test.ts',
  'host/thumbnails/bins.test.ts',
];

/** The native kernels against their TypeScript oracles: run again with the CPU's vector units capped (AVX2; none), so
 * that the narrower kernels a user's CPU may pick stay checked on a machine that has wider ones. */
const NATIVE_AGAINST_TYPESCRIPT = [
  'codec/compression/native-codecs.test.ts',
  'host/thumbnails/bins.test.ts',
  'host/thumbnails/compose.test.ts',
];

/** Outside the codec, what the kernels do for the thumbnails' output (PNGs in the workers) and its fallback (sharp). */
const OUTPUT_FALLBACKS = ['host/io/png-native.test.ts', 'cli/thumbs-output.test.ts'];

export default defineConfig({
  // renderer modules import their WGSL as text, as in the app's build
  plugins: [wgslText()],
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // code bundled into a temporary directory (the fuzz workers) cannot find the addon or the module beside itself
    env: { EXRVIEW_NATIVE_ADDON: addon, EXRVIEW_WASM_FILE: wasmModule },
    projects: [
      {
        extends: true,
        test: {
          name: 'native',
          include: [...SOURCE_ROOMS, 'native', 'testing', 'scripts'].map((room) => `${room}/**/*.test.ts`),
        },
      },
      {
        extends: true,
        test: {
          name: 'wasm',
          include: CODEC_CONFORMANCE,
          // the native-against-TypeScript comparisons need the addon; wasm.test.ts checks the WebAssembly tier runs here
          exclude: ['codec/compression/native-codecs.test.ts'],
          env: { EXRVIEW_NATIVE: '0' },
        },
      },
      {
        extends: true,
        test: {
          name: 'typescript',
          include: [...CODEC_CONFORMANCE, ...OUTPUT_FALLBACKS],
          // the native-against-TypeScript comparisons need the addon; native.test.ts and wasm.test.ts check both are off here
          exclude: ['codec/compression/native-codecs.test.ts'],
          env: { EXRVIEW_NATIVE: '0', EXRVIEW_WASM: '0' },
        },
      },
      ...(['avx2', 'none'] as const).map((cap) => ({
        extends: true as const,
        test: { name: `native-${cap}`, include: NATIVE_AGAINST_TYPESCRIPT, env: { EXRVIEW_NATIVE_VECTORS: cap } },
      })),
    ],
  },
});

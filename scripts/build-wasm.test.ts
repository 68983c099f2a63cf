// The committed WebAssembly kernels are what their sources build: rebuilt where Debian's clang and lld are present
// (CI installs them) and compared byte for byte; skipped, saying why, where they are absent.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkWasm, WASM_OUTPUT, wasmToolchain } from './build-wasm.mjs';

const root = resolve(__dirname, '..');
const toolchain = wasmToolchain();

describe('native/wasm/exr_kernels.wasm', () => {
  it('needs nothing from its host: no imports, its memory and kernels exported', () => {
    const module = new WebAssembly.Module(readFileSync(resolve(root, WASM_OUTPUT)));
    expect(WebAssembly.Module.imports(module)).toEqual([]);
    expect(WebAssembly.Module.exports(module).map((e) => e.name)).toEqual([
      'memory',
      'alloc',
      'free',
      'error_text',
      'inflate',
      'zip',
      'huffman',
      'piz',
      'piz_planes',
      'rle',
      'b44',
      'pxr24',
    ]);
  });

  if (!toolchain.ok) {
    it.skip(`skipped: the committed bytes are not rebuilt here: ${toolchain.reason}`, () => {});
  } else {
    it('is the bytes its sources build', (context) => {
      let check: ReturnType<typeof checkWasm>;
      try {
        check = checkWasm(root);
      } catch (error) {
        // libdeflate's sources come from the Debian archive: a developer offline is not a failure; CI is never offline
        if (!process.env.CI) return context.skip(`libdeflate's sources could not be had: ${(error as Error).message}`);
        throw error;
      }
      if (check.result === 'skipped') return context.skip(check.reason);
      expect(check.reason).toMatch(/the same bytes/);
      expect(check.result).toBe('same');
    }, 180_000);
  }
});

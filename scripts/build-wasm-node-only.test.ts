// A machine with Node alone (no C compiler, so no native addon) gets the WebAssembly tier: in a copy of the package
// without dist/native and with nothing but node on PATH, the install's kernel steps (build-native.mjs, then
// build-wasm.mjs's copy, as `npm ci`'s prepare runs them) leave the committed module beside the bundles, and
// `exrview bench --json` decodes ZIP, PIZ and RLE files in the WebAssembly tier.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeExrFile } from '../codec/index.js';
import type { Compression } from '../codec/index.js';

const root = resolve(__dirname, '..');
const bundles = ['cli.mjs', 'decode-worker.mjs'].map((name) => join(root, 'dist', name));
const built = bundles.every((bundle) => existsSync(bundle));
const work = mkdtempSync(join(tmpdir(), 'exrview-node-only-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** An environment with only node on PATH: no cc, no clang, nothing of the caller's EXRVIEW_* switches. */
function nodeOnlyEnv(): NodeJS.ProcessEnv {
  const bin = join(work, 'bin');
  mkdirSync(bin, { recursive: true });
  if (!existsSync(join(bin, 'node'))) symlinkSync(process.execPath, join(bin, 'node'));
  return { PATH: bin, HOME: work, TMPDIR: tmpdir() };
}

/** The package as `npm ci` leaves it, minus what a compiler would have made: sources the install steps read, the bundles. */
function packageCopy(): string {
  const pkg = join(work, 'exrview');
  for (const path of ['package.json', 'bin', 'native/src', 'native/wasm']) cpSync(join(root, path), join(pkg, path), { recursive: true });
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  for (const bundle of bundles) cpSync(bundle, join(pkg, 'dist', bundle.slice(bundle.lastIndexOf('/') + 1)));
  symlinkSync(join(root, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  return pkg;
}

function writeImages(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const widthPx = 96;
  const heightPx = 40;
  const plane = (seed: number) => Uint16Array.from({ length: widthPx * heightPx }, (_, i) => 0x3000 + ((i * seed) % 997));
  for (const compression of ['zip', 'piz', 'rle'] as Compression[]) {
    writeExrFile(join(dir, `${compression}.exr`), [
      {
        compression,
        dataWindow: { xMin: 0, yMin: 0, xMax: widthPx - 1, yMax: heightPx - 1 },
        channels: ['A', 'B', 'G', 'R'].map((name, c) => ({ name, pixelType: 'half' as const, data: plane(c + 3) })),
      },
    ]);
  }
}

describe.skipIf(!built)('a machine with Node alone', () => {
  it('gets the WebAssembly tier after install: bench reports wasm for ZIP, PIZ and RLE', () => {
    const env = nodeOnlyEnv();
    const pkg = packageCopy();
    const install = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { buildNative } = await import(${JSON.stringify(pathToFileURL(join(root, 'scripts', 'build-native.mjs')).href)});
         const { copyWasm } = await import(${JSON.stringify(pathToFileURL(join(root, 'scripts', 'build-wasm.mjs')).href)});
         buildNative(process.argv[1]);
         copyWasm(process.argv[1]);`,
        pkg,
      ],
      { env, cwd: pkg, encoding: 'utf8', timeout: 60_000 },
    );
    expect(install.stderr).toBe('');
    expect(install.stdout).toContain('exrview: native kernels off: no C compiler (cc) found; the WebAssembly kernels are used');
    expect(existsSync(join(pkg, 'dist', 'native', 'exr_kernels.node'))).toBe(false);
    expect(
      readFileSync(join(pkg, 'dist', 'wasm', 'exr_kernels.wasm')).equals(readFileSync(join(root, 'native/wasm/exr_kernels.wasm'))),
    ).toBe(true);

    const images = join(work, 'images');
    writeImages(images);
    const bench = spawnSync(process.execPath, [join(pkg, 'bin', 'exrview.mjs'), 'bench', images, '--json'], {
      env,
      cwd: work,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(bench.stderr).toBe('');
    expect(bench.status).toBe(0);
    const summary = JSON.parse(bench.stdout.trim().split('\n').pop()!);
    expect(summary.failures).toEqual([]);
    expect(summary.files).toBe(3);
    expect(summary.nativeKernels).toMatch(/^off: /);
    expect(summary.wasmKernels).toBe('on');
    expect(summary.kernelTiers).toMatchObject({
      zip: 'wasm',
      zips: 'wasm',
      piz: 'wasm',
      rle: 'wasm',
      b44: 'wasm',
      pxr24: 'wasm',
      dwaa: 'typescript, inflate wasm',
    });
  }, 180_000);
});

if (!built) {
  describe('a machine with Node alone', () => {
    it.skip('skipped: the bundles are not built here (dist/cli.mjs): run `npm run build`', () => {});
  });
}

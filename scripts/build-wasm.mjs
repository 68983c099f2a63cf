#!/usr/bin/env node
// Builds the WebAssembly kernels: native/wasm/*.c with libdeflate's decompressor, by Debian's clang and lld, into
// native/wasm/exr_kernels.wasm, the file committed and shipped (so that installing needs no compiler).
// Usage: node scripts/build-wasm.mjs          rebuild the committed file
//        node scripts/build-wasm.mjs --check  rebuild into a temporary file; exit 1 where its bytes differ from the
//                                             committed ones, 3 (saying why) where the compiler or the sources are absent
// libdeflate's sources are Debian's source package (through a private deb-src list: the system's apt setup is left as it
// is), the upstream tarball's SHA-256 pinned below, cached in native/build/. EXRVIEW_LIBDEFLATE_TARBALL names a copy of
// that tarball instead (the same SHA-256), for a machine without the Debian archive.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LIBDEFLATE_VERSION = '1.14';
const LIBDEFLATE_TARBALL = `libdeflate_${LIBDEFLATE_VERSION}.orig.tar.gz`;
const LIBDEFLATE_SHA256 = '89e7df898c37c3427b0f39aadcf733731321a278771d20fc553f92da8d4808ac';
/** libdeflate's decompression only: the zlib wrapper, its Adler-32 check, the allocator hooks (and memcpy and friends). */
const LIBDEFLATE_FILES = ['lib/deflate_decompress.c', 'lib/zlib_decompress.c', 'lib/adler32.c', 'lib/utils.c'];
/** The kernels' own sources in native/wasm/, in link order (it decides the exports' order). */
const WASM_SOURCES = ['kernels.c', 'huffman.c', 'piz.c', 'rle.c', 'b44.c', 'pxr24.c'];
export const WASM_OUTPUT = 'native/wasm/exr_kernels.wasm';
/** The compiler that made the committed bytes: another version may emit other (equally good) bytes. */
export const WASM_BUILT_WITH = 'native/wasm/built-with.json';

const CFLAGS = [
  '--target=wasm32',
  '-O3',
  '-msimd128',
  '-mbulk-memory',
  // no libc, no imports: libdeflate's FREESTANDING build brings its own memcpy and friends, kernels.c its own allocator
  '-ffreestanding',
  '-nostdlib',
  '-DFREESTANDING',
  '-Wall',
  '-Werror',
];
const LDFLAGS = ['-Wl,--no-entry', '-Wl,--strip-all', '-Wl,--max-memory=4294967296', '-Wl,-z,stack-size=65536'];

const run = (cmd, args, options = {}) => spawnSync(cmd, args, { encoding: 'utf8', ...options });

/** Debian's clang and wasm-ld, or why not. */
export function wasmToolchain(env = process.env) {
  const clang = env.EXRVIEW_WASM_CLANG ?? 'clang';
  const version = run(clang, ['--version']);
  if (version.status !== 0) return { ok: false, reason: `no ${clang} (install Debian's clang and lld)` };
  if (run('wasm-ld', ['--version']).status !== 0) return { ok: false, reason: "no wasm-ld (install Debian's lld)" };
  return { ok: true, clang, version: version.stdout.split('\n')[0].trim() };
}

function sha256(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** The Debian archive this machine's apt uses (a CI's mirror, say), else deb.debian.org. */
function debianMirror() {
  const sources = '/etc/apt/sources.list.d/debian.sources';
  const text = existsSync(sources) ? readFileSync(sources, 'utf8') : '';
  return /^URIs:\s*(\S+\/debian)\s*$/m.exec(text)?.[1] ?? 'http://deb.debian.org/debian';
}

/** Debian's source package of libdeflate fetched into `dir` with apt, the system's lists untouched; the tarball's path. */
function fetchDebianSource(dir) {
  const state = join(dir, 'apt');
  mkdirSync(join(state, 'lists', 'partial'), { recursive: true });
  mkdirSync(join(state, 'cache', 'archives', 'partial'), { recursive: true });
  const codename = /VERSION_CODENAME=(\w+)/.exec(existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '')?.[1];
  if (!codename) throw new Error('this is not a Debian system (no VERSION_CODENAME in /etc/os-release): set EXRVIEW_LIBDEFLATE_TARBALL');
  writeFileSync(
    join(state, 'deb-src.sources'),
    `Types: deb-src\nURIs: ${debianMirror()}\nSuites: ${codename}\nComponents: main\n` +
      'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n',
  );
  const options = [
    '-q',
    '-o',
    'Dir::Etc::SourceList=/dev/null',
    '-o',
    `Dir::Etc::SourceParts=${state}`,
    '-o',
    `Dir::State::Lists=${join(state, 'lists')}`,
    '-o',
    `Dir::Cache=${join(state, 'cache')}`,
  ];
  const update = run('apt-get', [...options, 'update'], { cwd: dir });
  if (update.status !== 0) throw new Error(`apt-get update (deb-src) failed: ${update.stderr.trim().split('\n').pop()}`);
  const source = run('apt-get', [...options, 'source', '--download-only', 'libdeflate'], { cwd: dir });
  if (source.status !== 0) throw new Error(`apt-get source libdeflate failed: ${source.stderr.trim().split('\n').pop()}`);
  return join(dir, LIBDEFLATE_TARBALL);
}

/** libdeflate's source folder, unpacked once into native/build/ from the pinned tarball. */
export function libdeflateSources(root, env = process.env) {
  const cache = join(root, 'native', 'build', 'wasm');
  const unpacked = join(cache, `libdeflate-${LIBDEFLATE_VERSION}`);
  if (existsSync(join(unpacked, 'libdeflate.h'))) return unpacked;
  mkdirSync(cache, { recursive: true });
  const cached = join(cache, LIBDEFLATE_TARBALL);
  const tarball = env.EXRVIEW_LIBDEFLATE_TARBALL ?? (existsSync(cached) ? cached : fetchDebianSource(cache));
  const digest = sha256(tarball);
  if (digest !== LIBDEFLATE_SHA256)
    throw new Error(`${tarball} has SHA-256 ${digest}, expected ${LIBDEFLATE_SHA256} (libdeflate ${LIBDEFLATE_VERSION})`);
  const untar = run('tar', ['-xzf', tarball, '-C', cache]);
  if (untar.status !== 0) throw new Error(`could not unpack ${tarball}: ${untar.stderr.trim()}`);
  return unpacked;
}

/** Compiles the kernels into `out`; throws with the compiler's words where it fails. */
export function compileWasm(root, out, toolchain, sources) {
  const args = [
    ...CFLAGS,
    `-I${sources}`,
    `-I${join(sources, 'lib')}`,
    ...WASM_SOURCES.map((f) => join(root, 'native', 'wasm', f)),
    ...LIBDEFLATE_FILES.map((f) => join(sources, f)),
    ...LDFLAGS,
    '-o',
    out,
  ];
  const compiled = run(toolchain.clang, args);
  if (compiled.status !== 0) throw new Error(`the WebAssembly kernels did not compile:\n${compiled.stderr}`);
}

/** Rebuilds into a temporary file and compares with the committed bytes: same, differs, or skipped (with why). */
export function checkWasm(root, env = process.env) {
  const toolchain = wasmToolchain(env);
  if (!toolchain.ok) return { result: 'skipped', reason: toolchain.reason };
  const builtWith = JSON.parse(readFileSync(join(root, WASM_BUILT_WITH), 'utf8'));
  if (builtWith.clang !== toolchain.version)
    return { result: 'skipped', reason: `the committed bytes were made by ${builtWith.clang}, this is ${toolchain.version}` };
  const sources = libdeflateSources(root, env);
  const dir = mkdtempSync(join(tmpdir(), 'exrview-wasm-'));
  try {
    const out = join(dir, 'exr_kernels.wasm');
    compileWasm(root, out, toolchain, sources);
    const same = readFileSync(out).equals(readFileSync(join(root, WASM_OUTPUT)));
    return same
      ? { result: 'same', reason: `rebuilt by ${toolchain.version} from libdeflate ${LIBDEFLATE_VERSION}: the same bytes` }
      : { result: 'differs', reason: `${WASM_OUTPUT} is not what its sources build: run \`node scripts/build-wasm.mjs\`` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The committed module beside the bundles (dist/wasm/), where the codec looks for it at run time. */
export function copyWasm(root) {
  mkdirSync(join(root, 'dist', 'wasm'), { recursive: true });
  copyFileSync(join(root, WASM_OUTPUT), join(root, 'dist', 'wasm', 'exr_kernels.wasm'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  try {
    if (process.argv.includes('--check')) {
      const { result, reason } = checkWasm(root);
      console.log(`build-wasm: ${result}: ${reason}`);
      process.exit(result === 'same' ? 0 : result === 'skipped' ? 3 : 1);
    }
    const toolchain = wasmToolchain();
    if (!toolchain.ok) throw new Error(toolchain.reason);
    compileWasm(root, join(root, WASM_OUTPUT), toolchain, libdeflateSources(root));
    writeFileSync(
      join(root, WASM_BUILT_WITH),
      JSON.stringify({ clang: toolchain.version, libdeflate: LIBDEFLATE_VERSION }, null, 2) + '\n',
    );
    const bytes = readFileSync(join(root, WASM_OUTPUT)).length;
    console.log(`build-wasm: ${WASM_OUTPUT} (${bytes} bytes) by ${toolchain.version}, libdeflate ${LIBDEFLATE_VERSION}`);
  } catch (error) {
    console.error(`build-wasm: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

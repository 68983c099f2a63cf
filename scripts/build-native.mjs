// Builds the optional native kernels (native/src/*.c) into dist/native/exr_kernels.node with the system C compiler, libdeflate linked statically.
//
// No node-gyp: one `cc` call. The Node-API headers come from the running Node's prefix
// (<prefix>/include/node), libdeflate from pkg-config or the compiler's library path. When any of
// them is missing the build prints one line saying why the kernels are off and still succeeds (the
// WebAssembly kernels are used); dist/native/build-status.json records what happened for the tests.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ADDON_NAME = 'exr_kernels.node';
const STATUS_NAME = 'build-status.json';

/** Runs a command; its trimmed stdout, or null when it cannot run or fails. */
function output(command, args) {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

function nodeIncludeDir() {
  // <prefix>/bin/node -> <prefix>/include/node (official tarballs, Debian's nodejs, nvm)
  const dir = join(dirname(dirname(process.execPath)), 'include', 'node');
  return existsSync(join(dir, 'node_api.h')) ? dir : null;
}

function findLibdeflate(cc) {
  const pkgInclude = output('pkg-config', ['--variable=includedir', 'libdeflate']);
  const pkgLib = output('pkg-config', ['--variable=libdir', 'libdeflate']);
  const includeDir = [pkgInclude, '/usr/include', '/usr/local/include', '/opt/homebrew/include'].find(
    (d) => d && existsSync(join(d, 'libdeflate.h')),
  );
  // the compiler knows its multiarch library path (/usr/lib/x86_64-linux-gnu on Debian)
  const fromCompiler = output(cc, ['-print-file-name=libdeflate.a']);
  const archive = [
    pkgLib && join(pkgLib, 'libdeflate.a'),
    fromCompiler && isAbsolute(fromCompiler) ? resolve(fromCompiler) : null,
    '/usr/local/lib/libdeflate.a',
    '/opt/homebrew/lib/libdeflate.a',
  ].find((f) => f && existsSync(f));
  if (!includeDir) return { error: 'libdeflate.h not found (install libdeflate-dev)' };
  if (!archive) return { error: 'libdeflate.a not found (install libdeflate-dev)' };
  return { includeDir, archive };
}

/** What the build needs, or why it cannot run. */
function toolchain() {
  if (process.env.EXRVIEW_NATIVE_BUILD === '0') return { kind: 'disabled', reason: 'turned off by EXRVIEW_NATIVE_BUILD=0' };
  if (process.platform !== 'linux' && process.platform !== 'darwin')
    return { kind: 'missing', reason: `not built on ${process.platform} (Linux and macOS only)` };
  const cc = process.env.CC || 'cc';
  if (output(cc, ['--version']) === null) return { kind: 'missing', reason: `no C compiler (${cc}) found` };
  const nodeInclude = nodeIncludeDir();
  if (!nodeInclude)
    return { kind: 'missing', reason: `no Node-API headers at ${join(dirname(dirname(process.execPath)), 'include', 'node')}` };
  const deflate = findLibdeflate(cc);
  if (deflate.error) return { kind: 'missing', reason: deflate.error };
  return { kind: 'ready', cc, nodeInclude, deflate };
}

function newestMtimeMs(files) {
  return Math.max(...files.map((f) => statSync(f).mtimeMs));
}

/** Builds the addon when stale; returns the status written beside it. */
export function buildNative(root) {
  const outDir = join(root, 'dist', 'native');
  const addon = join(outDir, ADDON_NAME);
  mkdirSync(outDir, { recursive: true });
  const srcDir = join(root, 'native', 'src');
  const sources = readdirSync(srcDir)
    .filter((n) => n.endsWith('.c'))
    .sort()
    .map((n) => join(srcDir, n));
  const headers = readdirSync(srcDir)
    .filter((n) => n.endsWith('.h'))
    .map((n) => join(srcDir, n));
  const tools = toolchain();
  const writeStatus = (status) => {
    writeFileSync(join(outDir, STATUS_NAME), `${JSON.stringify(status, null, 2)}\n`);
    return status;
  };
  if (tools.kind !== 'ready') {
    // a stale addon from an earlier build must not stay loadable
    rmSync(addon, { force: true });
    console.log(`exrview: native kernels off: ${tools.reason}; the WebAssembly kernels are used`);
    return writeStatus({ built: false, kind: tools.kind, reason: tools.reason });
  }
  const inputs = [...sources, ...headers, fileURLToPath(import.meta.url), tools.deflate.archive];
  if (existsSync(addon) && statSync(addon).mtimeMs >= newestMtimeMs(inputs)) {
    return writeStatus({ built: true, kind: 'built', reason: 'up to date', addon });
  }

  const flags = [
    '-O3',
    '-std=c11',
    '-D_POSIX_C_SOURCE=200809L',
    '-fPIC',
    '-shared',
    '-fvisibility=hidden',
    '-fstack-protector-strong',
    '-Wall',
    '-Wextra',
    '-Wshadow',
    '-Werror=implicit-function-declaration',
    `-I${tools.nodeInclude}`,
    `-I${tools.deflate.includeDir}`,
  ];
  // Node-API symbols come from the running node (or Electron) binary; libdeflate's stay private
  const linkFlags = process.platform === 'darwin' ? ['-undefined', 'dynamic_lookup'] : ['-Wl,--exclude-libs,ALL', '-Wl,-z,noexecstack'];
  const partial = join(root, 'native', 'build', `${ADDON_NAME}.${process.pid}.tmp`);
  mkdirSync(dirname(partial), { recursive: true });
  const t0 = performance.now();
  const r = spawnSync(tools.cc, [...flags, ...sources, tools.deflate.archive, ...linkFlags, '-o', partial], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(partial, { force: true });
    rmSync(addon, { force: true });
    process.stderr.write(r.stderr ?? '');
    const reason = `the C compiler failed on native/src (${tools.cc} exit ${r.status}, see above)`;
    console.log(`exrview: native kernels off: ${reason}; the WebAssembly kernels are used`);
    return writeStatus({ built: false, kind: 'failed', reason });
  }
  if (r.stderr.trim()) process.stderr.write(r.stderr);
  // renamed into place so that a running decoder never loads a half-written file
  renameSync(partial, addon);
  console.log(
    `exrview: native kernels built in ${Math.round(performance.now() - t0)} ms (${tools.cc}, libdeflate ${tools.deflate.archive})`,
  );
  return writeStatus({ built: true, kind: 'built', reason: 'built', addon });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildNative(fileURLToPath(new URL('..', import.meta.url)));
}

// Runs the kernels on corrupted corpus chunks (and the PNG encoder on random images) under AddressSanitizer and UndefinedBehaviorSanitizer: `node native/test/sanitize.mjs [CASES] [SEED] [EXR...]`.
//
// Builds native/test/harness.c with the kernels (no Node) and -fsanitize=address,undefined, dumps
// every chunk of the given files (default: the shared corpus, damaged files included) with
// dump-chunks.ts, then runs CASES corrupted chunks (flips, cuts, splices). Any out-of-bounds access
// or undefined behaviour aborts with the sanitizer's report; exit 0 means none was found.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const [casesArg, seedArg, ...given] = process.argv.slice(2);
const cases = casesArg ?? '200000';
const seed = seedArg ?? '1';
const corpus = join(root, '..', 'shared', 'corpus', 'openexr-images');
const files = given.length
  ? given
  : existsSync(corpus)
    ? readdirSync(corpus, { recursive: true })
        .filter((f) => f.endsWith('.exr'))
        .map((f) => join(corpus, f))
    : [];
if (files.length === 0) {
  console.error(`no EXR files given and no corpus at ${corpus}`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'exrview-sanitize-'));
const run = (command, args, options = {}) => {
  const r = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (r.status !== 0) {
    console.error(`${command} ${args.slice(0, 3).join(' ')}… exited with ${r.status ?? r.signal}`);
    process.exit(1);
  }
};
try {
  const deflate = spawnSync(process.env.CC || 'cc', ['-print-file-name=libdeflate.a'], { encoding: 'utf8' }).stdout.trim();
  const sources = readdirSync(join(root, 'native', 'src'))
    .filter((n) => n.endsWith('.c') && n !== 'module.c')
    .map((n) => join('native', 'src', n));
  const harness = join(work, 'harness');
  run(process.env.CC || 'cc', [
    '-O1',
    '-g',
    '-std=c11',
    '-D_POSIX_C_SOURCE=200809L',
    '-fsanitize=address,undefined',
    '-fno-sanitize-recover=all',
    '-fno-omit-frame-pointer',
    ...sources,
    'native/test/harness.c',
    deflate,
    '-o',
    harness,
  ]);
  const chunks = join(work, 'chunks.bin');
  run(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'native/test/dump-chunks.ts', chunks, ...files]);
  const sanitizerEnv = { env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=1', UBSAN_OPTIONS: 'print_stacktrace=1' } };
  run(harness, ['fuzz', chunks, cases, seed], sanitizerEnv);
  // the thumbnails' PNG encoder: its input is never a file's, but its sizes are any the user asks for
  run(harness, ['png', String(Math.min(Number(cases), 2000)), seed], sanitizerEnv);
  // the finishing's float-to-half conversion: vectors (F16C where the CPU has it) against the scalar code, every float
  run(harness, ['halves'], sanitizerEnv);
  console.log('sanitizers found nothing');
} finally {
  rmSync(work, { recursive: true, force: true });
}

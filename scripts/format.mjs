#!/usr/bin/env node
// Formats the sources (`npm run format`) or checks them (`--check`, part of `npm test`): Prettier for TypeScript,
// JavaScript, JSON and CSS; clang-format for C and C++ (Debian's clang-format; .ci/run installs it).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');

const tracked = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
if (tracked.status !== 0) {
  console.error('format: this is not a git checkout; run it from a clone of exrview');
  process.exit(2);
}
const files = tracked.stdout.split('\0').filter(Boolean);
const cFiles = files.filter((f) => /\.(c|h|cpp)$/.test(f));

const prettier = spawnSync(
  process.execPath,
  [`${root}/node_modules/prettier/bin/prettier.cjs`, check ? '--check' : '--write', '--log-level', 'warn', '.'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
let failed = prettier.status !== 0;
if (failed && check) console.error('format: Prettier found files not formatted as above; run `npm run format` to rewrite them');

const clang = process.env.EXRVIEW_CLANG_FORMAT ?? 'clang-format';
const version = spawnSync(clang, ['--version'], { encoding: 'utf8' });
if (version.status !== 0) {
  console.log(`format: C sources not checked: no ${clang} (install Debian's clang-format, or set EXRVIEW_CLANG_FORMAT)`);
} else {
  const args = check ? ['--dry-run', '--Werror', ...cFiles] : ['-i', ...cFiles];
  const result = spawnSync(clang, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    failed = true;
    if (check) console.error('format: clang-format found C files not formatted as above; run `npm run format` to rewrite them');
  }
}
process.exit(failed ? 1 : 0);

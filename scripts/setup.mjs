// Makes a fresh clone ready: installs npm dependencies when missing or stale, then builds. Run by `npm start` and `npm test`.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
// The Electron binary comes from outside the npm registry; only opening the window needs it.
const env = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };

const lock = 'package-lock.json';
const installed = 'node_modules/.package-lock.json';
const stale = !existsSync(installed) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs + 1000);
if (stale) {
  console.log('exrview: installing npm dependencies…');
  const cmd = existsSync(lock) ? 'npm ci --no-audit --no-fund' : 'npm install --no-audit --no-fund';
  const r = spawnSync(cmd, { shell: true, stdio: 'inherit', env });
  if (r.status !== 0) {
    console.error(`exrview: \`${cmd}\` failed (exit ${r.status}); fix the error above and run it again`);
    process.exit(1);
  }
}

const build = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit', env });
if (build.status !== 0) process.exit(build.status ?? 1);

// Browser tests need Chromium; install Debian's when we may (root with apt), else the e2e step says why it skips.
if (process.argv.includes('--for-test') && !existsSync('/usr/bin/chromium') && process.getuid?.() === 0 && hasApt()) {
  console.log('exrview: installing Debian chromium for the browser tests…');
  try {
    execSync('apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium', { stdio: 'inherit' });
  } catch {
    console.log('exrview: could not install chromium; browser tests will be skipped');
  }
}

function hasApt() {
  return spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
}

#!/usr/bin/env node
// `npm run dist`: builds, makes the icons, then packages the app with electron-builder for the platform it runs on
// (electron-builder.json: AppImage and deb on Linux, NSIS on Windows, dmg on macOS) into release/.
// Arguments go to electron-builder: `npm run dist -- --dir` makes the unpacked app only; `-c.electronDist=DIR` packs an
// Electron already on disk instead of downloading it. `--prebuilt` (ours) skips the build when dist/ is known fresh.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const prebuilt = args.includes('--prebuilt');
const builderArgs = args.filter((a) => a !== '--prebuilt');

if (!prebuilt) {
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], {
    stdio: 'inherit',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  if (build.status !== 0)
    fail(`the build failed (exit ${build.status}): fix the error above, then run \`npm run dist\` again`, build.status ?? 1);
}

// the icons are made by the build; made here too when the drawing changed since, and an error stops the packaging
const icons = await import('./make-icons.mjs');
if (!icons.iconsUpToDate()) {
  try {
    await icons.makeIcons();
  } catch (error) {
    fail(`could not make the icons from ${icons.ICON_SOURCE}: ${error.message}`);
  }
}

const needed = [
  'dist/electron/main.cjs',
  'dist/electron/preload.cjs',
  'dist/cli.mjs',
  'dist/decode-worker.mjs',
  'dist/renderer/index.html',
];
const missing = needed.filter((f) => !existsSync(join(root, f)));
if (missing.length) fail(`not built: ${missing.join(', ')} missing: run \`npm run build\` (or \`npm run dist\` without --prebuilt)`);
const samples = join(root, 'assets', 'samples');
if (!existsSync(samples) || !readdirSync(samples).some((n) => n.endsWith('.exr')))
  fail(`no sample images in ${samples}: run \`npm run build\`, which writes them`);

let builderCli;
try {
  builderCli = createRequire(import.meta.url).resolve('electron-builder/cli.js');
} catch {
  fail('electron-builder is not installed: run `npm install` (it is a dev dependency)');
}

// nothing is published from here: releases are uploaded by hand
const publish = builderArgs.some((a) => a === '--publish' || a === '-p' || a.startsWith('--publish=')) ? [] : ['--publish', 'never'];
const child = spawn(process.execPath, [builderCli, ...publish, ...builderArgs], { cwd: root, stdio: ['inherit', 'pipe', 'pipe'] });
// electron-builder's own output passes through; its tail is kept to explain a failed download
let tail = '';
for (const [from, to] of [
  [child.stdout, process.stdout],
  [child.stderr, process.stderr],
]) {
  from.on('data', (chunk) => {
    to.write(chunk);
    tail = (tail + chunk.toString()).slice(-8000);
  });
}
const code = await new Promise((resolve) => child.on('close', (status) => resolve(status ?? 1)));
if (code !== 0) {
  // electron-builder's downloads go through `got`: its RequestError (no connection) or HTTPError (the file is not there)
  if (/\b(RequestError|HTTPError|getaddrinfo|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT)\b/.test(tail)) {
    const version = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
    fail(
      `electron-builder could not download what it needs (see above): Electron ${version} and, for the installers, its tools ` +
        '(appimagetool, fpm, NSIS), from GitHub or the mirrors in ELECTRON_MIRROR / ELECTRON_BUILDER_BINARIES_MIRROR. Run it where ' +
        'those can be reached, or pass `-c.electronDist=DIR` with an unpacked Electron of that version (with --dir nothing else is needed).',
      code,
    );
  }
  fail(`electron-builder failed (exit ${code}): see above`, code);
}

function fail(message, code = 1) {
  console.error(`exrview dist: ${message}`);
  process.exit(code);
}

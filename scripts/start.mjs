// `npm start` (after scripts/setup.mjs has installed and built): the app on the last folder, or the samples the first time.
// Where the Electron binary is missing, says so in one line and serves browser mode instead. Stops cleanly on Ctrl-C / SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);

ensureSamples();
const electron = electronBinary();
if (electron.path) {
  runElectron(electron.path);
} else {
  console.log(`exrview: no Electron binary (${electron.why}); serving browser mode instead`);
  const cli = new URL('../dist/cli.mjs', import.meta.url);
  if (!existsSync(cli)) {
    console.error('exrview: not built yet: run `npm run build` (or `npm start`, which builds first)');
    process.exit(2);
  }
  const { main } = await import(cli.href);
  // serve prints the address and runs until SIGINT/SIGTERM, then closes the server and the decode workers
  const code = await main(['serve', ...args]);
  process.exit(code);
}

/** The samples are made by the build; make them here too if they went missing since. */
function ensureSamples() {
  const samples = `${root}/assets/samples`;
  const maker = `${root}/dist/make-samples.mjs`;
  const hasExr = existsSync(samples) && readdirSync(samples).some((n) => n.endsWith('.exr'));
  if (hasExr || !existsSync(maker)) return;
  const made = spawnSync(process.execPath, [maker, samples], { stdio: 'inherit' });
  if (made.status !== 0) console.warn('exrview: could not write the sample images (see above); starting without them');
}

/** The Electron executable, or why there is none (npm's electron package throws when its binary was not downloaded). */
function electronBinary() {
  if (process.env.EXRVIEW_NO_ELECTRON) return { path: null, why: 'EXRVIEW_NO_ELECTRON is set' };
  let path;
  try {
    path = createRequire(import.meta.url)('electron');
  } catch {
    return { path: null, why: 'the electron package has no binary: it could not be downloaded here' };
  }
  if (typeof path !== 'string' || !existsSync(path)) return { path: null, why: `${path} is missing` };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return { path: null, why: 'no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  return { path, why: '' };
}

function runElectron(binary) {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(binary, [root, ...args], { stdio: 'inherit', env });
  const forward = (signal) => () => child.kill(signal);
  process.on('SIGINT', forward('SIGINT'));
  process.on('SIGTERM', forward('SIGTERM'));
  child.on('error', (error) => {
    console.error(`exrview: could not start Electron (${error.message}); try \`npx exrview serve\` for browser mode`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

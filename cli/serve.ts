// `exrview serve [DIR] [--port N] [--tev [PORT]]`: browser mode on 127.0.0.1 until Ctrl-C; prints the address with its access token.

import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describeDecodeTier } from '../codec/index.js';
import { createHost } from '../host/host.js';
import { startServer } from '../server/server.js';
import { startTevService, type TevService } from '../host/tev/tev-service.js';
import { TEV_DEFAULT_PORT } from '../host/tev/packet.js';
import { hasExrFiles, packageRoot, rendererBuilt, rendererDir, samplesDir } from '../host/settings/app-paths.js';
import { defaultUserDataDir, loadSettings } from '../host/settings/settings-store.js';
import { FileError } from './failures.js';
import { optionsOf } from './commands.js';
import { parseArgs, UsageError } from './usage.js';

export interface ServeOptions {
  /** Resolves to stop the server (default: SIGINT or SIGTERM). */
  stopSignal?: Promise<void>;
  /** Where the line with the address goes (default stdout). */
  print?: (line: string) => void;
}

export async function runServe(argv: string[], options: ServeOptions = {}): Promise<number> {
  const { rest, tevPort } = takeTevPort(argv);
  const args = parseArgs(rest, ...optionsOf('serve'));
  if (args.positional.length > 1) throw new UsageError(`serve takes at most one DIR, got ${args.positional.length}`);
  const port = parsePort(args.flags.get('port'));
  const root = packageRoot();
  const dir = resolve(args.positional[0] ?? defaultFolder(root));
  checkFolder(dir);
  const print = options.print ?? ((line: string) => process.stdout.write(line + '\n'));
  if (!rendererBuilt(root))
    print(`exrview: the viewer page is not built (${rendererDir(root)}): run \`npm run build\`; the API is served meanwhile`);

  // listen for Ctrl-C before anything starts: a signal that comes while starting or right after the address is printed
  // must still close the server and the decode workers
  const stopped = options.stopSignal ?? untilSignal();
  // the recent OCIO configs live in the app's settings, shared with the desktop app
  const host = createHost({ userDataDir: cacheDir(), settingsDir: defaultUserDataDir(), mode: 'browser' });
  // the decode workers start and warm their codec now, while the page loads, not on the first click
  void host.startWorkers().catch(() => {});
  let server;
  let tev: TevService | null = null;
  try {
    if (tevPort !== null) tev = await startTevService({ port: tevPort });
    const live = tev ? { live: tev.images } : {};
    server = await startServer({ host, rootDir: dir, staticDir: rendererBuilt(root) ? rendererDir(root) : null, port, ...live });
  } catch (error) {
    await tev?.close();
    await host.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new Error(`port ${port} is in use: pick another with --port N, or --port 0 for any free port`);
    if (code === 'EACCES') throw new Error(`not allowed to listen on port ${port}: use a port above 1023, or --port 0`);
    throw error;
  }
  print(`exrview: serving ${dir} at ${server.url}`);
  print(`exrview: ${describeDecodeTier()}`);
  if (tev) print(`exrview: taking images over tev's protocol on 127.0.0.1:${tev.listener.port}`);

  await stopped;
  await tev?.close();
  await server.close();
  await host.close();
  return 0;
}

/** The last folder the app showed, else the samples. */
function defaultFolder(root: string): string {
  const last = loadSettings(defaultUserDataDir()).lastFolder;
  if (last && isFolder(last)) return last;
  const samples = samplesDir(root);
  if (hasExrFiles(samples)) return samples;
  throw new UsageError(
    `no folder given, none opened before, and no samples in ${samples}: run \`exrview serve DIR\` (or \`npm start\`, which makes the samples)`,
  );
}

function checkFolder(dir: string): void {
  let folder = false;
  try {
    folder = statSync(dir).isDirectory();
  } catch {
    throw new FileError(dir, 'no such folder');
  }
  if (!folder) throw new FileError(dir, 'not a folder: serve the folder that holds it');
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function parsePort(value: string | true | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || port > 65535)
    throw new UsageError(`--port must be a number from 0 to 65535 (0: any free port), got "${String(value)}"`);
  return port;
}

/** `--tev`, `--tev PORT` or `--tev=PORT` (a port is all digits, so a folder named after one must come first or as ./N). */
function takeTevPort(argv: string[]): { rest: string[]; tevPort: number | null } {
  const rest: string[] = [];
  let tevPort: number | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg !== '--tev' && !arg.startsWith('--tev=')) {
      rest.push(arg);
      continue;
    }
    const value = arg.startsWith('--tev=') ? arg.slice('--tev='.length) : /^\d+$/.test(argv[i + 1] ?? '') ? argv[++i]! : null;
    if (value === null) tevPort = TEV_DEFAULT_PORT;
    else if (/^\d+$/.test(value) && Number(value) <= 65535) tevPort = Number(value);
    else throw new UsageError(`--tev takes a port from 0 to 65535 (default ${TEV_DEFAULT_PORT}, as tev), got "${value}"`);
  }
  return { rest, tevPort };
}

/** The thumbnail cache of the command (the app keeps its own under its user data folder). */
function cacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'exrview');
}

function untilSignal(): Promise<void> {
  return new Promise((resolvePromise) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolvePromise();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

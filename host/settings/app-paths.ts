// Where the app's own files are (package root, built renderer, samples), from the sources, the bundle or a packaged app alike.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

declare const __dirname: string | undefined;

/** The folder of exrview's package.json, searched upwards from this module (host/settings, dist/ or dist/electron/). */
export function packageRoot(from: string = moduleDir()): string {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'exrview') return dir;
    } catch {
      // no package.json here: keep going up
    }
    if (dirname(dir) === dir) throw new Error(`cannot find exrview's package.json above ${from}; reinstall exrview`);
  }
}

function moduleDir(): string {
  // CommonJS bundles (Electron main) have __dirname; ES modules have import.meta.url
  return typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
}

export function rendererDir(root: string): string {
  return join(root, 'dist', 'renderer');
}

export function rendererBuilt(root: string): boolean {
  return existsSync(join(rendererDir(root), 'index.html'));
}

/** The window icon (Linux; Windows and macOS take the executable's), made by the build from assets/icon.svg; null when not made. */
export function windowIcon(root: string): string | null {
  const icon = join(root, 'assets', 'icons', '512x512.png');
  return existsSync(icon) ? icon : null;
}

/**
 * The unpacked copy of a path inside the packaged app's app.asar (electron-builder.json asarUnpack): worker threads and
 * native modules load from there. Unchanged outside app.asar.
 */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

export function samplesDir(root: string): string {
  return join(root, 'assets', 'samples');
}

export function hasExrFiles(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => /\.exr$/i.test(name));
  } catch {
    return false;
  }
}

let version: string | null = null;

/** The package's version, from its package.json; 'unknown' where that cannot be read. */
export function packageVersion(): string {
  if (version) return version;
  try {
    const parsed = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: string };
    version = parsed.version ?? 'unknown';
  } catch {
    version = 'unknown';
  }
  return version;
}

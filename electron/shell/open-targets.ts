// Paths the OS hands the app (command line, second instance, open-file): which folder to open and which file to select.

import { statSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';

export interface OpenTarget {
  folder: string;
  /** The file to select, when an .exr file was opened. */
  fileName?: string;
}

/** The first argument that names an existing folder or .exr file (Chromium's own --switches and the app path skipped). */
export function targetFromArgv(argv: readonly string[], cwd: string): OpenTarget | null {
  for (const arg of argv) {
    if (arg.startsWith('-')) continue;
    const target = targetFromPath(isAbsolute(arg) ? arg : resolve(cwd, arg));
    if (target) return target;
  }
  return null;
}

export function targetFromPath(path: string): OpenTarget | null {
  try {
    const info = statSync(path);
    if (info.isDirectory()) return { folder: path };
    if (info.isFile() && /\.exr$/i.test(path)) return { folder: dirname(path), fileName: basename(path) };
  } catch {
    // not there: not a target
  }
  return null;
}

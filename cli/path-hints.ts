// A path where something else belongs (a folder for FILE, a folder or EXR file for the command): what to run instead.

import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError } from './usage.js';

/** The argument as it can be pasted back into a shell: bare when it is plain, else in single quotes. */
export function shellArg(arg: string): string {
  return /^[\w./:@%+=,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The folder's first .exr file by name, to name in the suggestion; null when it has none or cannot be listed. */
function firstExrIn(folder: string): string | null {
  try {
    const names = readdirSync(folder)
      .filter((name) => /\.exr$/i.test(name))
      .sort();
    return names.length ? join(folder, names[0]!) : null;
  } catch {
    return null;
  }
}

/** What to run for a folder: view it, or make its thumbnails. */
function forFolder(folder: string, lead: string): string {
  return `${lead} \`exrview serve ${shellArg(folder)}\` (\`exrview thumbs ${shellArg(folder)} --out OUT\` for thumbnails)`;
}

/** `exrview info shots/`: a usage error saying to name one of its files, or to use a command that takes a folder. */
export function folderGivenForFile(path: string, command: 'info' | 'stats' | 'matte'): UsageError | null {
  if (!isFolder(path)) return null;
  const example = firstExrIn(path);
  const forFile = example
    ? `run \`exrview ${command} ${shellArg(example)}\` on one of its files`
    : `it holds no .exr files; run \`exrview ${command} FILE\` on an EXR file`;
  return new UsageError(`${path}: is a folder, not an EXR file; ${forFile}, or ${forFolder(path, 'to view the folder run')}`);
}

/** `exrview shots/` or `exrview a.exr`: the commands that take it, or null when the word is no folder or EXR file. */
export function pathGivenForCommand(arg: string): UsageError | null {
  if (isFolder(arg)) return new UsageError(`${arg}: is a folder, not a command; ${forFolder(arg, 'to view it run')}`);
  if (!/\.exr$/i.test(arg)) return null;
  const file = shellArg(arg);
  return new UsageError(
    `${arg}: is an EXR file, not a command; run \`exrview info ${file}\` for its header, \`exrview stats ${file}\` for its values, ` +
      `or \`exrview serve ${shellArg(dirname(arg))}\` to view its folder`,
  );
}

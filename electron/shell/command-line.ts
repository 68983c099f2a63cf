// Whether the app was started as the `exrview` command (`exrview info FILE`, `--help`, `--version`) rather than to show images.

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { COMMAND_NAMES, HELP_FLAGS, VERSION_FLAGS } from '../../cli/commands.js';
import { nearest } from '../../cli/suggest.js';

/**
 * The command's arguments when the app's arguments (after the executable) name a command or ask for help or the
 * version; else null, and the viewer opens. Chromium switches before the command (`--no-sandbox`) are left out.
 * An existing folder or file opens in the viewer even when named like a command (`exrview ./info` always does); a word
 * that is neither a path nor a command but near one (`exrview stat x.exr`) goes to the command line, which suggests it.
 */
export function commandArgs(args: readonly string[], cwd: string, exists: (path: string) => boolean = existsSync): string[] | null {
  const first = args.findIndex((arg) => !arg.startsWith('-') || HELP_FLAGS.includes(arg) || VERSION_FLAGS.includes(arg));
  if (first < 0) return null;
  const arg = args[first]!;
  if (HELP_FLAGS.includes(arg) || VERSION_FLAGS.includes(arg)) return args.slice(first);
  if (/[\\/]/.test(arg) || exists(resolve(cwd, arg))) return null;
  return (COMMAND_NAMES as readonly string[]).includes(arg) || nearest(arg, COMMAND_NAMES) !== null ? args.slice(first) : null;
}

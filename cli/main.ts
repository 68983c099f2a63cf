// The `exrview` command: dispatches to each subcommand, maps failures to exit codes and one-line messages.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { statsJson, fileStatsOf } from '../codec/index.js';
import { packageRoot } from '../host/settings/app-paths.js';
import { HELP_FLAGS, isCommandName, optionsOf, VERSION_FLAGS } from './commands.js';
import { describeFailure, FileError } from './failures.js';
import { describeFile, incompleteText } from './info.js';
import { folderGivenForFile, pathGivenForCommand } from './path-hints.js';
import { statsText } from './stats-text.js';
import { commandHelp, overallHelp, parseArgs, unknownCommand, usageHint, UsageError } from './usage.js';

/** `exrview stats` on a file still being written (or cut short): the statistics of the chunks there, printed. */
export const EXIT_INCOMPLETE = 3;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined) {
      process.stderr.write(overallHelp(packageVersion()) + '\n');
      return 2;
    }
    if (HELP_FLAGS.includes(command)) return print(overallHelp(packageVersion()));
    if (VERSION_FLAGS.includes(command)) return print(`exrview ${packageVersion()}`);
    if (!isCommandName(command)) throw pathGivenForCommand(command) ?? unknownCommand(command);
    // `exrview thumbs --help`, whatever else is on the line
    if (rest.some((arg) => HELP_FLAGS.includes(arg))) return print(commandHelp(command));
    switch (command) {
      case 'help': {
        if (rest.length > 1) throw new UsageError(`help takes one COMMAND, not ${rest.length}`);
        if (rest[0] === undefined) return print(overallHelp(packageVersion()));
        if (!isCommandName(rest[0])) throw unknownCommand(rest[0]);
        return print(commandHelp(rest[0]));
      }
      case 'info': {
        const args = parseArgs(rest, ...optionsOf('info'));
        const file = onePath(args.positional, 'info', 'FILE');
        notAFolder(file, 'info');
        process.stdout.write(withFile(file, () => describeFile(file, args.flags.has('json'))));
        return 0;
      }
      case 'stats': {
        const args = parseArgs(rest, ...optionsOf('stats'));
        const file = onePath(args.positional, 'stats', 'FILE');
        notAFolder(file, 'stats');
        const expression = args.flags.get('expr');
        if (typeof expression === 'string') {
          const { runStatsExpression } = await import('./stats-expression.js');
          return runStatsExpression(file, expression, args.flags.has('json'));
        }
        const stats = withFile(file, () => fileStatsOf(file));
        process.stdout.write(args.flags.has('json') ? statsJson(stats) + '\n' : statsText(file, stats));
        if (!stats.incomplete) return 0;
        // the statistics are printed, of the chunks there: a script that wants the whole file waits and runs again
        process.stderr.write(`exrview: ${file}: incomplete: ${incompleteText(stats.incomplete)}; the statistics are of the chunks there\n`);
        return EXIT_INCOMPLETE;
      }
      case 'bench': {
        const args = parseArgs(rest, ...optionsOf('bench'));
        const dir = onePath(args.positional, 'bench', 'DIR');
        const runs = Number(args.flags.get('runs') ?? 1);
        if (!Number.isInteger(runs) || runs < 1 || runs > 100)
          throw new UsageError(`--runs must be a whole number from 1 to 100, not "${args.flags.get('runs')}"`);
        const thumbnailPx = Number(args.flags.get('size') ?? 256);
        if (!Number.isInteger(thumbnailPx) || thumbnailPx < 1 || thumbnailPx > 8192)
          throw new UsageError(`--size must be a whole number of pixels from 1 to 8192, not "${args.flags.get('size')}"`);
        const { runBench } = await import('./bench.js');
        return await runBench(dir, { json: args.flags.has('json'), runs, warmup: !args.flags.has('no-warmup'), thumbnailPx });
      }
      case 'thumbs': {
        const { runThumbs } = await import('./thumbs.js');
        return await runThumbs(rest);
      }
      case 'matte': {
        const { runMatte } = await import('./matte.js');
        return await runMatte(rest);
      }
      case 'serve': {
        const { runServe } = await import('./serve.js');
        return await runServe(rest);
      }
      case 'ocio': {
        const { runOcio } = await import('./ocio.js');
        return await runOcio(rest);
      }
    }
  } catch (error) {
    return reportError(error, command);
  }
}

/** Bad usage: the message on one line, then the command's usage and where its help is; exit 2. Else exit 1. */
export function reportError(error: unknown, command?: string): number {
  if (error instanceof UsageError) {
    process.stderr.write(`exrview: ${error.message}\n${usageHint(command)}\n`);
    return 2;
  }
  if (error instanceof FileError) {
    process.stderr.write(`exrview: ${error.file}: ${error.reason}\n`);
    return 1;
  }
  process.stderr.write(`exrview: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}

function print(text: string): number {
  process.stdout.write(text + '\n');
  return 0;
}

/** The version in exrview's package.json (beside the sources, the bundle or inside the packaged app). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

function onePath(positional: string[], command: string, what: string): string {
  if (positional.length !== 1)
    throw new UsageError(
      `${command} takes one ${what}, got ${positional.length === 0 ? 'none' : `${positional.length}: ${positional.join(' ')}`}`,
    );
  return positional[0]!;
}

/** A folder where a FILE belongs is bad usage (exit 2), said with the commands that fit, not the system's EISDIR. */
function notAFolder(path: string, command: 'info' | 'stats'): void {
  const error = folderGivenForFile(path, command);
  if (error) throw error;
}

/** Runs `fn`, turning any codec or I/O failure into a FileError naming the file. */
export function withFile<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw new FileError(file, describeFailure(error));
  }
}

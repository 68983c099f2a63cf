// The `exrview` command: dispatches to each subcommand, maps failures to exit codes and one-line messages.

import { ExrError } from '../exr/index.js';
import { statsJson } from '../exr/stats.js';
import { fileStatsOf } from '../exr/file-stats.js';
import { describeFile } from './info.js';
import { parseArgs, USAGE, UsageError } from './usage.js';

/** A failure tied to one file: printed as `exrview: FILE: reason`, exit 1. */
export class FileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'info': {
        const args = parseArgs(rest, [], ['json']);
        const file = onePath(args.positional, 'info FILE');
        process.stdout.write(withFile(file, () => describeFile(file, args.flags.has('json'))));
        return 0;
      }
      case 'stats': {
        const args = parseArgs(rest, [], ['json']);
        const file = onePath(args.positional, 'stats FILE --json');
        const stats = withFile(file, () => fileStatsOf(file));
        process.stdout.write(statsJson(stats) + '\n');
        return 0;
      }
      case 'bench': {
        const args = parseArgs(rest, ['runs', 'size'], ['json', 'no-warmup']);
        const dir = onePath(args.positional, 'bench DIR [--json] [--runs N] [--no-warmup] [--size 256]');
        const runs = Number(args.flags.get('runs') ?? 1);
        if (!Number.isInteger(runs) || runs < 1 || runs > 100) throw new UsageError(`--runs must be a whole number from 1 to 100, not "${args.flags.get('runs')}"`);
        const thumbnailPx = Number(args.flags.get('size') ?? 256);
        if (!Number.isInteger(thumbnailPx) || thumbnailPx < 1 || thumbnailPx > 8192) throw new UsageError(`--size must be a whole number of pixels from 1 to 8192, not "${args.flags.get('size')}"`);
        const { runBench } = await import('./bench.js');
        return await runBench(dir, { json: args.flags.has('json'), runs, warmup: !args.flags.has('no-warmup'), thumbnailPx });
      }
      case 'thumbs': {
        const { runThumbs } = await import('./thumbs.js');
        return await runThumbs(rest);
      }
      case 'serve': {
        const { runServe } = await import('./serve.js');
        return await runServe(rest);
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE + '\n');
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    return reportError(error);
  }
}

export function reportError(error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`exrview: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (error instanceof FileError) {
    process.stderr.write(`exrview: ${error.file}: ${error.reason}\n`);
    return 1;
  }
  process.stderr.write(`exrview: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}

function onePath(positional: string[], usage: string): string {
  if (positional.length !== 1) throw new UsageError(`expected: exrview ${usage}`);
  return positional[0]!;
}

/** Runs `fn`, turning any codec or I/O failure into a FileError naming the file. */
export function withFile<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw new FileError(file, describeFailure(error));
  }
}

export function describeFailure(error: unknown): string {
  if (error instanceof ExrError) return error.message;
  if (error instanceof RangeError && /allocat|Array buffer/i.test(error.message)) return `not enough memory to decode (${error.message})`;
  if (error instanceof Error) return error.message;
  return String(error);
}

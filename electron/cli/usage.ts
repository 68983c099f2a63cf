// Command-line errors and usage text: exit 2 for bad usage, 1 for a file that could not be read.

export class UsageError extends Error {}

export const USAGE = `usage: exrview <command> [options]

commands:
  info FILE [--json]            the header of every part, every attribute
  stats FILE --json             decode every non-deep part, per-channel statistics
  thumbs DIR --out DIR [--size 256] [--format png|jpg] [--exposure EV] [--tonemap NAME] [--gpu auto|on|off]
                                one thumbnail per EXR, with a timing summary
  bench DIR [--json] [--runs N] [--no-warmup] [--size 256]
                                decode and thumbnail timings, per stage
  serve [DIR] [--port N]        the viewer in a browser, on 127.0.0.1

exit codes: 0 success, 1 a file could not be read or decoded, 2 bad usage`;

export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string | true>;
}

/** --name value / --name=value / --flag; `known` lists flags that take a value. */
export function parseArgs(argv: string[], withValue: readonly string[], bare: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    if (withValue.includes(name)) {
      const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else if (bare.includes(name) && eq < 0) {
      flags.set(name, true);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return { positional, flags };
}

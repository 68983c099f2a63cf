// Command-line parsing and help: usage errors (exit 2) with the nearest option suggested, the overview and each command's help.

import { COMMAND_NAMES, COMMANDS, isCommandName, type CommandName, type OptionSpec } from './commands.js';
import { nearest } from './suggest.js';

/** Bad usage: printed as one line with the command's usage under it, exit 2. */
export class UsageError extends Error {}

/** The overview: every command with its one-line summary. */
export function overallHelp(version: string): string {
  const lines = [`exrview ${version}: a viewer for folders of OpenEXR images`, '', 'usage: exrview <command> [options]', '', 'commands:'];
  for (const name of COMMAND_NAMES) lines.push(...twoColumns(COMMANDS[name].synopsis, COMMANDS[name].summary, 2, 30));
  lines.push(
    '',
    "Run `exrview help COMMAND` (or `exrview COMMAND --help`) for a command's options and examples,",
    '`exrview --version` for the version.',
    'exit codes: 0 success, 1 a file could not be read or decoded, 2 bad usage,',
    '3 stats of a file still being written (or cut short): its statistics are of the chunks there',
  );
  return lines.join('\n');
}

/** A command's help: usage, what it does, every option (with the values it takes), examples. */
export function commandHelp(name: CommandName): string {
  const spec = COMMANDS[name];
  const details: readonly string[] = spec.details;
  const lines = [usageLine(name), '', ...(details.length ? details : [`${spec.summary[0]!.toUpperCase()}${spec.summary.slice(1)}.`])];
  const options: readonly OptionSpec[] = spec.options;
  lines.push('', 'options:');
  for (const option of options) {
    lines.push(...twoColumns(`--${option.name}${option.value ? ` ${option.value}` : ''}`, option.help, 2, 22));
    for (const [value, help] of Object.entries(option.choices ?? {})) lines.push(...twoColumns(value, help, 24, 14));
  }
  lines.push(...twoColumns('-h, --help', 'this help', 2, 22));
  lines.push('', 'examples:', ...spec.examples.map((e) => `  ${e}`));
  return lines.join('\n');
}

export function usageLine(name: CommandName): string {
  return `usage: exrview ${COMMANDS[name].synopsis}`;
}

/** What follows a usage error's message: the command's usage and where its help is, or the overview's pointer. */
export function usageHint(command: string | undefined): string {
  if (command !== undefined && isCommandName(command) && command !== 'help')
    return `${usageLine(command)}\nrun \`exrview help ${command}\` for the options`;
  return 'usage: exrview <command> [options]\nrun `exrview help` for the commands';
}

/** `exrview frobnicate`: the message, with the nearest command when one is close. */
export function unknownCommand(command: string): UsageError {
  const near = nearest(command, COMMAND_NAMES);
  return new UsageError(`unknown command "${command}"${near ? `: did you mean "${near}"?` : ` (commands: ${COMMAND_NAMES.join(', ')})`}`);
}

export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string | true>;
}

/** --name value / --name=value / --flag; `withValue` lists the options that take a value, `bare` the flags. */
export function parseArgs(argv: string[], withValue: readonly string[], bare: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (/^-[A-Za-z]/.test(arg)) throw unknownOption(arg, arg.slice(1), [...withValue, ...bare]);
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
    } else if (bare.includes(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value (give it as --${name} alone)`);
      flags.set(name, true);
    } else {
      throw unknownOption(`--${name}`, name, [...withValue, ...bare]);
    }
  }
  return { positional, flags };
}

function unknownOption(arg: string, typed: string, known: string[]): UsageError {
  if (known.length === 0) return new UsageError(`unknown option ${arg}: this command takes no options`);
  // one letter (-o) can only be matched by its first letter: the shortest option starting with it (-o: --out, not --ocio)
  const near = typed.length === 1 ? shortestOne(known.filter((k) => k.startsWith(typed))) : nearest(typed, known);
  if (near) return new UsageError(`unknown option ${arg}: did you mean --${near}?`);
  return new UsageError(`unknown option ${arg} (options: ${known.map((k) => `--${k}`).join(', ')})`);
}

/** The one shortest name, or null when there is none or two share the shortest length. */
function shortestOne(names: string[]): string | null {
  const shortest = Math.min(...names.map((n) => n.length));
  const those = names.filter((n) => n.length === shortest);
  return those.length === 1 ? those[0]! : null;
}

/** `left` padded to `width` then `right`; `left` on its own line when it does not fit. */
function twoColumns(left: string, right: string, indent: number, width: number): string[] {
  const pad = ' '.repeat(indent);
  if (left.length < width - 1) return [`${pad}${left.padEnd(width)}${right}`];
  return [`${pad}${left}`, `${pad}${' '.repeat(width)}${right}`];
}

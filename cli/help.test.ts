// The command's help from outside: --help, help COMMAND, COMMAND --help, --version, and usage errors that suggest the nearest name.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DISPLAY_TRANSFORMS } from '../shaders/display-params.js';
import { COMMAND_NAMES, COMMANDS, TONE_MAP_HELP } from './commands.js';

const root = join(__dirname, '..');
const bin = join(root, 'bin', 'exrview.mjs');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

function exrview(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const noStackTrace = (text: string) => expect(text).not.toMatch(/\n\s+at /);

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'cli.mjs'))) throw new Error('dist/cli.mjs is missing: run `node scripts/build.mjs` (npm test does)');
});

describe('exrview help', () => {
  it('--help, -h and help print the overview of every command on stdout, exit 0', () => {
    const overview = exrview('--help');
    expect(overview.code).toBe(0);
    expect(overview.stderr).toBe('');
    expect(overview.stdout).toContain(`exrview ${version}`);
    expect(overview.stdout).toContain('usage: exrview <command> [options]');
    for (const name of COMMAND_NAMES) expect(overview.stdout).toContain(`  ${COMMANDS[name].synopsis}`);
    expect(overview.stdout).toContain('exrview help COMMAND');
    expect(overview.stdout).toContain(
      'exit codes: 0 success, 1 a file could not be read or decoded, 2 bad usage,\n' +
        '3 stats of a file still being written (or cut short): its statistics are of the chunks there',
    );
    expect(exrview('-h').stdout).toBe(overview.stdout);
    expect(exrview('help').stdout).toBe(overview.stdout);
  });

  it('no command: the overview on stderr, exit 2', () => {
    const r = exrview();
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('usage: exrview <command> [options]');
  });

  it('--version prints the version in package.json', () => {
    for (const flag of ['--version', '-V']) {
      const r = exrview(flag);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`exrview ${version}\n`);
    }
  });

  it('help COMMAND and COMMAND --help print the same help: usage, every option, examples', () => {
    for (const name of COMMAND_NAMES) {
      const help = exrview('help', name);
      expect(help.code, name).toBe(0);
      expect(help.stdout.split('\n')[0]).toBe(`usage: exrview ${COMMANDS[name].synopsis}`);
      for (const option of COMMANDS[name].options)
        expect(help.stdout, `${name} --${option.name}`).toMatch(new RegExp(`^  --${option.name}\\b`, 'm'));
      expect(help.stdout).toContain('-h, --help');
      expect(help.stdout).toContain('examples:');
      for (const example of COMMANDS[name].examples) expect(help.stdout).toContain(`  ${example}\n`);
      expect(exrview(name, '--help').stdout, name).toBe(help.stdout);
    }
    // --help wins over whatever else is on the line, even arguments that would be wrong
    expect(exrview('thumbs', 'x', '--nonsense', '-h').stdout).toBe(exrview('help', 'thumbs').stdout);
  }, 120_000);

  it('thumbs --help lists every --tonemap name with what it does', () => {
    expect(Object.keys(TONE_MAP_HELP).sort()).toEqual([...DISPLAY_TRANSFORMS].sort());
    const help = exrview('thumbs', '--help').stdout;
    for (const name of DISPLAY_TRANSFORMS)
      expect(help).toMatch(new RegExp(`^ {24}${name} +${TONE_MAP_HELP[name].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  });
});

describe('usage errors', () => {
  it('an unknown option: one line suggesting the nearest, the usage of the command, exit 2', () => {
    const r = exrview('thumbs', 'in', '--out', 'out', '--tonemp', 'agx');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('exrview: unknown option --tonemp: did you mean --tonemap?');
    expect(lines[1]).toBe(`usage: exrview ${COMMANDS.thumbs.synopsis}`);
    expect(lines[2]).toBe('run `exrview help thumbs` for the options');
    expect(lines).toHaveLength(3);
    noStackTrace(r.stderr);
  });

  it('suggests for single-dash options, and lists the options when nothing is near', () => {
    expect(exrview('info', '-j', 'x.exr').stderr).toMatch(/^exrview: unknown option -j: did you mean --json\?\n/);
    expect(exrview('bench', '.', '--runz', '3').stderr).toMatch(/^exrview: unknown option --runz: did you mean --runs\?\n/);
    const far = exrview('serve', '--verbose');
    expect(far.code).toBe(2);
    expect(far.stderr).toMatch(/^exrview: unknown option --verbose \(options: --port, --tev\)\n/);
  });

  it('an unknown command suggests the nearest, or lists them', () => {
    const near = exrview('stat', 'x.exr', '--json');
    expect(near.code).toBe(2);
    expect(near.stderr).toMatch(/^exrview: unknown command "stat": did you mean "stats"\?\nusage: exrview <command> \[options\]\n/);
    const far = exrview('help', 'frobnicate');
    expect(far.code).toBe(2);
    expect(far.stderr).toMatch(new RegExp(`^exrview: unknown command "frobnicate" \\(commands: ${COMMAND_NAMES.join(', ')}\\)\\n`));
    noStackTrace(near.stderr + far.stderr);
  });

  it('a flag given a value, a missing value, a wrong count: one line each, exit 2', () => {
    const cases: [string[], string][] = [
      [['stats', 'x.exr', '--json=yes'], 'exrview: --json takes no value (give it as --json alone)'],
      [['thumbs', 'in', '--out'], 'exrview: --out needs a value'],
      [['info'], 'exrview: info takes one FILE, got none'],
      [['stats', 'a.exr', 'b.exr'], 'exrview: stats takes one FILE, got 2: a.exr b.exr'],
      [['help', 'info', 'stats'], 'exrview: help takes one COMMAND, not 2'],
    ];
    for (const [args, first] of cases) {
      const r = exrview(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0], args.join(' ')).toBe(first);
      noStackTrace(r.stderr);
    }
  });
});

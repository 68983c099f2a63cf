// The argument parser: values, flags, and the usage errors it raises.
import { describe, expect, it } from 'vitest';
import { optionsOf } from './commands.js';
import { parseArgs, UsageError } from './usage.js';

describe('parseArgs', () => {
  it('reads --name value, --name=value, flags and positionals in any order', () => {
    const args = parseArgs(['shots', '--size', '512', '--tonemap=agx', '--exposure', '-1.5', '--out', 'thumbs'], ...optionsOf('thumbs'));
    expect(args.positional).toEqual(['shots']);
    expect(Object.fromEntries(args.flags)).toEqual({ size: '512', tonemap: 'agx', exposure: '-1.5', out: 'thumbs' });
    const bench = parseArgs(['--json', 'dir', '--no-warmup'], ...optionsOf('bench'));
    expect(bench.positional).toEqual(['dir']);
    expect(Object.fromEntries(bench.flags)).toEqual({ json: true, 'no-warmup': true });
  });

  it('takes exactly the options each command documents', () => {
    expect(optionsOf('thumbs')).toEqual([
      ['out', 'size', 'format', 'exposure', 'tonemap', 'gpu', 'ocio', 'display', 'view', 'look', 'colorspace'],
      [],
    ]);
    expect(optionsOf('bench')).toEqual([
      ['runs', 'size'],
      ['json', 'no-warmup'],
    ]);
    expect(optionsOf('info')).toEqual([[], ['json']]);
    expect(optionsOf('stats')).toEqual([['expr'], ['json']]);
    expect(optionsOf('serve')).toEqual([['port'], ['tev']]);
  });

  it('raises UsageError with a suggestion for an unknown option', () => {
    expect(() => parseArgs(['--tonemp', 'agx'], ...optionsOf('thumbs'))).toThrow(
      new UsageError('unknown option --tonemp: did you mean --tonemap?'),
    );
    expect(() => parseArgs(['-o', 'x'], ...optionsOf('thumbs'))).toThrow(new UsageError('unknown option -o: did you mean --out?'));
    expect(() => parseArgs(['--json'], [], [])).toThrow(new UsageError('unknown option --json: this command takes no options'));
    expect(() => parseArgs(['--size'], ...optionsOf('thumbs'))).toThrow(new UsageError('--size needs a value'));
  });
});

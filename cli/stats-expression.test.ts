// `exrview stats --expr`: the CPU reference's values measured per part, the caret under a bad expression, exit codes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExrReader, floatToHalf, memorySource, writeExr, writeExrFile, type WritePart } from '../codec/index.js';
import { writeChunkByChunk } from '../testing/codec/incomplete.js';
import { expressionErrorText } from './expression-caret.js';
import { expressionStats, expressionStatsText, ExpressionUsageError } from './stats-expression.js';

const root = join(__dirname, '..');
const bin = join(root, 'bin', 'exrview.mjs');

const float = (values: number[]) => ({ pixelType: 'float' as const, data: Float32Array.from(values) });
const half = (values: number[]) => ({ pixelType: 'half' as const, data: Uint16Array.from(values, floatToHalf) });

/** 4 x 1 pixels: R (half), G, B with a NaN and an Inf, and a diffuse layer. */
const BEAUTY: WritePart = {
  name: 'beauty',
  compression: 'zip',
  dataWindow: { xMin: 10, yMin: 5, xMax: 13, yMax: 5 },
  channels: [
    { name: 'B', ...float([3, 0, NaN, 3e38]) },
    { name: 'G', ...float([1.5, -2, 0, 3e38]) },
    { name: 'R', ...half([0.5, 2, 1, 1]) },
    { name: 'diffuse.B', ...float([1, 2, 3, 4]) },
    { name: 'diffuse.G', ...float([0, 0, 0, 0]) },
    { name: 'diffuse.R', ...float([-1, -2, -3, -4]) },
  ],
};
const DEPTH: WritePart = {
  name: 'depth',
  compression: 'none',
  dataWindow: { xMin: 0, yMin: 0, xMax: 1, yMax: 0 },
  channels: [{ name: 'Z', ...float([4, 9]) }],
};

const open = (parts: WritePart[]) => ExrReader.open(memorySource(writeExr(parts)));

function exrview(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('exrview stats --expr', () => {
  it("measures a scalar expression's float32 result per pixel: finite values, NaN and Inf apart", () => {
    const stats = expressionStats(open([BEAUTY]), '(R + G + B) / 3');
    expect(stats.skipped).toEqual([]);
    expect(stats.parts).toHaveLength(1);
    const [part] = stats.parts;
    expect(part!.dataWindow).toEqual([10, 5, 13, 5]);
    // pixels: (0.5+1.5+3)/3, (2-2+0)/3, NaN, (1+3e38+3e38) overflows float32 to +Inf; statistics print 9 digits
    const f = Math.fround;
    const first = f(f(f(0.5 + 1.5) + 3) / 3);
    const nine = (v: number) => Number(v.toPrecision(9));
    expect(part!.channels).toEqual([
      {
        name: 'value',
        pixelType: 'float',
        xSampling: 1,
        ySampling: 1,
        min: 0,
        max: nine(first),
        mean: nine(first / 2),
        nanCount: 1,
        infCount: 1,
      },
    ]);
  });

  it('an RGB result gives rows R, G, B; a part it does not fit is listed with why', () => {
    const stats = expressionStats(open([DEPTH, BEAUTY]), 'diffuse * 2');
    expect(stats.parts.map((p) => p.part)).toEqual([1]);
    expect(stats.skipped).toEqual([{ part: 0, reason: expect.stringContaining('no channel or layer named diffuse') as string }]);
    expect(stats.parts[0]!.channels.map((c) => [c.name, c.min, c.max, c.mean])).toEqual([
      ['R', -8, -2, -5],
      ['G', 0, 0, 0],
      ['B', 2, 8, 5],
    ]);
    const text = expressionStatsText('shot.exr', stats);
    expect(text.split('\n').slice(0, 7)).toEqual([
      'shot.exr: expression diffuse * 2',
      '',
      'part 1 "beauty": 4 x 1 pixels',
      '  result  min  max  mean  NaN  Inf',
      '  R        -8   -2    -5    0    0',
      '  G         0    0     0    0    0',
      '  B         2    8     5    0    0',
    ]);
    expect(text).toContain('\npart 0: not evaluated: no channel or layer named diffuse');
  });

  it('an expression that fits no part throws its error with the place, shown under a caret', () => {
    const reader = open([BEAUTY]);
    let error: unknown;
    try {
      expressionStats(reader, '(R + specular) / 2');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ExpressionUsageError);
    const caret = (error as ExpressionUsageError).caretText().split('\n');
    expect(caret[0]).toMatch(/^the expression does not fit the file: no channel or layer named specular/);
    expect(caret.slice(1)).toEqual(['  (R + specular) / 2', '       ^^^^^^^^']);
    // a syntax error: the caret where the parser stopped
    expect(() => expressionStats(reader, 'R + * G')).toThrow(ExpressionUsageError);
  });

  it('the caret: at the end for a missing operand, control characters as spaces, a long expression cut around the place', () => {
    expect(expressionErrorText('m', 'R +', 3, 3)).toBe('m\n  R +\n     ^');
    expect(expressionErrorText('m', 'R\t+\nX', 4, 5)).toBe('m\n  R + X\n      ^');
    const long = `${'R + '.repeat(50)}nope + ${'G + '.repeat(50)}B`;
    const at = long.indexOf('nope');
    const [, line, caret] = expressionErrorText('m', long, at, at + 4).split('\n');
    expect(line!.startsWith('  …') && line!.endsWith('…')).toBe(true);
    expect(line!.length).toBeLessThan(80);
    expect(line!.slice(caret!.indexOf('^'), caret!.lastIndexOf('^') + 1)).toBe('nope');
  });

  it('from the command line: text, JSON, exit 2 with the caret for a bad expression, exit 3 for a file still being written', () => {
    if (!existsSync(join(root, 'dist', 'cli.mjs')))
      throw new Error('dist/cli.mjs is missing: run `node scripts/build.mjs` (npm test does)');
    const dir = mkdtempSync(join(tmpdir(), 'exrview-expr-'));
    const file = join(dir, 'beauty.exr');
    writeExrFile(file, [BEAUTY]);
    const text = exrview('stats', file, '--expr', 'luminance(diffuse)');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(`${file}: expression luminance(diffuse)`);
    const json = exrview('stats', file, '--json', '--expr=max(R, G)');
    expect(json.code, json.stderr).toBe(0);
    const parsed = JSON.parse(json.stdout) as { expression: string; parts: { channels: object[] }[] };
    expect(parsed.expression).toBe('max(R, G)');
    expect(parsed.parts[0]!.channels[0]).toMatchObject({
      name: 'value',
      min: 1,
      max: Number(Math.fround(3e38).toPrecision(9)),
      nanCount: 0,
      infCount: 0,
    });
    const bad = exrview('stats', file, '--expr', 'clamp(R, 0)');
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(
      /^exrview: .*beauty\.exr: the expression does not fit the file: clamp takes 3 arguments, not 2.*\n {2}clamp\(R, 0\)\n {2}\^{11}\n$/,
    );
    expect(bad.stderr).not.toMatch(/\n\s+at /);

    const h = 16 * 8;
    const rendering = writeChunkByChunk([
      {
        compression: 'zip',
        dataWindow: { xMin: 0, yMin: 0, xMax: 3, yMax: h - 1 },
        channels: [{ name: 'Y', pixelType: 'float', data: Float32Array.from({ length: 4 * h }, (_, i) => Math.floor(i / 4)) }],
      },
    ]);
    const partial = join(dir, 'rendering.exr');
    writeFileSync(partial, rendering.after(3, 0));
    const incomplete = exrview('stats', partial, '--json', '--expr', 'Y * 2');
    expect(incomplete.code, incomplete.stderr).toBe(3);
    const partialStats = JSON.parse(incomplete.stdout) as { incomplete: object; parts: { channels: object[] }[] };
    expect(partialStats.incomplete).toEqual({ chunksPresent: 3, chunksTotal: 8 });
    // lines 0 to 47 of the three chunks there, doubled; the rest left out
    expect(partialStats.parts[0]!.channels[0]).toMatchObject({ name: 'value', min: 0, max: 94, mean: 47 });
  });
});

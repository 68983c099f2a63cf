// The command from outside: exit codes, one-line errors without stack traces, the stats JSON shape.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeExrFile } from '../codec/writer.js';

const root = join(__dirname, '..');
const bin = join(root, 'bin', 'exrview.mjs');
const corpus = join(root, '..', 'shared', 'corpus', 'openexr-images');

function exrview(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'cli.mjs'))) throw new Error('dist/cli.mjs is missing: run `node scripts/build.mjs` (npm test does)');
});

describe('exrview command', () => {
  it('exits 2 with usage for no command, an unknown command, or a wrong argument count', () => {
    for (const args of [[], ['frobnicate'], ['stats'], ['stats', 'a.exr', 'b.exr'], ['info', '--nope', 'x.exr']]) {
      const r = exrview(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr + r.stdout).toMatch(/usage: exrview/);
    }
  });

  it('exits 1 with `exrview: FILE: reason` and no stack trace for a missing file', () => {
    const r = exrview('stats', '/nonexistent/x.exr', '--json');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^exrview: \/nonexistent\/x\.exr: cannot open: .+\n$/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 1 for a file that is not an EXR, naming the reason', () => {
    const dir = mkdtempSync(join(tmpdir(), 'exrview-cli-'));
    const file = join(dir, 'not.exr');
    writeFileSync(file, 'hello, this is not an image');
    const r = exrview('stats', file, '--json');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`exrview: ${file}: not an OpenEXR file (wrong magic number)\n`);
    const info = exrview('info', file);
    expect(info.code).toBe(1);
  });

  it.skipIf(!existsSync(corpus))('prints stats in exactly the DESIGN.md shape', () => {
    const r = exrview('stats', join(corpus, 'Beachball', 'multipart.0001.exr'), '--json');
    expect(r.code).toBe(0);
    const stats = JSON.parse(r.stdout);
    expect(Object.keys(stats)).toEqual(['parts']);
    for (const part of stats.parts) {
      expect(Object.keys(part)).toEqual(['name', 'type', 'compression', 'dataWindow', 'displayWindow', 'channels']);
      for (const ch of part.channels) {
        expect(Object.keys(ch)).toEqual(['name', 'pixelType', 'xSampling', 'ySampling', 'min', 'max', 'mean', 'nanCount', 'infCount']);
      }
    }
  });

  it.skipIf(!existsSync(corpus))('shows every attribute of every part like exrheader', () => {
    const r = exrview('info', join(corpus, 'Beachball', 'multipart.0001.exr'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('file format version: 2, flags 0x1000');
    expect(r.stdout).toContain(' part 0:');
    // exrheader 3.4 names a compression by its short name and OpenEXR's description
    expect(r.stdout).toContain('compression (type compression): zips: zlib compression, one scan line at a time.');
    expect(r.stdout).toContain('dataWindow (type box2i): (654 245) - (1530 1120)');
    const json = JSON.parse(exrview('info', join(corpus, 'Beachball', 'multipart.0001.exr'), '--json').stdout);
    expect(json.multipart).toBe(true);
    expect(json.parts.length).toBeGreaterThan(1);
  });

  it.skipIf(!existsSync(corpus))('bench prints its JSON summary on the last line', () => {
    const r = exrview('bench', join(corpus, 'Chromaticities'), '--json');
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(summary.files).toBe(4);
    expect(summary.pixels).toBeGreaterThan(0);
    expect(summary.decode.wallMs).toBeGreaterThan(0);
    expect(summary.decode.mpxPerS).toBeGreaterThan(0);
    for (const stage of ['readMs', 'decompressMs', 'unpackMs']) expect(summary.stages[stage]).toBeGreaterThanOrEqual(0);
    // the thumbnails of the same files, timed the same way
    expect(summary.thumbnails.longSidePx).toBe(256);
    expect(Object.values(summary.thumbnails.sources as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(4);
    expect(summary.thumbnails.wallMs).toBeGreaterThan(0);
    // overDecode is the ratio of the unrounded times; the printed times are rounded to 0.1 ms, which on a few
    // milliseconds moves their ratio by more than a percent, so it is checked against the bounds that rounding allows
    const [thumbMs, decodeMs] = [summary.thumbnails.wallMs, summary.decode.wallMs];
    expect(summary.thumbnails.overDecode).toBeGreaterThanOrEqual((thumbMs - 0.05) / (decodeMs + 0.05) - 0.0005);
    expect(summary.thumbnails.overDecode).toBeLessThanOrEqual((thumbMs + 0.05) / (decodeMs - 0.05) + 0.0005);
    for (const stage of ['readMs', 'decompressMs', 'resizeMs']) expect(summary.thumbnails.stages[stage]).toBeGreaterThanOrEqual(0);
  });

  it('bench marks each pass on standard output with EXRVIEW_BENCH_PASS_MARKS=1, among V8\'s trace, and jit-trace-summary reads them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'exrview-cli-'));
    const count = 64 * 48;
    const data = Uint16Array.from({ length: count }, (_, i) => 0x3c00 + (i % 512));
    for (const compression of ['zip', 'piz'] as const) {
      writeExrFile(join(dir, `${compression}.exr`), [{ compression, dataWindow: { xMin: 0, yMin: 0, xMax: 63, yMax: 47 }, channels: ['B', 'G', 'R'].map((name) => ({ name, pixelType: 'half' as const, data })) }]);
    }
    const r = spawnSync(process.execPath, ['--trace-opt', '--trace-deopt', bin, 'bench', dir, '--json', '--runs', '2'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, EXRVIEW_BENCH_PASS_MARKS: '1' },
    });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    const marks = lines.filter((l) => l.startsWith('exrview-bench-pass '));
    const passes = ['warm-up-jobs', 'untimed-decode', 'untimed-thumbnails', 'decode-1', 'thumbnails-1', 'decode-2', 'thumbnails-2'];
    expect(marks).toEqual(passes.flatMap((p) => [`exrview-bench-pass start ${p}`, `exrview-bench-pass end ${p}`]));
    expect(JSON.parse(lines.at(-1)!).runs).toBe(2);
    // V8 compiled something in this run, and said so on the same stream
    expect(lines.some((l) => l.includes('completed compiling'))).toBe(true);
    const traceFile = join(dir, 'trace.txt');
    writeFileSync(traceFile, r.stdout);
    const s = spawnSync(process.execPath, [join(root, 'bench', 'jit-trace-summary.mjs'), traceFile], { encoding: 'utf8' });
    expect(s.status, s.stderr).toBe(0);
    const summary = JSON.parse(s.stdout.trim().split('\n').pop()!) as { passes: { pass: string; compiles: number; compileMs: number }[] };
    const seen = summary.passes.map((p) => p.pass);
    expect(seen[0]).toBe('start-and-warm-up');
    for (const p of seen.slice(1)) expect([...passes, ...passes.map((q) => `after-${q}`)]).toContain(p);
    const total = summary.passes.reduce((sum, p) => sum + p.compiles, 0);
    expect(total).toBe(lines.filter((l) => /completed compiling .*took [0-9.]+, [0-9.]+, [0-9.]+ ms/.test(l)).length);
    for (const p of summary.passes) expect(p.compileMs).toBeGreaterThanOrEqual(0);
  });

  it('bench refuses a size or run count it cannot use, with exit code 2', () => {
    expect(exrview('bench', '.', '--size', '0').code).toBe(2);
    expect(exrview('bench', '.', '--runs', 'x').stderr).toContain('--runs must be a whole number');
  });
});

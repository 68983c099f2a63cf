// The command from outside: exit codes, one-line errors without stack traces, the stats table and JSON shape, paths out of place.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ExrReader, memorySource, writeExrFile } from '../codec/index.js';
import { writeChunkByChunk } from '../testing/codec/incomplete.js';

const root = join(__dirname, '..');
const bin = join(root, 'bin', 'exrview.mjs');
const corpus = join(root, '..', 'shared', 'corpus', 'openexr-images');
const references = join(root, '..', 'shared', 'corpus', 'reference');

function exrview(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** 4 x 2 pixels: a half channel, finite values from 0 to 1e7, NaN and ±Inf among finite ones, and only NaN. */
function writeStatsFile(path: string): void {
  const float = (values: number[]) => ({ pixelType: 'float' as const, data: Float32Array.from(values) });
  writeExrFile(path, [
    {
      compression: 'zip',
      dataWindow: { xMin: 0, yMin: 0, xMax: 3, yMax: 1 },
      channels: [
        { name: 'A', pixelType: 'half', data: new Uint16Array(8).fill(0x3c00) },
        { name: 'B', ...float([0, 0.25, 0.5, 1, 2, 4, 8, 1e7]) },
        { name: 'G', ...float([NaN, 1, 2, 3, NaN, Infinity, -Infinity, 6]) },
        { name: 'R', ...float(new Array<number>(8).fill(NaN)) },
      ],
    },
  ]);
}

/** A folder of two readable EXR files, one cut short and one that is not an EXR file. */
function writeMixedFolder(dir: string, good = ['a.exr', 'b.exr']): void {
  mkdirSync(dir, { recursive: true });
  for (const name of good) writeStatsFile(join(dir, name));
  const whole = readFileSync(join(dir, good[0]!));
  writeFileSync(join(dir, 'cut.exr'), whole.subarray(0, whole.length >> 1));
  writeFileSync(join(dir, 'text.exr'), 'hello, this is not an image');
}

/** Where chunk `chunk` of a one-part scanline file starts (its offset table entry). */
function chunkStart(bytes: Uint8Array, chunk: number): number {
  return ExrReader.open(memorySource(bytes)).offsets[0]![chunk]!;
}

const noStackTrace = (text: string) => expect(text).not.toMatch(/\n\s+at /);

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
    noStackTrace(r.stderr);
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

  it('stats without --json prints each part and an aligned table of its channels', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'exrview-cli-')), 'stats.exr');
    writeStatsFile(file);
    const r = exrview('stats', file);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      [
        `${file}: 1 part, 4 channels`,
        '',
        'part 0: scanlineimage, zip compression',
        '  data window (0, 0) - (3, 1), 4 x 2 pixels; display window (0, 0) - (3, 1)',
        '  channel  type    min   max     mean  NaN  Inf',
        '  A        half      1     1        1    0    0',
        '  B        float     0  1e+7  1.25e+6    0    0',
        '  G        float     1     6        3    2    2',
        '  R        float  none  none     none    8    0',
        '',
        'min, max and mean are over finite values ("none" when there are none); NaN and Inf are counted apart.',
        '',
      ].join('\n'),
    );
  });

  it('stats --json prints one line of JSON in the DESIGN.md shape, numbers as %.9g', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'exrview-cli-')), 'stats.exr');
    writeStatsFile(file);
    const r = exrview('stats', file, '--json');
    expect(r.code, r.stderr).toBe(0);
    const channel = (name: string, pixelType: string, rest: string) =>
      `{"name":"${name}","pixelType":"${pixelType}","xSampling":1,"ySampling":1,${rest}}`;
    expect(r.stdout).toBe(
      '{"parts":[{"name":"","type":"scanlineimage","compression":"zip","dataWindow":[0,0,3,1],"displayWindow":[0,0,3,1],"channels":[' +
        [
          channel('A', 'half', '"min":1,"max":1,"mean":1,"nanCount":0,"infCount":0'),
          channel('B', 'float', '"min":0,"max":10000000,"mean":1250001.97,"nanCount":0,"infCount":0'),
          channel('G', 'float', '"min":1,"max":6,"mean":3,"nanCount":2,"infCount":2'),
          channel('R', 'float', '"min":null,"max":null,"mean":null,"nanCount":8,"infCount":0'),
        ].join(',') +
        ']}]}\n',
    );
  });

  it.skipIf(!existsSync(references))('stats --json prints byte for byte what shared/corpus/reference holds', () => {
    // multi-part, scan lines, tiles, subsampled luma/chroma
    for (const name of ['Beachball/multipart.0001', 'ScanLines/Desk', 'Tiles/GoldenGate', 'LuminanceChroma/Garden']) {
      const want = join(references, `${name}.json`);
      const r = exrview('stats', join(corpus, `${name}.exr`), '--json');
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      expect(r.stdout.trim(), name).toBe(readFileSync(want, 'utf8').trim());
    }
  });

  it('info and stats on a folder: exit 2, naming one of its files and the commands that take a folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'exrview-cli-'));
    writeMixedFolder(dir);
    for (const command of ['info', 'stats']) {
      const r = exrview(command, dir);
      expect(r.code, command).toBe(2);
      expect(r.stdout).toBe('');
      const [message, usage] = r.stderr.split('\n');
      expect(message).toBe(
        `exrview: ${dir}: is a folder, not an EXR file; run \`exrview ${command} ${join(dir, 'a.exr')}\` on one of its files, ` +
          `or to view the folder run \`exrview serve ${dir}\` (\`exrview thumbs ${dir} --out OUT\` for thumbnails)`,
      );
      expect(usage).toMatch(new RegExp(`^usage: exrview ${command} FILE`));
      expect(r.stderr).not.toContain('EISDIR');
    }
    const empty = mkdtempSync(join(tmpdir(), 'exrview-cli-'));
    const noExr = exrview('info', empty);
    expect(noExr.code).toBe(2);
    expect(noExr.stderr).toContain(
      `${empty}: is a folder, not an EXR file; it holds no .exr files; run \`exrview info FILE\` on an EXR file, or `,
    );
  });

  it('info or stats on a missing, a cut-short or a non-EXR file: exit 1, one line naming the file and the reason', () => {
    const dir = mkdtempSync(join(tmpdir(), 'exrview-cli-'));
    writeMixedFolder(dir);
    const cases: [string, RegExp][] = [
      [join(dir, 'missing.exr'), /cannot open: no such file or directory/],
      [join(dir, 'text.exr'), /not an OpenEXR file \(wrong magic number\)/],
    ];
    for (const [file, reason] of cases) {
      const r = exrview('info', file);
      expect(r.code, file).toBe(1);
      const [message, ...rest] = r.stderr.split('\n');
      expect(message).toMatch(new RegExp(`^exrview: ${file.replace(/[.]/g, '\\.')}: ${reason.source}`));
      expect(rest).toEqual(['']);
    }
    const cut = exrview('stats', join(dir, 'cut.exr'));
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(new RegExp(`^exrview: ${join(dir, 'cut.exr').replace(/[.]/g, '\\.')}: [^\n]+\n$`));
  });

  it('info and stats on a file still being written: N of M chunks; stats of the chunks there, "incomplete" in JSON, exit 3', () => {
    const dir = mkdtempSync(join(tmpdir(), 'exrview-cli-'));
    const h = 56 * 16 + 11; // 57 chunks of 16 lines (ZIP), as a renderer leaves it after 34 of them
    const file = writeChunkByChunk([
      {
        compression: 'zip',
        dataWindow: { xMin: 0, yMin: 0, xMax: 7, yMax: h - 1 },
        channels: [{ name: 'Y', pixelType: 'float', data: Float32Array.from({ length: 8 * h }, (_, i) => Math.floor(i / 8)) }],
      },
    ]);
    const path = join(dir, 'rendering.exr');
    writeFileSync(path, file.after(34, 20));
    const info = exrview('info', path);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toContain(
      '\nincomplete: 34 of 57 chunks (its offset tables are not filled yet: still being written, or cut short)\n',
    );
    const infoJson = JSON.parse(exrview('info', path, '--json').stdout);
    expect(infoJson.incomplete).toEqual({ chunksPresent: 34, chunksTotal: 57 });
    const message =
      `exrview: ${path}: incomplete: 34 of 57 chunks (its offset tables are not filled yet: still being written, or cut short); ` +
      'the statistics are of the chunks there\n';
    const stats = exrview('stats', path, '--json');
    expect(stats.code).toBe(3);
    expect(stats.stderr).toBe(message);
    const json = JSON.parse(stats.stdout);
    expect(json.incomplete).toEqual({ chunksPresent: 34, chunksTotal: 57 });
    // the lines of 34 chunks: 0 to 543, one value a line
    expect(json.parts[0].channels[0]).toMatchObject({ name: 'Y', min: 0, max: 543, mean: 271.5, nanCount: 0, infCount: 0 });
    const text = exrview('stats', path);
    expect(text.code).toBe(3);
    expect(text.stdout.split('\n')[0]).toBe(`${path}: 1 part, 1 channel; incomplete: 34 of 57 chunks, the statistics are of those`);
    expect(text.stderr).toBe(message);
    // closed: whole, exit 0, nothing said
    writeFileSync(path, file.complete);
    const closed = exrview('stats', path, '--json');
    expect(closed.code).toBe(0);
    expect(closed.stderr).toBe('');
    expect(Object.keys(JSON.parse(closed.stdout))).toEqual(['parts']);
    expect(exrview('info', path).stdout).not.toContain('incomplete');
  });

  it('a folder or an EXR file where the command belongs: exit 2, with the commands that take it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'exrview-cli-'));
    writeMixedFolder(dir);
    const folder = exrview(dir);
    expect(folder.code).toBe(2);
    expect(folder.stderr.split('\n')[0]).toBe(
      `exrview: ${dir}: is a folder, not a command; to view it run \`exrview serve ${dir}\` ` +
        `(\`exrview thumbs ${dir} --out OUT\` for thumbnails)`,
    );
    expect(folder.stderr).not.toContain('unknown command');
    const file = join(dir, 'a.exr');
    const exr = exrview(file);
    expect(exr.code).toBe(2);
    expect(exr.stderr.split('\n')[0]).toBe(
      `exrview: ${file}: is an EXR file, not a command; run \`exrview info ${file}\` for its header, ` +
        `\`exrview stats ${file}\` for its values, or \`exrview serve ${dir}\` to view its folder`,
    );
    // a path with a space is quoted so that the suggestion can be pasted back
    const spaced = join(dir, 'my shots');
    mkdirSync(spaced);
    expect(exrview(spaced).stderr).toContain(`run \`exrview serve '${spaced}'\``);
    // a word that is neither still gets the nearest command
    expect(exrview('stat').stderr).toContain('unknown command "stat": did you mean "stats"?');
  });

  it('thumbs with files that cannot be read: says how many were written and how many failed, exit 1', () => {
    const base = mkdtempSync(join(tmpdir(), 'exrview-cli-'));
    const thumbs = (dir: string) => {
      const r = spawnSync(process.execPath, [bin, 'thumbs', dir, '--out', join(base, 'out'), '--size', '16', '--gpu', 'off'], {
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, EXRVIEW_CACHE_DIR: join(base, 'cache') },
      });
      noStackTrace(r.stderr);
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    writeMixedFolder(join(base, 'two'));
    const two = thumbs(join(base, 'two'));
    expect(two.code).toBe(1);
    expect(two.stdout).toMatch(/^wrote 2 thumbnails in [\d.]+ ms /);
    const lines = two.stderr.trimEnd().split('\n');
    expect(lines.slice(0, -1).sort()).toEqual([
      `exrview: ${join(base, 'two', 'cut.exr')}: the file is incomplete (still being written?)`,
      `exrview: ${join(base, 'two', 'text.exr')}: not an OpenEXR file (wrong magic number)`,
    ]);
    expect(lines.at(-1)).toBe('exrview: wrote 2 thumbnails; 2 files could not be read (listed above)');
    writeMixedFolder(join(base, 'one'), ['a.exr']);
    rmSync(join(base, 'one', 'text.exr'));
    const one = thumbs(join(base, 'one'));
    expect(one.code).toBe(1);
    expect(one.stdout).toMatch(/^wrote 1 thumbnail in /);
    expect(one.stderr.trimEnd().split('\n').at(-1)).toBe('exrview: wrote 1 thumbnail; 1 file could not be read (listed above)');
  });

  it('thumbs with a file cut short long ago: its thumbnail written from the readable chunks, reported as with damage, exit 0', () => {
    const base = mkdtempSync(join(tmpdir(), 'exrview-cli-'));
    const dir = join(base, 'cut');
    mkdirSync(dir);
    writeStatsFile(join(dir, 'a.exr'));
    // 7 chunks of 16 lines; cut inside chunk 4, and last changed a minute ago: cut short, not being written
    const plane = Float32Array.from({ length: 32 * 100 }, (_, i) => (i % 32) / 32);
    writeExrFile(join(dir, 'whole.tmp'), [
      {
        compression: 'zip',
        dataWindow: { xMin: 0, yMin: 0, xMax: 31, yMax: 99 },
        channels: [{ name: 'Y', pixelType: 'float', data: plane }],
      },
    ]);
    const whole = readFileSync(join(dir, 'whole.tmp'));
    rmSync(join(dir, 'whole.tmp'));
    const cutAt = chunkStart(whole, 4) + 10;
    writeFileSync(join(dir, 'cut.exr'), whole.subarray(0, cutAt));
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'cut.exr'), minuteAgo, minuteAgo);
    const r = spawnSync(process.execPath, [bin, 'thumbs', dir, '--out', join(base, 'out'), '--size', '16', '--gpu', 'off'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, EXRVIEW_CACHE_DIR: join(base, 'cache') },
    });
    noStackTrace(r.stderr);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^wrote 2 thumbnails in [\d.]+ ms /);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `^exrview: ${join(dir, 'cut.exr')}: written with damage: 3 of 7 chunks could not be read ` +
          `and are hatched in the thumbnail \\(part 0, chunk 4: `,
      ),
    );
    expect(lines.at(-1)).toBe('exrview: wrote 2 thumbnails, 1 with damage (the chunks that could not be read hatched; listed above)');
    expect(existsSync(join(base, 'out', 'cut.png'))).toBe(true);
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

  it("bench marks each pass on standard output with EXRVIEW_BENCH_PASS_MARKS=1, among V8's trace, and jit-trace-summary reads them", () => {
    const dir = mkdtempSync(join(tmpdir(), 'exrview-cli-'));
    const count = 64 * 48;
    const data = Uint16Array.from({ length: count }, (_, i) => 0x3c00 + (i % 512));
    for (const compression of ['zip', 'piz'] as const) {
      writeExrFile(join(dir, `${compression}.exr`), [
        {
          compression,
          dataWindow: { xMin: 0, yMin: 0, xMax: 63, yMax: 47 },
          channels: ['B', 'G', 'R'].map((name) => ({ name, pixelType: 'half' as const, data })),
        },
      ]);
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

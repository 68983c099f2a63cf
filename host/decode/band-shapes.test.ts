// A band's decode runs the code its worker compiled in its warm-up: what a band brings (boxes structured-cloned from the
// main thread, names from the header handoff, arrays built for it) never reaches the hot loops in a shape the warm-up
// did not give them (the unpack reads its plan as numbers; the names arrive interned), so V8 does not throw that code
// away at the first real band or thumbnail ("wrong map"), once per worker. Watched from outside, in a real
// `exrview bench` with V8's deopt trace, without the native kernels: the TypeScript unpack is then the hot loop. And the
// reader's per-chunk loop is compiled in the warm-up (its tall image), not in the middle of a cold run's first bands.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, writeRgb } from '../../testing/host/test-files.js';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'exrview.mjs');
const dir = tempDir('exrview-band-shapes-');
afterAll(() => dir.remove());

describe('band decode after the warm-up', () => {
  it('never deoptimises the unpack and binning loops a worker compiled while warming up', () => {
    for (const name of ['a', 'b', 'c', 'd'])
      writeRgb(join(dir.path, `${name}.exr`), 512, 256, (x, y) => [x / 512, y / 256, 0.5], { compression: 'zip' });
    const r = spawnSync(process.execPath, ['--trace-opt', '--trace-deopt', bin, 'bench', dir.path, '--json'], {
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 256 << 20,
      env: { ...process.env, EXRVIEW_BENCH_PASS_MARKS: '1', EXRVIEW_NATIVE: '0' },
    });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const firstPass = lines.findIndex((l) => l.startsWith('exrview-bench-pass start'));
    expect(firstPass).toBeGreaterThanOrEqual(0);
    // the warm-up compiled it (else there is nothing to keep, and this test says nothing)
    expect(lines.slice(0, firstPass).some((l) => /completed compiling .*<JSFunction unpackBlockTs /.test(l))).toBe(true);
    // what a shape or number representation the warm-up did not see throws away (a branch the warm-up never took, V8's
    // "insufficient type feedback", is another matter)
    const mismatch =
      /bailout \(kind: [^,]+, reason: (wrong map|wrong instance type|lost precision)\).*<JSFunction (unpackBlock|unpackBlockTs|binWholeLines) /;
    const thrownAway = lines.slice(firstPass).filter((l) => mismatch.test(l));
    expect(thrownAway).toEqual([]);
  });

  it("compiles the reader's chunk loop in the warm-up, not in a worker's first bands", () => {
    // a cold run (no untimed pass), with the kernels as they load: the first pass is what a fresh process gets, and a
    // compile in it is one on the worker's own thread (worker-process.ts), a stall in the middle of a band
    const r = spawnSync(process.execPath, ['--trace-opt', '--trace-deopt', bin, 'bench', dir.path, '--json', '--no-warmup'], {
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 256 << 20,
      env: { ...process.env, EXRVIEW_BENCH_PASS_MARKS: '1' },
    });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const firstPass = lines.findIndex((l) => l.startsWith('exrview-bench-pass start decode-1'));
    expect(firstPass).toBeGreaterThanOrEqual(0);
    const compiled = /completed compiling .*<JSFunction forEachChunk /;
    expect(lines.slice(0, firstPass).some((l) => compiled.test(l))).toBe(true);
    expect(lines.slice(firstPass).filter((l) => compiled.test(l))).toEqual([]);
    // nor thrown away before it by the first real bands (warm-up-jobs.ts' own, here; a `thumbs` run's first thumbnails)
    // for a source or signal of another shape than the warm-up's: the timed pass would then run it unoptimised
    expect(lines.filter((l) => /bailout \(kind: [^,]+, reason: wrong map\).*<JSFunction forEachChunk /.test(l))).toEqual([]);
  });
});

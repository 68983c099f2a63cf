// Each decode worker gives up V8's ArrayBufferDetaching protector as it starts, not at its first transferred thumbnail
// (which threw away the codec it had compiled): watched from outside, in a real `exrview bench` with V8's own trace.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, writeRgb } from '../../testing/host/test-files.js';
import { detachOnce } from './detach-protector.js';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'exrview.mjs');
const dir = tempDir('exrview-detach-');
afterAll(() => dir.remove());

const INVALIDATION = 'Invalidating protector cell ArrayBufferDetaching';

describe('detachOnce', () => {
  it('detaches a buffer the first time on a thread and does nothing after', () => {
    // vitest's own thread may have detached buffers already; detachOnce only promises its own detach, once
    const first = detachOnce();
    expect(detachOnce()).toBe(false);
    expect(typeof first).toBe('boolean');
  });

  it('moves every worker past the protector before any job, so no thumbnail later throws compiled code away', () => {
    for (const name of ['a', 'b', 'c'])
      writeRgb(join(dir.path, `${name}.exr`), 96, 64, (x, y) => [x / 96, y / 64, 0.5], { compression: 'zip' });
    const r = spawnSync(process.execPath, ['--trace-protector-invalidation', bin, 'bench', dir.path, '--json'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, EXRVIEW_BENCH_PASS_MARKS: '1' },
    });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const workers = (JSON.parse(lines.filter((l) => l.startsWith('{')).at(-1)!) as { workers: number }).workers;
    const firstPass = lines.findIndex((l) => l.startsWith('exrview-bench-pass start'));
    expect(firstPass).toBeGreaterThanOrEqual(0);
    const before = lines.slice(0, firstPass).filter((l) => l.includes(INVALIDATION)).length;
    const after = lines.slice(firstPass).filter((l) => l.includes(INVALIDATION)).length;
    // one per worker as it started (the main thread may add its own, which is not what this is about)
    expect(before).toBeGreaterThanOrEqual(workers);
    // and none while jobs ran: warm-up jobs, the untimed pass and the timed one all transfer thumbnails
    expect(after).toBe(0);
  });
});

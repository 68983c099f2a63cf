// The decode pool with real workers on real files: results, transfer, priority, cancellation, a worker that dies.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExrError } from '../../exr/index.js';
import { DecodePool } from './pool.js';

const root = join(__dirname, '..', '..', '..');
const corpus = join(root, '..', 'shared', 'corpus', 'openexr-images');
const hasCorpus = existsSync(corpus);
const file = (name: string) => join(corpus, name);

let pool: DecodePool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'decode-worker.mjs'))) throw new Error('dist/decode-worker.mjs is missing: run `node scripts/build.mjs` (npm test does)');
});

describe.skipIf(!hasCorpus)('DecodePool', () => {
  it('decodes in a worker and hands planes over as transferred buffers with stage timings', async () => {
    pool = new DecodePool({ workers: 2 });
    const { result, timings } = await pool.run('decode', { path: file('ScanLines/Desk.exr') }).promise;
    expect(result.widthPx * result.heightPx).toBeGreaterThan(0);
    expect(result.channels.map((c) => c.name)).toEqual(['A', 'B', 'G', 'R']);
    for (const c of result.channels) {
      expect(c.data.buffer).toBeInstanceOf(ArrayBuffer);
      expect(c.data.length).toBe(c.widthSamples * c.heightSamples);
    }
    expect(result.timings.decompressMs).toBeGreaterThan(0);
    expect(result.timings.bytesRead).toBeGreaterThan(0);
    expect(timings.workerMs).toBeGreaterThan(0);
    expect(timings.totalMs).toBeGreaterThanOrEqual(timings.workerMs);
  });

  it('runs lower priority numbers first', async () => {
    pool = new DecodePool({ workers: 1 });
    const order: string[] = [];
    const track = (name: string, priority: number) =>
      pool!.run('decode', { path: file('TestImages/GammaChart.exr') }, priority).promise.then(() => order.push(name));
    const blocker = track('first', 5); // takes the only worker
    const low = track('low', 9);
    const high = track('high', 1);
    const mid = track('mid', 4);
    await Promise.all([blocker, low, high, mid]);
    expect(order).toEqual(['first', 'high', 'mid', 'low']);
  });

  it('cancels queued and running jobs with an aborted error, and keeps working', async () => {
    pool = new DecodePool({ workers: 1 });
    const running = pool.run('decode', { path: file('ScanLines/Tree.exr') });
    const queued = pool.run('decode', { path: file('ScanLines/Desk.exr') });
    queued.cancel();
    running.cancel();
    await expect(queued.promise).rejects.toMatchObject({ kind: 'aborted' });
    await expect(running.promise).rejects.toBeInstanceOf(ExrError);
    const after = await pool.run('decode', { path: file('TestImages/GammaChart.exr') }).promise;
    expect(after.result.channels.length).toBe(3);
  });

  it('reports a damaged file as a typed error naming part and chunk', async () => {
    pool = new DecodePool({ workers: 1 });
    const damaged = join(corpus, 'Damaged', 'asan_heap-oob_7f09128c0ec1_358_ecaca7fb3f230d9d842074e1dd88f29b_exr');
    await expect(pool.run('decode', { path: damaged }).promise).rejects.toBeInstanceOf(ExrError);
  });

  it('replaces a worker that dies, retries its job once, and keeps working', async () => {
    pool = new DecodePool({ workers: 1 });
    const job = pool.run('decode', { path: file('ScanLines/Desk.exr') });
    // kill the worker while it holds the job
    await new Promise((r) => setTimeout(r, 5));
    await pool.workerThreads[0]!.terminate();
    const { result } = await job.promise;
    expect(result.channels.length).toBe(4);
    expect(pool.restarts).toBe(1);
  });
});

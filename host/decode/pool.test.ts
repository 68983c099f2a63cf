// The decode pool with real workers on real files: jobs of many tasks, priority between them, cancellation, a worker that dies.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DISPLAY } from '../../shaders/display-params.js';
import { nativeKernels } from '../../codec/compression/native.js';
import { ExrError } from '../../codec/index.js';
import { tempDir } from '../../testing/host/test-files.js';
import { readHeaderParts } from '../headers/summary.js';
import { decodeLevel } from './image-decode.js';
import { levelLayout } from './layout.js';
import { DecodePool } from './pool.js';
import type { TaskTypes, WorkerPool } from '../worker/tasks.js';
import { PoolTrace, type PoolTraceFile } from './pool-trace.js';

const root = join(__dirname, '..', '..');
const corpus = join(root, '..', 'shared', 'corpus', 'openexr-images');
const hasCorpus = existsSync(corpus);
const file = (name: string) => join(corpus, name);

let pool: WorkerPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'decode-worker.mjs')))
    throw new Error('dist/decode-worker.mjs is missing: run `node scripts/build.mjs` (npm test does)');
});

async function decodeFile(path: string, priority = 0) {
  const parts = await readHeaderParts(path);
  return decodeLevel(pool!, { path, layout: levelLayout(parts[0]!, 0, 0, null), channels: null, priority });
}

describe.skipIf(!hasCorpus)('DecodePool', () => {
  it('runs a level as bands on every worker, into shared planes, with stage timings', async () => {
    pool = new DecodePool<TaskTypes>({ workers: 2 });
    const { result, timings } = await (await decodeFile(file('ScanLines/Desk.exr'))).promise;
    const image = result.image;
    expect(image.widthPx * image.heightPx).toBeGreaterThan(0);
    expect(image.channels.map((c) => c.name)).toEqual(['A', 'B', 'G', 'R']);
    for (const c of image.channels) {
      expect(c.data.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(c.data.length).toBe(c.widthSamples * c.heightSamples);
    }
    expect(timings.tasks).toBeGreaterThan(1);
    expect(image.timings.decompressMs).toBeGreaterThan(0);
    expect(image.timings.bytesRead).toBeGreaterThan(0);
    expect(timings.workerMs).toBeGreaterThan(0);
  });

  it('starts every worker on request, each loaded and answering', async () => {
    pool = new DecodePool<TaskTypes>({ workers: 3 });
    expect(pool.workerThreads).toHaveLength(0);
    await pool.start();
    expect(pool.workerThreads).toHaveLength(3);
    expect(pool.running).toBe(0);
  });

  it('runs lower priority numbers first', async () => {
    pool = new DecodePool<TaskTypes>({ workers: 1 });
    const order: string[] = [];
    const track = (name: string, priority: number) =>
      pool!.run('thumbnail', { path: file('TestImages/GammaChart.exr'), longSidePx: 32 }, priority).promise.then(() => order.push(name));
    const blocker = track('first', 5); // takes the only worker
    const low = track('low', 9);
    const high = track('high', 1);
    const mid = track('mid', 4);
    await Promise.all([blocker, low, high, mid]);
    expect(order).toEqual(['first', 'high', 'mid', 'low']);
  });

  it('starts no background task while the foreground job runs, when asked to (backgroundFrom)', async () => {
    if (!hasCorpus) return;
    const run = async (backgroundFrom: number | undefined) => {
      pool = new DecodePool<TaskTypes>({ workers: 2, tasksPerWorker: 1, ...(backgroundFrom === undefined ? {} : { backgroundFrom }) });
      await pool.start();
      const order: string[] = [];
      // the picked image takes one worker; the other is idle when a prefetch-like job arrives
      const picked = pool
        .run('thumbnail', { path: file('ScanLines/Tree.exr'), longSidePx: 256 }, 0)
        .promise.then(() => order.push('picked'));
      const background = pool.run('ping', null, 2).promise.then(() => order.push('background'));
      await Promise.all([picked, background]);
      await pool.close();
      pool = null;
      return order;
    };
    expect(await run(undefined)).toEqual(['background', 'picked']);
    expect(await run(2)).toEqual(['picked', 'background']);
  });

  it('gives a more urgent job the next free worker, ahead of the bands left of a running one', async () => {
    pool = new DecodePool<TaskTypes>({ workers: 1 });
    const order: string[] = [];
    const big = (await decodeFile(file('ScanLines/Tree.exr'), 3)).promise.then(() => order.push('big'));
    // the big level is many bands; once it has started, a preview-priority job arrives
    await new Promise((r) => setTimeout(r, 5));
    const urgent = pool
      .run('thumbnail', { path: file('TestImages/GammaChart.exr'), longSidePx: 16 }, 0)
      .promise.then(() => order.push('urgent'));
    await Promise.all([big, urgent]);
    expect(order).toEqual(['urgent', 'big']);
  });

  it('cancels queued and running jobs with an aborted error, and keeps working', async () => {
    pool = new DecodePool<TaskTypes>({ workers: 1 });
    const running = await decodeFile(file('ScanLines/Tree.exr'));
    const queued = await decodeFile(file('ScanLines/Desk.exr'));
    queued.cancel();
    running.cancel();
    await expect(queued.promise).rejects.toMatchObject({ kind: 'aborted' });
    await expect(running.promise).rejects.toBeInstanceOf(ExrError);
    const after = await (await decodeFile(file('TestImages/GammaChart.exr'))).promise;
    expect(after.result.image.channels.length).toBe(3);
    expect(pool.pending).toBe(0);
  });

  it('reports a damaged file as a typed error naming part and chunk', async () => {
    pool = new DecodePool<TaskTypes>({ workers: 1 });
    const damaged = join(corpus, 'Damaged', 'asan_heap-oob_7f09128c0ec1_358_ecaca7fb3f230d9d842074e1dd88f29b_exr');
    await expect(pool.run('thumbnail', { path: damaged, longSidePx: 16 }).promise).rejects.toBeInstanceOf(ExrError);
  });

  it.skipIf(!nativeKernels)('close() lets a task that has started end, so what it writes is whole; it still ends the jobs', async () => {
    const out = tempDir('exrview-pool-close-');
    try {
      pool = new DecodePool<TaskTypes>({ workers: 1 });
      await pool.start();
      // a tone-map task with a PNG to write: tens of milliseconds or more, and it does not stop at an abort flag
      const widthPx = 2048,
        heightPx = 2048;
      const rgbaHalf = new Uint16Array(widthPx * heightPx * 4).map((_, i) => 0x3000 + (i % 4096)).buffer;
      const pngPath = join(out.path, 'big.png');
      const args = { rgbaHalf, widthPx, heightPx, view: { ...DEFAULT_DISPLAY, nanInf: false }, memo: null, png: true, pngPath };
      const job = pool.submit('toneMap', args);
      const settled = job.promise.then(
        () => 'done',
        (error: unknown) => (error instanceof ExrError ? error.kind : 'other'),
      );
      // closed once the worker has begun it (a fixed wait lost the race on a loaded machine: the task was then
      // recalled unstarted, and nothing was written)
      for (const t0 = performance.now(); pool.startedTasks === 0;) {
        if (performance.now() - t0 > 20_000) throw new Error('the tone-map task did not start within 20 s');
        await new Promise((r) => setTimeout(r, 1));
      }
      await pool.close();
      pool = null;
      expect(await settled).toBe('aborted');
      expect(readdirSync(out.path)).toEqual(['big.png']);
      const info = await sharp(pngPath).metadata();
      expect([info.width, info.height]).toEqual([widthPx, heightPx]);
    } finally {
      out.remove();
    }
  });

  it('replaces a worker that dies, retries its task once, and keeps working', async () => {
    pool = new DecodePool<TaskTypes>({ workers: 1 });
    const job = await decodeFile(file('ScanLines/Desk.exr'));
    // kill the worker while it holds a band
    await new Promise((r) => setTimeout(r, 5));
    await pool.workerThreads[0]!.terminate();
    const { result } = await job.promise;
    expect(result.image.channels.length).toBe(4);
    expect(pool.restarts).toBe(1);
  });
});

describe('DecodePool trace', () => {
  it('records each task with its worker and times, and writes them once the pool closes', async () => {
    const temp = tempDir('exrview-pool-trace-');
    const dir = temp.path;
    pool = new DecodePool<TaskTypes>({ workers: 2, trace: new PoolTrace(join(dir, 'run')) });
    await Promise.all(Array.from({ length: 6 }, () => pool!.run('ping', null).promise));
    await pool.close();
    pool = null;
    const files = readdirSync(dir);
    expect(files).toEqual([`run.${process.pid}.json`]);
    const trace = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')) as PoolTraceFile;
    temp.remove();
    expect(trace.workers).toBe(2);
    expect(trace.tasks).toHaveLength(6);
    for (const task of trace.tasks) {
      expect(task).toMatchObject({ kind: 'ping', file: null, ok: true, timings: null });
      expect([0, 1]).toContain(task.worker);
      expect(task.postedAtMs).toBeLessThanOrEqual(task.startedAtMs + 1);
      expect(task.startedAtMs).toBeLessThanOrEqual(task.endedAtMs);
      expect(task.endedAtMs).toBeLessThanOrEqual(task.answeredAtMs + 1);
    }
  });

  it('names the file a band read and keeps its stage timings', async () => {
    if (!hasCorpus) return;
    const temp = tempDir('exrview-pool-trace-');
    const dir = temp.path;
    pool = new DecodePool<TaskTypes>({ workers: 2, trace: new PoolTrace(join(dir, 'run')) });
    await (
      await decodeFile(file('ScanLines/Desk.exr'))
    ).promise;
    await pool.close();
    pool = null;
    const trace = JSON.parse(readFileSync(join(dir, readdirSync(dir)[0]!), 'utf8')) as PoolTraceFile;
    temp.remove();
    expect(trace.tasks.length).toBeGreaterThan(0);
    for (const task of trace.tasks) {
      expect(task.file).toBe('Desk.exr');
      expect(task.timings?.decompressMs).toBeGreaterThanOrEqual(0);
    }
  });
});

// The pool's workers each hold their next task: a more urgent job takes a held task's place, an idle worker takes a
// task another one holds, a worker that dies gives its held task back unspent. Real workers, generated files.

import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { tempDir, writeRgb } from '../../testing/host/test-files.js';
import { DecodePool } from './pool.js';
import type { TaskTypes, WorkerPool } from '../worker/tasks.js';

let dir: ReturnType<typeof tempDir>;
let pool: WorkerPool | null = null;
let big: string;
const small: string[] = [];

beforeAll(() => {
  dir = tempDir();
  // a thumbnail of this takes a worker tens of milliseconds; of the small ones, about one
  big = join(dir.path, 'big.exr');
  writeRgb(big, 2048, 1024, (x, y) => [x / 2048, y / 1024, Math.sin(x * y), 0.5], { compression: 'piz', withAlpha: true });
  for (let i = 0; i < 4; i++) {
    small.push(join(dir.path, `small${i}.exr`));
    writeRgb(small[i]!, 64, 64, (x, y) => [i, x / 64, y / 64]);
  }
});
afterAll(() => dir.remove());
afterEach(async () => {
  await pool?.close();
  pool = null;
});

const thumbnail = (path: string, priority: number) => pool!.run('thumbnail', { path, longSidePx: 16 }, priority).promise;

it('hands each worker its next task as well as the one it runs, or only the one with tasksPerWorker 1', async () => {
  for (const [tasksPerWorker, posted] of [
    [2, 2],
    [1, 1],
  ] as const) {
    pool = new DecodePool<TaskTypes>({ workers: 1, tasksPerWorker });
    const jobs = [big, ...small].map((path) => thumbnail(path, 3));
    expect(pool.posted).toBe(posted);
    await Promise.all(jobs);
    expect(pool.posted).toBe(0);
    await pool.close();
    pool = null;
  }
});

it('runs a more urgent job next: the less urgent task the worker held goes back', async () => {
  pool = new DecodePool<TaskTypes>({ workers: 1 });
  const order: string[] = [];
  const track = (name: string, path: string, priority: number) => thumbnail(path, priority).then(() => order.push(name));
  const first = track('first', big, 5);
  // held by the worker behind the first
  const low = track('low', small[0]!, 9);
  expect(pool.posted).toBe(2);
  const high = track('high', small[1]!, 1);
  await Promise.all([first, low, high]);
  expect(order).toEqual(['first', 'high', 'low']);
  expect(pool.recalls).toBe(1);
});

it('gives a worker with nothing left a task another worker holds and has not started', async () => {
  pool = new DecodePool<TaskTypes>({ workers: 2 });
  await pool.start();
  const order: string[] = [];
  // worker 1: big, then small1 held; worker 2: small0, then small2 held; worker 2 then runs out while 1 is on big
  const jobs = [big, small[0]!, small[1]!, small[2]!].map((path, i) =>
    thumbnail(path, 3).then(() => order.push(i === 0 ? 'big' : `small${i - 1}`)),
  );
  await Promise.all(jobs);
  expect(order[order.length - 1]).toBe('big');
  expect(pool.steals).toBe(1);
});

it('gives back the tasks a dying worker held unstarted, without counting them as tried', async () => {
  pool = new DecodePool<TaskTypes>({ workers: 1 });
  await pool.start();
  const first = thumbnail(big, 3);
  const held = thumbnail(small[0]!, 3);
  expect(pool.posted).toBe(2);
  await new Promise((r) => setTimeout(r, 5));
  await pool.workerThreads[0]!.terminate();
  while (pool.restarts < 1) await new Promise((r) => setTimeout(r, 1));
  // the new worker holds both again, and is killed before it starts either: the held task was never tried, so two
  // deaths do not fail it (the big one, running at the first, may fail or not: it depends on when it started)
  expect(pool.posted).toBe(2);
  await pool.workerThreads[0]!.terminate();
  while (pool.restarts < 2) await new Promise((r) => setTimeout(r, 1));
  const [, heldResult] = await Promise.allSettled([first, held]);
  expect(heldResult.status).toBe('fulfilled');
});

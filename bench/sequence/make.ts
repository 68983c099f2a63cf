// Writes a test sequence with every core: each worker thread renders and compresses its share of the frames.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { writeSequence, type SequenceSpec } from '../../host/samples/sequence.js';

/** The sequence `spec`, frames split over `threads` workers of this same script (see main.ts: role 'make'). */
export async function makeSequenceParallel(script: URL, spec: SequenceSpec, threads = availableParallelism()): Promise<number> {
  const first = spec.firstFrame ?? 1001;
  const count = spec.frames ?? 48;
  const frames = Array.from({ length: count }, (_, k) => first + k);
  const lanes = Math.max(1, Math.min(threads, count));
  const t0 = performance.now();
  await Promise.all(
    Array.from(
      { length: lanes },
      (_, lane) =>
        new Promise<void>((resolve, reject) => {
          const only = frames.filter((_, k) => k % lanes === lane);
          const worker = new Worker(script, { workerData: { role: 'make', spec: { ...spec, only } } });
          worker.once('error', reject);
          worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`sequence writer thread exited with code ${code}`))));
        }),
    ),
  );
  return performance.now() - t0;
}

/** In a writer thread. */
export function makeInThread(spec: SequenceSpec): void {
  writeSequence(spec);
}

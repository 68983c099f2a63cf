// The fuzz worker's side of the harness protocol: run each case sent, reply with its outcome, time and memory.

import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import type { Outcome } from './target.js';

export type WorkerRequest = { type: 'case'; id: number; bytes: Uint8Array } | { type: 'gc'; id: number };

export interface WorkerReply {
  id: number;
  outcome?: Outcome;
  ms: number;
  /** The process's resident high-water mark after the case (KiB): it only grows, so a case that grows it is the one that used the memory. */
  maxRssKb: number;
  heapUsedBytes: number;
  arrayBuffersBytes: number;
}

/** Serves cases one at a time (the harness sends the next only after a reply). */
export function serve(exercise: (bytes: Uint8Array) => Outcome | Promise<Outcome>): void {
  // a full collection on request, so heap growth over a run measures what stays, not what is merely not yet collected
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const port = parentPort;
  if (!port) throw new Error('a fuzz worker runs as a worker thread');
  port.on('message', async (request: WorkerRequest) => {
    const t0 = performance.now();
    let outcome: Outcome | undefined;
    if (request.type === 'case') outcome = await exercise(request.bytes);
    else gc();
    const reply: WorkerReply = {
      id: request.id,
      outcome,
      ms: performance.now() - t0,
      maxRssKb: process.resourceUsage().maxRSS,
      heapUsedBytes: getHeapStatistics().used_heap_size,
      arrayBuffersBytes: process.memoryUsage().arrayBuffers,
    };
    port.postMessage(reply);
  });
}

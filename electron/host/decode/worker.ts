// A decode worker thread: runs jobs from worker-jobs.ts, one at a time, cancellable through a shared flag.

import { parentPort, workerData } from 'node:worker_threads';
import { ExrError } from '../../exr/index.js';
import { JOB_HANDLERS } from './tasks.js';
import type { WorkerReply, WorkerRequest } from './pool.js';

const abortFlag = new Int32Array(workerData.abortFlag as SharedArrayBuffer);
const signal = {
  get aborted() {
    return Atomics.load(abortFlag, 0) !== 0;
  },
};

parentPort!.on('message', async (request: WorkerRequest) => {
  const t0 = performance.now();
  let reply: WorkerReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const handler = JOB_HANDLERS[request.kind];
    if (!handler) throw new ExrError('unsupported', `unknown job kind "${request.kind}"`);
    const output = await handler(request.args, { signal });
    transfer = output.transfer;
    reply = { id: request.id, ok: true, result: output.result, workerMs: performance.now() - t0 };
  } catch (error) {
    const e = error instanceof ExrError ? error : null;
    reply = {
      id: request.id,
      ok: false,
      error: e
        ? { kind: e.kind, reason: e.reason, where: e.where, message: e.message }
        : { kind: 'invalid', reason: String((error as Error)?.message ?? error), where: {}, message: String((error as Error)?.message ?? error) },
      workerMs: performance.now() - t0,
    };
  }
  parentPort!.postMessage(reply, transfer);
});

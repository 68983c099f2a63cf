// A decode worker thread: runs the pool's tasks (tasks.ts) one at a time, each cancellable through its job's shared flag.

import { parentPort, workerData } from 'node:worker_threads';
import { ExrError } from '../../exr/index.js';
import { TASK_HANDLERS } from './tasks.js';
import type { TaskReply, TaskRequest } from './messages.js';
import { warmUpDecoder } from './warm-up.js';

// started ahead of need (DecodePool.start): compile the codec now rather than during the first job
if ((workerData as { warmUp?: boolean } | null)?.warmUp) warmUpDecoder();

parentPort!.on('message', async (request: TaskRequest) => {
  const t0 = performance.now();
  const abortFlag = new Int32Array(request.abortFlag);
  const signal = {
    get aborted() {
      return Atomics.load(abortFlag, 0) !== 0;
    },
  };
  let reply: TaskReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const handler = TASK_HANDLERS[request.kind];
    if (!handler) throw new ExrError('unsupported', `unknown task kind "${request.kind}"`);
    const output = await handler(request.args, { signal });
    transfer = output.transfer;
    reply = { id: request.id, ok: true, result: output.result, workerMs: performance.now() - t0 };
  } catch (error) {
    const e = error instanceof ExrError ? error : null;
    const message = String((error as Error)?.message ?? error);
    reply = {
      id: request.id,
      ok: false,
      error: e ? { kind: e.kind, reason: e.reason, where: e.where, message: e.message } : { kind: 'invalid', reason: message, where: {}, message },
      workerMs: performance.now() - t0,
    };
  }
  parentPort!.postMessage(reply, transfer);
});

// A decode worker thread: runs the pool's tasks (tasks.ts) one at a time, in the order posted, each cancellable through
// its job's shared flag; a task still waiting here when the pool recalls it (its gate word) is answered as skipped.

import { parentPort, workerData } from 'node:worker_threads';
import { ExrError } from '../../codec/index.js';
import { TASK_HANDLERS } from './tasks.js';
import { GATE, type TaskReply, type TaskRequest } from '../decode/messages.js';
import { warmUpDecoder } from './warm-up.js';
import { detachOnce } from './detach-protector.js';
import { flagSignal } from '../decode/flag-signal.js';

const data = workerData as { warmUp?: boolean; gates: SharedArrayBuffer };
const gates = new Int32Array(data.gates);

// before anything is compiled: the first detached buffer throws away the code compiled before it (detach-protector.ts)
detachOnce();
// started ahead of need (DecodePool.start): compile the codec now rather than during the first job
if (data.warmUp) warmUpDecoder();

const waiting: TaskRequest[] = [];
let draining = false;

parentPort!.on('message', (request: TaskRequest) => {
  waiting.push(request);
  if (!draining) void drain();
});

/** One task at a time, even where a handler awaits: the pool counts on a worker running its tasks in turn. */
async function drain(): Promise<void> {
  draining = true;
  try {
    for (let request = waiting.shift(); request; request = waiting.shift()) {
      if (Atomics.compareExchange(gates, request.gate, GATE.queued, GATE.started) !== GATE.queued) {
        parentPort!.postMessage({ id: request.id, skipped: true } satisfies TaskReply);
        continue;
      }
      const { reply, transfer } = await run(request);
      parentPort!.postMessage(reply, transfer);
    }
  } finally {
    draining = false;
  }
}

async function run(request: TaskRequest): Promise<{ reply: TaskReply; transfer: ArrayBuffer[] }> {
  const t0 = performance.now();
  const startedAtMs = performance.timeOrigin + t0;
  const abortFlag = new Int32Array(request.abortFlag);
  const signal = flagSignal(abortFlag);
  try {
    const handler = TASK_HANDLERS[request.kind];
    if (!handler) throw new ExrError('unsupported', `unknown task kind "${request.kind}"`);
    const output = await handler(request.args, { signal });
    return {
      reply: { id: request.id, ok: true, result: output.result, workerMs: performance.now() - t0, startedAtMs },
      transfer: output.transfer,
    };
  } catch (error) {
    const e = error instanceof ExrError ? error : null;
    const message = String((error as Error)?.message ?? error);
    return {
      reply: {
        id: request.id,
        ok: false,
        error: e
          ? { kind: e.kind, reason: e.reason, where: e.where, message: e.message }
          : { kind: 'invalid', reason: message, where: {}, message },
        workerMs: performance.now() - t0,
        startedAtMs,
      },
      transfer: [],
    };
  }
}

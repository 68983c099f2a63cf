// The pool's worker threads: started with the first job (or warmed up front), replaced when one dies, waited for as the pool closes.

import { Worker } from 'node:worker_threads';
import { GATE, GATES_PER_WORKER, type TaskReply, type TaskRequest } from './messages.js';
import type { Job, TaskState } from './pool-job.js';
import { prepareProcessForWorkers } from './worker-process.js';

/** A task handed to a worker and not answered yet. */
export interface Posted {
  job: Job;
  task: TaskState;
  requestId: number;
  gate: number;
  postedAtMs: number;
}

export interface Slot {
  worker: Worker;
  /** One word a task posted: GATE states, shared with the worker. */
  gates: Int32Array;
  nextGate: number;
  /** Posted and not recalled, in the order posted: the first runs, the rest wait in the worker. */
  posted: Posted[];
  /** Request ids recalled before they started, until the worker answers each as skipped. */
  recalled: Set<number>;
}

/** What the pool does when a worker answers, and with the tasks of one that died (its replacement is in place by then). */
export interface WorkerEvents {
  reply(slot: Slot, reply: TaskReply): void;
  died(slot: Slot, error: Error): void;
}

export class PoolWorkers {
  readonly slots: Slot[] = [];
  /** Workers that died and were replaced. */
  restarts = 0;
  private closed = false;
  /** While close() waits for started tasks: called once no task is posted. */
  private whenNothingPosted: (() => void) | null = null;

  constructor(
    private readonly size: number,
    private readonly workerPath: string,
    private readonly events: WorkerEvents,
  ) {}

  /** Starts workers up to the pool's size; `warmUp`: each loads and warms the codec before its first task. */
  fill(warmUp = false): void {
    while (this.slots.length < this.size) this.slots.push(this.spawn(warmUp));
  }

  private spawn(warmUp: boolean): Slot {
    // once, before the first worker (not with the pool, which a run served from the caches never needs): the
    // descriptor table and the workers' compiler (worker-process.ts)
    prepareProcessForWorkers();
    const gates = new SharedArrayBuffer(4 * GATES_PER_WORKER);
    const worker = new Worker(this.workerPath, { workerData: { warmUp, gates } });
    const slot: Slot = { worker, gates: new Int32Array(gates), nextGate: 0, posted: [], recalled: new Set() };
    worker.on('message', (reply: TaskReply) => {
      this.events.reply(slot, reply);
      this.noteIfNothingPosted();
    });
    worker.on('error', (error) => this.onDeath(slot, error));
    worker.on('exit', (code) => {
      if (!this.closed) this.onDeath(slot, new Error(`decode worker exited with code ${code}`));
    });
    return slot;
  }

  /** A worker that crashed is replaced; the pool then decides what becomes of the tasks it held. */
  private onDeath(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (this.closed) {
      // its tasks will not be answered: close() need not wait for them
      slot.posted = [];
      this.noteIfNothingPosted();
      return;
    }
    if (index < 0) return;
    this.restarts++;
    slot.worker.removeAllListeners();
    void slot.worker.terminate();
    this.slots[index] = this.spawn(false);
    this.events.died(slot, error);
  }

  /** Tells a closing pool (startedTasksEnded) that no task is posted any more. */
  private noteIfNothingPosted(): void {
    if (this.whenNothingPosted && this.nothingPosted) this.whenNothingPosted();
  }

  private get nothingPosted(): boolean {
    return this.slots.every((s) => s.posted.length === 0);
  }

  /** From now on a worker's end is not a death: the pool is closing. */
  closing(): void {
    this.closed = true;
  }

  /** Resolves once no worker has a task posted (each started one answered), or after `limitMs`. */
  startedTasksEnded(limitMs: number): Promise<void> {
    if (this.nothingPosted) return Promise.resolve();
    return new Promise((resolve) => {
      const deadline = setTimeout(() => this.whenNothingPosted?.(), limitMs);
      this.whenNothingPosted = () => {
        clearTimeout(deadline);
        this.whenNothingPosted = null;
        resolve();
      };
    });
  }

  async terminate(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  /** Tasks a worker has begun and not yet answered (held ones not counted). */
  get startedTasks(): number {
    return this.slots.reduce((n, s) => n + s.posted.filter((p) => Atomics.load(s.gates, p.gate) === GATE.started).length, 0);
  }
}

/** Hands a task to a worker; its gate word says queued until the worker starts it (or finds it recalled). */
export function postTask(slot: Slot, job: Job, task: TaskState, requestId: number, postedAtMs: number): void {
  // answered in order, so the word posted GATES_PER_WORKER tasks ago is free: at most that many are ever out
  const gate = slot.nextGate;
  slot.nextGate = (gate + 1) % GATES_PER_WORKER;
  Atomics.store(slot.gates, gate, GATE.queued);
  slot.posted.push({ job, task, requestId, gate, postedAtMs });
  const request: TaskRequest = { id: requestId, kind: task.spec.kind, args: task.spec.args, abortFlag: job.abortBuffer, gate };
  slot.worker.postMessage(request);
}

/** Takes a posted task back from its worker if the worker has not started it; false when it has. */
export function takeBack(slot: Slot, posted: Posted): boolean {
  if (Atomics.compareExchange(slot.gates, posted.gate, GATE.queued, GATE.recalled) !== GATE.queued) return false;
  slot.posted.splice(slot.posted.indexOf(posted), 1);
  slot.recalled.add(posted.requestId);
  return true;
}

/** Whether a posted task has started in its worker. */
export function started(slot: Slot, posted: Posted): boolean {
  return Atomics.load(slot.gates, posted.gate) === GATE.started;
}

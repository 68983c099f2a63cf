// Runs fuzz cases in a worker thread with a heap limit and a per-case time limit: a hang or an out-of-memory is a reported failure, not a dead runner.

import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { WorkerReply, WorkerRequest } from './worker-protocol.js';
import type { Outcome } from './target.js';

export type Failure = 'crash' | 'hang' | 'oom' | 'memory' | 'worker-died';

export interface CaseResult {
  outcome: Outcome;
  ms: number;
  /** How much this case raised the resident high-water mark (MiB). */
  rssGrowthMb: number;
  failure?: Failure;
}

export interface HarnessOptions {
  /** The bundled case-worker (see bundleWorker). */
  workerFile: string;
  /** A case running longer than this is a hang: the worker is terminated and replaced. */
  caseTimeoutMs: number;
  /** The worker's V8 heap limit: exceeding it ends the worker with ERR_WORKER_OUT_OF_MEMORY. */
  maxHeapMb: number;
  /** A case that raises the process's resident high-water mark by more than this fails (typed arrays live outside the V8 heap). */
  memoryBoundMb: number;
}

/**
 * Bundles a worker (case-worker.ts by default, or `entry`: source text that calls worker-protocol's
 * serve) with the code it imports into one ES module a Worker can load without a TypeScript loader.
 */
export async function bundleWorker(projectRoot: string, outDir: string, entry?: { name: string; contents: string }): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = join(outDir, `${entry?.name ?? 'exr-fuzz-worker'}.mjs`);
  await build({
    absWorkingDir: projectRoot,
    ...(entry
      ? { stdin: { contents: entry.contents, resolveDir: projectRoot, sourcefile: `${entry.name}.ts`, loader: 'ts' as const } }
      : { entryPoints: [join(projectRoot, 'testing/codec/fuzz/case-worker.ts')] }),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    outfile,
    logLevel: 'error',
    // CommonJS packages bundled into ESM may call require(): give them one
    banner: {
      js: "import { createRequire as __fuzzCreateRequire } from 'node:module'; const require = __fuzzCreateRequire(import.meta.url);",
    },
  });
  return outfile;
}

/** Resident memory is sampled this often while a case runs. */
const SAMPLE_MS = 5;

interface Pending {
  worker: Worker;
  resolve(reply: WorkerReply): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class CaseRunner {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending: Pending | null = null;
  private highWaterKb = 0;
  /** Workers started (1 + one per hang, OOM or death). */
  workersStarted = 0;
  /** Heap in use after a full collection once the first worker warmed up, and now: the difference is what the cases left behind. */
  baselineHeapBytes = 0;

  constructor(private readonly options: HarnessOptions) {}

  get peakRssMb(): number {
    return this.highWaterKb / 1024;
  }

  private start(): Worker {
    const worker = new Worker(this.options.workerFile, {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    this.workersStarted++;
    worker.on('message', (reply: WorkerReply) => {
      const p = this.pending;
      if (!p || p.worker !== worker) return;
      this.pending = null;
      clearTimeout(p.timer);
      p.resolve(reply);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      const p = this.pending;
      // a terminated worker's late exit must not fail the next worker's case
      if (!p || p.worker !== worker) return;
      this.pending = null;
      clearTimeout(p.timer);
      p.reject(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(Object.assign(new Error(`fuzz worker exited with code ${code}`), { code: 'WORKER_EXIT' })));
    this.worker = worker;
    return worker;
  }

  private send(request: WorkerRequest, transfer: ArrayBuffer[]): Promise<WorkerReply> {
    const worker = this.worker ?? this.start();
    return new Promise<WorkerReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending = null;
        this.worker = null;
        void worker.terminate();
        reject(Object.assign(new Error('case timed out'), { code: 'HANG' }));
      }, this.options.caseTimeoutMs);
      this.pending = { worker, resolve, reject, timer };
      worker.postMessage(request, transfer);
    });
  }

  /** A full collection in the worker; returns its heap in use (bytes). */
  async heapAfterGc(): Promise<number> {
    const reply = await this.send({ type: 'gc', id: this.nextId++ }, []);
    return reply.heapUsedBytes;
  }

  async run(bytes: Uint8Array): Promise<CaseResult> {
    if (!this.worker) {
      this.start();
      // the first case of a worker pays for loading the codec: measure from a warm worker
      const warm = await this.send({ type: 'gc', id: this.nextId++ }, []);
      this.highWaterKb = Math.max(this.highWaterKb, warm.maxRssKb);
      if (!this.baselineHeapBytes) this.baselineHeapBytes = warm.heapUsedBytes;
    }
    const owned = bytes.slice();
    const before = this.highWaterKb;
    // the high-water mark only shows a case that goes above every earlier one: also sample resident memory while it runs
    const rssAtStart = process.memoryUsage.rss();
    let rssPeak = rssAtStart;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), SAMPLE_MS);
    try {
      const reply = await this.send({ type: 'case', id: this.nextId++, bytes: owned }, [owned.buffer as ArrayBuffer]);
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
      this.highWaterKb = Math.max(this.highWaterKb, reply.maxRssKb);
      const rssGrowthMb = Math.max((this.highWaterKb - before) / 1024, (rssPeak - rssAtStart) / 2 ** 20);
      const outcome = reply.outcome!;
      const failure: Failure | undefined =
        outcome.verdict === 'crash' ? 'crash' : rssGrowthMb > this.options.memoryBoundMb ? 'memory' : undefined;
      return { outcome, ms: reply.ms, rssGrowthMb, ...(failure ? { failure } : {}) };
    } catch (error) {
      const code = (error as { code?: string }).code;
      const failure: Failure = code === 'HANG' ? 'hang' : code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'oom' : 'worker-died';
      return {
        outcome: { verdict: 'crash', kind: failure, reason: (error as Error).message },
        ms: this.options.caseTimeoutMs,
        rssGrowthMb: (rssPeak - rssAtStart) / 2 ** 20,
        failure,
      };
    } finally {
      clearInterval(sampler);
    }
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}

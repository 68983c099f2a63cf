// A record of the decode pool's tasks, for finding where a run's time went: for each task, its worker, when it was
// handed out, when it ran (the worker's clock) and when its reply was handled. On with EXRVIEW_TRACE=PREFIX: written as
// PREFIX.PID.json when the pool closes; bench/pool-trace-summary.mjs reads it.

import { writeFileSync } from 'node:fs';

/** Times are epoch milliseconds (performance.timeOrigin + now: one clock for every thread). */
export interface TracedTask {
  worker: number;
  kind: string;
  /** The file the task read, where its arguments name one (the base name). */
  file: string | null;
  postedAtMs: number;
  startedAtMs: number;
  endedAtMs: number;
  answeredAtMs: number;
  ok: boolean;
  /** The result's stage timings, where it has them (bands: read, decompress, unpack or resize, and a thumbnail's finishing). */
  timings: Record<string, number> | null;
}

export interface PoolTraceFile {
  workers: number;
  tasks: TracedTask[];
}

/** Epoch milliseconds now. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

/** The trace of one pool: tasks added as they are answered, written once. */
export class PoolTrace {
  private readonly tasks: TracedTask[] = [];
  private written = false;

  constructor(private readonly pathPrefix: string) {}

  /** The trace EXRVIEW_TRACE asks for, or null (the usual case: nothing is recorded). */
  static fromEnvironment(): PoolTrace | null {
    const prefix = process.env.EXRVIEW_TRACE;
    return prefix ? new PoolTrace(prefix) : null;
  }

  add(task: Omit<TracedTask, 'file' | 'timings'> & { args: unknown; result: unknown }): void {
    const { args, result, ...times } = task;
    const path = (args as { path?: unknown } | null)?.path;
    // a thumbnail band's result holds its timings; a decode band's result is its timings
    const timings = (result as { timings?: unknown } | null)?.timings ?? result;
    this.tasks.push({
      ...times,
      file: typeof path === 'string' ? path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1) : null,
      timings: timings && typeof timings === 'object' && 'decompressMs' in timings ? numbersOf(timings as Record<string, unknown>) : null,
    });
  }

  /** Writes PREFIX.PID.json once; the path written, or null (written before, or failed: a trace never fails a run). */
  write(workers: number): string | null {
    if (this.written) return null;
    this.written = true;
    const path = `${this.pathPrefix}.${process.pid}.json`;
    try {
      writeFileSync(path, JSON.stringify({ workers, tasks: this.tasks } satisfies PoolTraceFile));
      return path;
    } catch (error) {
      process.stderr.write(`exrview: cannot write the pool trace ${path}: ${(error as Error).message}\n`);
      return null;
    }
  }
}

function numbersOf(record: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(record)) if (typeof value === 'number') out[key] = value;
  return out;
}

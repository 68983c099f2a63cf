// Process-wide settings the decode workers need, made once before the first one starts.
//
// The file-descriptor table. Linux grows the table of a process with several threads only after an RCU grace period,
// and every thread that opens a file meanwhile waits for it. Many workers keeping files open (reader-cache.ts) take
// the table past its first size in the middle of a decode, and all of them stall; grown here in one step, that wait
// happens once, before the workers exist.
//
// The optimizing compiler. Under Node, V8 optimizes hot functions on the platform's background threads, four of them
// for the whole process: many workers warming up at once queue their codec's functions there, and their first real
// work ran unoptimized until the queue drained. Workers made after this flag is set
// compile on their own thread during their warm-up (warm-up.ts), which is what the warm-up is for. Not under Electron,
// whose V8 may refuse flags once it has started and whose background threads Chromium sizes to the machine.

import { setFlagsFromString } from 'node:v8';
import { nativeKernels } from '../../codec/index.js';

/** Descriptors the table is grown to hold: every worker's open files with room to spare (8 KB of table). */
export const RESERVED_FILE_DESCRIPTORS = 1024;

/** The V8 flag that keeps workers' optimizing compiles on their own threads. */
export const WORKER_COMPILER_FLAG = '--no-concurrent-recompilation';

let reserved: number | null = null;
let compilerSet = false;

/** Grows the descriptor table once per process (later calls return the first's result); the size reached, 0 where it was not done. */
export function reserveFileDescriptors(kernels: { reserveFileDescriptors(count: number): number } | null = nativeKernels): number {
  reserved ??= kernels ? kernels.reserveFileDescriptors(RESERVED_FILE_DESCRIPTORS) : 0;
  return reserved;
}

/** Sets WORKER_COMPILER_FLAG once, under Node only; true where it is set. */
export function compileOnWorkerThreads(
  runtime: NodeJS.ProcessVersions = process.versions,
  setFlags: (flags: string) => void = setFlagsFromString,
): boolean {
  if (runtime.electron) return false;
  if (!compilerSet) setFlags(WORKER_COMPILER_FLAG);
  compilerSet = true;
  return true;
}

/** Both, before each worker is made (DecodePool.spawn): the first call does the work, later ones return at once. */
export function prepareProcessForWorkers(): void {
  reserveFileDescriptors();
  compileOnWorkerThreads();
}

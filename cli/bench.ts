// `exrview bench DIR [--json]`: decode every EXR in DIR with the pool, then make every thumbnail, per-stage timings; JSON on the last line.

import { readdirSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { performance as perfHooks } from 'node:perf_hooks';
import { describeKernelTiers, kernelTierReport, nativeStatus, wasmStatus, type StageTimings } from '../codec/index.js';
import { DecodePool } from '../host/decode/pool.js';
import type { ThumbnailJobResult } from '../host/thumbnails/job.js';
import { decodeLevel } from '../host/decode/image-decode.js';
import { levelLayout, planeByteLength } from '../host/decode/layout.js';
import { ByteWindow } from '../host/decode/byte-window.js';
import { PlaneMemory } from '../host/decode/plane-memory.js';
import { hugePageAdvice, hugePages } from '../host/decode/huge-pages.js';
import { warmUpJobs } from '../host/worker/warm-up-jobs.js';
import { thumbnailOnPool } from '../host/thumbnails/on-pool.js';
import { readHeader, readHeaderParts } from '../host/headers/summary.js';
import { fsReason } from '../host/io/fs-reason.js';
import { FileError, describeFailure } from './failures.js';

export interface BenchOptions {
  json: boolean;
  runs: number;
  /** An untimed pass first (default); without it the first run includes compiling the decoders. */
  warmup: boolean;
  /** Long side of the thumbnails made after the decode, in pixels (as `exrview thumbs --size`). */
  thumbnailPx: number;
}

export function listExrFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    throw new FileError(dir, `cannot read folder: ${fsReason(error)}`);
  }
  return names
    .filter((n) => /\.exr$/i.test(n))
    .sort()
    .map((n) => join(dir, n))
    .filter((p) => statSync(p).isFile());
}

interface RunFigures {
  wallMs: number;
  pixels: number;
  readMs: number;
  decompressMs: number;
  unpackMs: number;
  bytesRead: number;
  /** The whole process (every worker) over the run: a first touch of fresh memory shows as system time and minor faults. */
  userCpuMs: number;
  systemCpuMs: number;
  minorPageFaults: number;
  /** The main thread's busy time over the run (event loop utilisation): headers, band planning, replies. */
  mainThreadBusyMs: number;
  /** Plane buffers taken over the run that were new (fresh memory, first touched by the decode) and reused. */
  planeBuffersMade: number;
  planeBuffersReused: number;
  failures: { file: string; reason: string }[];
}

interface ThumbnailFigures {
  wallMs: number;
  readMs: number;
  decompressMs: number;
  /** The box filter (summing samples into the thumbnail's pixels), in place of the decode's unpack. */
  resizeMs: number;
  bytesRead: number;
  /** The main thread's busy time over the pass: planning bands, replies, adding the bands' sums up, half RGBA. */
  mainThreadBusyMs: number;
  sources: Record<string, number>;
  failures: { file: string; reason: string }[];
}

/** Runs one job per file, largest first (the last one to start is small, so no worker idles long at the end): the results of those that worked, in file order, and why the others failed. */
async function runAll<R>(
  files: string[],
  submit: (path: string, rank: number) => Promise<{ result: R }>,
): Promise<{ wallMs: number; results: R[]; failures: { file: string; reason: string }[] }> {
  const order = files.map((path) => ({ path, sizeBytes: statSync(path).size })).sort((a, b) => b.sizeBytes - a.sizeBytes);
  const t0 = performance.now();
  const jobs = new Map(order.map(({ path }, rank) => [path, submit(path, rank)]));
  const settled = await Promise.allSettled(files.map((path) => jobs.get(path)!));
  const wallMs = performance.now() - t0;
  const results: R[] = [];
  const failures: { file: string; reason: string }[] = [];
  settled.forEach((s, i) => {
    if (s.status === 'fulfilled') results.push(s.value.result);
    else failures.push({ file: files[i]!, reason: describeFailure(s.reason) });
  });
  return { wallMs, results, failures };
}

interface FileDecode {
  pixels: number;
  timings: StageTimings;
}

/** Every flat part of a file (level 0, every channel) decoded in bands on the pool; the pixels are dropped and their memory reused, as the viewer's RAM cache does. */
async function decodeFile(
  pool: DecodePool,
  memory: PlaneMemory,
  window: ByteWindow,
  path: string,
  rank: number,
): Promise<{ result: FileDecode }> {
  const { parts, handoff } = await readHeader(path);
  const layouts = parts.filter((p) => !p.isDeep).map((p) => levelLayout(p, 0, 0, null));
  const bytes = layouts.reduce((sum, l) => sum + l.chunkStoreBytes, 0);
  await window.acquire(bytes, rank);
  try {
    // one priority for every file, as the viewer gives a folder's thumbnails or a sequence's frames: the pool takes them
    // oldest first (the window lets them in largest first) and cuts each into bands for a shared queue (bandCountFor)
    const levels = await Promise.all(
      layouts.map((layout) => decodeLevel(pool, { path, layout, handoff, channels: null, priority: FOLDER_PRIORITY, memory }).promise),
    );
    const timings: StageTimings = { readMs: 0, decompressMs: 0, unpackMs: 0, bytesRead: 0, chunks: 0 };
    let pixels = 0;
    for (const {
      result: { image: result },
    } of levels) {
      for (const c of result.channels) memory.give(c.data.buffer as SharedArrayBuffer);
      pixels += result.widthPx * result.heightPx;
      timings.readMs += result.timings.readMs;
      timings.decompressMs += result.timings.decompressMs;
      timings.unpackMs += result.timings.unpackMs;
      timings.bytesRead += result.timings.bytesRead;
    }
    return { result: { pixels, timings } };
  } finally {
    // after the planes are handed back: the file the window lets in next takes them instead of making new ones
    window.release(bytes);
  }
}

/** The pool priority of every job of a run (jobs submitted first go first among equals). */
const FOLDER_PRIORITY = 0;

/**
 * Decoded bytes in flight: several bands per worker of the next files queued behind the current ones, no more. Smaller
 * windows made hardly fewer fresh plane buffers in a cold pass (16 cores, 40 files of two plane sizes: 24 at 128-256 MB
 * against 32 at 512) and slowed the warm one (median 204 ms at 128 MB, 172 at 512).
 */
const windowBytes = (workers: number) => Math.max(128 << 20, workers * (32 << 20));

async function decodeAll(pool: DecodePool, memory: PlaneMemory, files: string[]): Promise<RunFigures> {
  const window = new ByteWindow(windowBytes(pool.size));
  const before = process.resourceUsage();
  const buffersBefore = { made: memory.allocated, reused: memory.reused };
  const loopBefore = perfHooks.eventLoopUtilization();
  const { wallMs, results, failures } = await runAll<FileDecode>(files, (path, rank) => decodeFile(pool, memory, window, path, rank));
  const loop = perfHooks.eventLoopUtilization(loopBefore);
  const after = process.resourceUsage();
  const figures: RunFigures = {
    wallMs,
    pixels: 0,
    readMs: 0,
    decompressMs: 0,
    unpackMs: 0,
    bytesRead: 0,
    userCpuMs: (after.userCPUTime - before.userCPUTime) / 1000,
    systemCpuMs: (after.systemCPUTime - before.systemCPUTime) / 1000,
    minorPageFaults: after.minorPageFault - before.minorPageFault,
    mainThreadBusyMs: loop.active,
    planeBuffersMade: memory.allocated - buffersBefore.made,
    planeBuffersReused: memory.reused - buffersBefore.reused,
    failures,
  };
  for (const r of results) {
    figures.pixels += r.pixels;
    figures.readMs += r.timings.readMs;
    figures.decompressMs += r.timings.decompressMs;
    figures.unpackMs += r.timings.unpackMs;
    figures.bytesRead += r.timings.bytesRead;
  }
  return figures;
}

/** The host's thumbnail job for every file (cheapest source, box filter in linear light), no cache and no encoding. */
async function thumbnailAll(pool: DecodePool, files: string[], longSidePx: number): Promise<ThumbnailFigures> {
  const loopBefore = perfHooks.eventLoopUtilization();
  const { wallMs, results, failures } = await runAll<ThumbnailJobResult>(
    files,
    (path) => thumbnailOnPool(pool, path, longSidePx, FOLDER_PRIORITY).promise,
  );
  const mainThreadBusyMs = perfHooks.eventLoopUtilization(loopBefore).active;
  const figures: ThumbnailFigures = {
    wallMs,
    readMs: 0,
    decompressMs: 0,
    resizeMs: 0,
    bytesRead: 0,
    mainThreadBusyMs,
    sources: {},
    failures,
  };
  for (const r of results) {
    figures.readMs += r.timings.readMs;
    figures.decompressMs += r.timings.decompressMs;
    figures.resizeMs += r.timings.resizeMs;
    figures.bytesRead += r.timings.bytesRead;
    figures.sources[r.source] = (figures.sources[r.source] ?? 0) + 1;
  }
  return figures;
}

/** The run in the middle by wall time (the lower middle for an even count). */
function medianByWall<T extends { wallMs: number }>(runs: T[]): T {
  return runs.slice().sort((a, b) => a.wallMs - b.wallMs)[Math.floor((runs.length - 1) / 2)]!;
}

const round = (v: number, digits = 1) => Number(v.toFixed(digits));

/** The plane buffers of the first `fileCount` files (every channel of every flat part), made, touched and kept in `memory`. */
async function prefaultPlanes(memory: PlaneMemory, files: string[], fileCount: number): Promise<void> {
  const buffers: SharedArrayBuffer[] = [];
  for (const path of files.slice(0, fileCount)) {
    for (const part of await readHeaderParts(path)) {
      if (part.isDeep) continue;
      for (const plane of levelLayout(part, 0, 0, null).planes) {
        const buffer = memory.take(planeByteLength(plane));
        new Uint8Array(buffer).fill(0);
        buffers.push(buffer);
      }
    }
  }
  for (const buffer of buffers) memory.give(buffer);
}

/**
 * EXRVIEW_BENCH_PASS_MARKS=1: a line on standard output where each pass starts and ends, written straight to the
 * descriptor so that it lands in order among what V8 prints there from every thread (node --trace-opt --trace-deopt):
 * bench/jit-trace-summary.mjs then says which compiles and deoptimisations fell in which pass.
 */
const PASS_MARKS = process.env.EXRVIEW_BENCH_PASS_MARKS === '1';

async function pass<T>(name: string, run: () => Promise<T>): Promise<T> {
  if (!PASS_MARKS) return run();
  writeSync(1, `exrview-bench-pass start ${name}\n`);
  try {
    return await run();
  } finally {
    writeSync(1, `exrview-bench-pass end ${name}\n`);
  }
}

export async function runBench(dir: string, options: BenchOptions): Promise<number> {
  const files = listExrFiles(dir);
  if (files.length === 0) throw new FileError(dir, 'no .exr files in this folder');
  const pool = new DecodePool();
  // decoded planes are dropped as soon as they are counted, and their memory reused by the next file
  const memory = new PlaneMemory({ keepBytes: 1 << 30, advise: hugePageAdvice });
  try {
    // the workers load before the clock starts, cold or warm: what is timed is decoding (OpenEXR's threads, too, are made first)
    await pool.start();
    // and the main thread's job code, as the viewer warms it when it starts (host.startWorkers)
    await pass('warm-up-jobs', () => warmUpJobs(pool, memory));
    // A diagnostic of what a cold run's time is: EXRVIEW_BENCH_PREFAULT_PLANES=N makes and touches the plane buffers
    // of N files before the clock, as a warm run finds them (bench/cpu-cold.sh's variant cold-planes).
    await prefaultPlanes(memory, files, Number(process.env.EXRVIEW_BENCH_PREFAULT_PLANES) || 0);
    // One untimed pass first: it compiles the decoders in every worker and warms the page cache,
    // so the timed runs measure steady-state decoding, as a viewer that has been open a while sees it.
    if (options.warmup) {
      await pass('untimed-decode', () => decodeAll(pool, memory, files));
      await pass('untimed-thumbnails', () => thumbnailAll(pool, files, options.thumbnailPx));
    }
    const runs: { decode: RunFigures; thumbnails: ThumbnailFigures }[] = [];
    for (let i = 0; i < Math.max(1, options.runs); i++) {
      // the same files, the same workers: the decode, then the thumbnails
      const decode = await pass(`decode-${i + 1}`, () => decodeAll(pool, memory, files));
      runs.push({ decode, thumbnails: await pass(`thumbnails-${i + 1}`, () => thumbnailAll(pool, files, options.thumbnailPx)) });
    }
    const median = medianByWall(runs.map((r) => r.decode));
    const thumbs = medianByWall(runs.map((r) => r.thumbnails));
    const failures = [...median.failures, ...thumbs.failures.filter((f) => !median.failures.some((d) => d.file === f.file))];
    const summary = {
      files: files.length,
      pixels: median.pixels,
      workers: pool.size,
      runs: runs.length,
      warmup: options.warmup,
      // the workers load the addon and the WebAssembly module from the same places, with the same environment, as this process
      nativeKernels: nativeStatus.on ? 'on' : `off: ${nativeStatus.reason}`,
      wasmKernels: wasmStatus.on ? 'on' : `off: ${wasmStatus.reason}`,
      // each compression's tier: native, wasm, typescript (with the tier of its inflation where it has one)
      kernelTiers: kernelTierReport().compressions,
      // whether new plane memory was advised into 2 MB pages, and why (decode/huge-pages.ts)
      hugePages: hugePages.reason,
      decode: { wallMs: round(median.wallMs), mpxPerS: round(median.pixels / 1e3 / median.wallMs) },
      stages: {
        readMs: round(median.readMs),
        decompressMs: round(median.decompressMs),
        unpackMs: round(median.unpackMs),
        bytesRead: median.bytesRead,
      },
      process: {
        userCpuMs: round(median.userCpuMs),
        systemCpuMs: round(median.systemCpuMs),
        minorPageFaults: median.minorPageFaults,
        mainThreadBusyMs: round(median.mainThreadBusyMs),
      },
      planeBuffers: { made: median.planeBuffersMade, reused: median.planeBuffersReused },
      thumbnails: {
        longSidePx: options.thumbnailPx,
        wallMs: round(thumbs.wallMs),
        overDecode: round(thumbs.wallMs / median.wallMs, 3),
        sources: thumbs.sources,
        stages: {
          readMs: round(thumbs.readMs),
          decompressMs: round(thumbs.decompressMs),
          resizeMs: round(thumbs.resizeMs),
          bytesRead: thumbs.bytesRead,
        },
        mainThreadBusyMs: round(thumbs.mainThreadBusyMs),
      },
      failures,
    };
    if (!options.json) {
      const busy = median.readMs + median.decompressMs + median.unpackMs;
      const share = (v: number) => `${Math.round((100 * v) / Math.max(busy, 1e-9))}%`;
      process.stdout.write(
        `${files.length} files, ${round(median.pixels / 1e6)} Mpx decoded in ${round(median.wallMs)} ms wall (${summary.decode.mpxPerS} Mpx/s, ${pool.size} workers)\n` +
          `  decompression kernels: ${describeKernelTiers()}; huge pages ${summary.hugePages}\n` +
          `  read ${round(median.readMs)} ms (${share(median.readMs)}), decompress ${round(median.decompressMs)} ms (${share(median.decompressMs)}), unpack ${round(median.unpackMs)} ms (${share(median.unpackMs)}) summed over workers\n` +
          `  process CPU ${round(median.userCpuMs)} ms user, ${round(median.systemCpuMs)} ms system, ${median.minorPageFaults} minor page faults; main thread busy ${round(median.mainThreadBusyMs)} ms\n` +
          `${files.length - thumbs.failures.length} thumbnails (long side ${options.thumbnailPx} px) in ${round(thumbs.wallMs)} ms wall, ${summary.thumbnails.overDecode}x the decode\n` +
          `  read ${round(thumbs.readMs)} ms, decompress ${round(thumbs.decompressMs)} ms, resize ${round(thumbs.resizeMs)} ms summed over workers\n`,
      );
      for (const f of failures) process.stderr.write(`exrview: ${f.file}: ${f.reason}\n`);
    }
    process.stdout.write(JSON.stringify(summary) + '\n');
    return failures.length ? 1 : 0;
  } finally {
    await pool.close();
  }
}

// `exrview bench DIR [--json]`: decode every EXR in DIR with the pool, per-stage timings; JSON on the last line.

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DecodePool } from '../host/decode-pool.js';
import type { DecodeAllResult } from '../host/worker-jobs.js';
import { FileError, describeFailure } from './main.js';

export interface BenchOptions {
  json: boolean;
  runs: number;
  /** An untimed pass first (default); without it the first run includes compiling the decoders. */
  warmup: boolean;
}

export function listExrFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    throw new FileError(dir, `cannot read folder: ${(error as Error).message.replace(/^[A-Z]+: /, '')}`);
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
  failures: { file: string; reason: string }[];
}

async function decodeAll(pool: DecodePool, files: string[]): Promise<RunFigures> {
  // largest first: the last file to start is a small one, so no worker idles long at the end
  const bySize = files.map((path) => ({ path, sizeBytes: statSync(path).size }));
  const order = bySize.slice().sort((a, b) => b.sizeBytes - a.sizeBytes);
  const t0 = performance.now();
  const jobs = new Map(order.map(({ path }, rank) => [path, pool.run('decodeAll', { path }, rank).promise]));
  const settled = await Promise.allSettled(files.map((path) => jobs.get(path)!));
  const wallMs = performance.now() - t0;
  const figures: RunFigures = { wallMs, pixels: 0, readMs: 0, decompressMs: 0, unpackMs: 0, bytesRead: 0, failures: [] };
  settled.forEach((s, i) => {
    if (s.status === 'rejected') {
      figures.failures.push({ file: files[i]!, reason: describeFailure(s.reason) });
      return;
    }
    const r: DecodeAllResult = s.value.result;
    figures.pixels += r.pixels;
    figures.readMs += r.timings.readMs;
    figures.decompressMs += r.timings.decompressMs;
    figures.unpackMs += r.timings.unpackMs;
    figures.bytesRead += r.timings.bytesRead;
  });
  return figures;
}

const round = (v: number, digits = 1) => Number(v.toFixed(digits));

export async function runBench(dir: string, options: BenchOptions): Promise<number> {
  const files = listExrFiles(dir);
  if (files.length === 0) throw new FileError(dir, 'no .exr files in this folder');
  const pool = new DecodePool();
  try {
    // One untimed pass first: it compiles the decoders in every worker and warms the page cache,
    // so the timed runs measure steady-state decoding, as a viewer that has been open a while sees it.
    if (options.warmup) await decodeAll(pool, files);
    const runs: RunFigures[] = [];
    for (let i = 0; i < Math.max(1, options.runs); i++) runs.push(await decodeAll(pool, files));
    runs.sort((a, b) => a.wallMs - b.wallMs);
    const median = runs[Math.floor((runs.length - 1) / 2)]!;
    const summary = {
      files: files.length,
      pixels: median.pixels,
      workers: pool.size,
      runs: runs.length,
      warmup: options.warmup,
      decode: { wallMs: round(median.wallMs), mpxPerS: round(median.pixels / 1e3 / median.wallMs) },
      stages: {
        readMs: round(median.readMs),
        decompressMs: round(median.decompressMs),
        unpackMs: round(median.unpackMs),
        bytesRead: median.bytesRead,
      },
      failures: median.failures,
    };
    if (!options.json) {
      const busy = median.readMs + median.decompressMs + median.unpackMs;
      const share = (v: number) => `${Math.round((100 * v) / Math.max(busy, 1e-9))}%`;
      process.stdout.write(
        `${files.length} files, ${round(median.pixels / 1e6)} Mpx decoded in ${round(median.wallMs)} ms wall (${summary.decode.mpxPerS} Mpx/s, ${pool.size} workers)\n` +
          `  read ${round(median.readMs)} ms (${share(median.readMs)}), decompress ${round(median.decompressMs)} ms (${share(median.decompressMs)}), unpack ${round(median.unpackMs)} ms (${share(median.unpackMs)}) summed over workers\n`,
      );
      for (const f of median.failures) process.stderr.write(`exrview: ${f.file}: ${f.reason}\n`);
    }
    process.stdout.write(JSON.stringify(summary) + '\n');
    return median.failures.length ? 1 : 0;
  } finally {
    await pool.close();
  }
}

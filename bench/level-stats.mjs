#!/usr/bin/env node
// Level 0's statistics measured chunk by chunk on the host (HostApi.levelStatistics, the Statistics panel's figures of
// an image the page holds reduced) over the 32768×16384 half RGBA file of bench/huge-image.mjs: wall time with the
// histogram, the process's peak RSS, against OpenEXR 3.4 decoding the whole file with 2 threads in the same run, and
// the figures checked against `exrview stats --json` (the codec's own single-threaded pass). Run
// `node scripts/build.mjs` first (the decode workers). Usage:
// node bench/level-stats.mjs [--file PATH] [--runs N] [--workers N]; the last line is the JSON summary.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { root, rssSampler } from './load-common.mjs';

const { values } = parseArgs({
  options: {
    file: { type: 'string', default: '/tmp/exrview-huge-32k/huge-32k-half-rgba-zip.exr' },
    runs: { type: 'string', default: '3' },
    workers: { type: 'string', default: '2' },
  },
});
const REFERENCE = '/work/shared/tools/openexr-3.4/exr_decode_ref';
const log = (...a) => console.error('level-stats:', ...a);
if (!existsSync(values.file)) throw new Error(`${values.file} is not there: run node bench/huge-image.mjs --runs 0 once to make it`);

const work = mkdtempSync(join(tmpdir(), 'exrview-level-stats-'));
// beside the other bundles, so that the host finds its native kernels as the app does; packages stay imports
const outfile = join(root, 'dist', 'level-stats-bench', 'host.mjs');
await build({
  entryPoints: [join(root, 'host/host.ts')],
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  outfile,
  logLevel: 'error',
});
const { createHost } = await import(pathToFileURL(outfile).href);

function openexrMs() {
  const t0 = performance.now();
  const r = spawnSync(REFERENCE, ['2', values.file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`exr_decode_ref failed: ${r.stderr}`);
  return performance.now() - t0;
}

const runs = [];
let figures = null;
for (let run = 0; run < Number(values.runs); run++) {
  // a host per run: nothing it measured before is kept
  const host = createHost({
    userDataDir: join(work, 'user'),
    workers: Number(values.workers),
    prefetch: false,
    workerPath: join(root, 'dist', 'decode-worker.mjs'),
  });
  try {
    const folder = await host.openFolder(dirname(values.file));
    const file = (await host.listFiles(folder.id)).find((f) => f.name === basename(values.file));
    const channels = file.summary.parts[0].channels.map((c) => c.name);
    const rgb = ['R', 'G', 'B'].map((n) => (channels.includes(n) ? n : null));
    const load = loadavg()[0];
    const openexr = openexrMs();
    const rss = rssSampler(process.pid, 50);
    const t0 = performance.now();
    figures = await host.levelStatistics({ fileId: file.id, part: 0, channels, histogram: rgb });
    const hostMs = performance.now() - t0;
    rss.stop();
    runs.push({
      load1: load,
      openexrMs: Math.round(openexr),
      hostMs: Math.round(hostMs),
      ratio: +(hostMs / openexr).toFixed(2),
      peakRssMB: Math.round(rss.peak() / 2 ** 20),
      timings: figures.timings,
    });
    log(JSON.stringify(runs.at(-1)));
  } finally {
    await host.close();
  }
}
// the codec's own single-threaded statistics of the same file
const cli = spawnSync(process.execPath, [join(root, 'bin', 'exrview.mjs'), 'stats', values.file, '--json'], {
  encoding: 'utf8',
  maxBuffer: 1 << 24,
});
const reference = JSON.parse(cli.stdout).parts[0].channels;
// the CLI's JSON has 9 significant digits: differences within that are agreement
const rel = (a, b) => Math.abs(a - b) / Math.max(1e-30, Math.abs(b));
const agreement = figures.channels.map((c) => {
  const r = reference.find((x) => x.name === c.name);
  return {
    name: c.name,
    minRelError: rel(c.min, r.min),
    maxRelError: rel(c.max, r.max),
    meanRelError: rel(c.mean, r.mean),
    nanSame: c.nan === (r.nanCount ?? 0),
    infSame: c.inf === (r.infCount ?? 0),
  };
});
const agree = agreement.every((a) => a.minRelError < 1e-8 && a.maxRelError < 1e-8 && a.meanRelError < 1e-8 && a.nanSame && a.infSame);
rmSync(work, { recursive: true, force: true });
const best = runs.reduce((a, b) => (b.ratio < a.ratio ? b : a));
console.log(JSON.stringify({ file: values.file, workers: Number(values.workers), runs, bestRatio: best.ratio, agree, agreement }));

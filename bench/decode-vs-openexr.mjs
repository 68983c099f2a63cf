#!/usr/bin/env node
// Decode speed against OpenEXR 3.4 (libdeflate) side by side in one run: the whole folder, its ZIP and PIZ subsets, and
// one file of each other compression. Each round runs OpenEXR's exr_decode_ref (as many threads as cores), `exrview bench`
// (warm: after its untimed pass) and `exrview bench --no-warmup` (cold: the first pass of a fresh process), in turns.
// Usage: node bench/decode-vs-openexr.mjs DIR [--rounds N] [--sets all,zip,piz,each] [--settle-s S]   (DIR: ../shared/tools/make-bench-set.sh)
// A cold run starts S seconds (default 4) after the run before it ended: a virtual machine that reports free memory to
// its host does so a couple of seconds after a free, and a user's first start does not find the last process's memory
// still backed (host/decode/huge-pages.ts).
// speed = OpenEXR's time / exrview's time (best of the rounds): above 1 exrview is faster. JSON on the last line.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const dir = process.argv[2];
const rounds = Number(arg('rounds', '2'));
const settleMs = 1000 * Number(arg('settle-s', '4'));
const wanted = arg('sets', 'all,zip,piz,each').split(',');
if (!dir || dir.startsWith('--')) {
  console.error(
    'usage: node bench/decode-vs-openexr.mjs DIR [--rounds N] [--sets all,zip,piz,each] [--settle-s S]   (DIR: e.g. from ../shared/tools/make-bench-set.sh)',
  );
  process.exit(2);
}
const refTool = join(process.env.EXR_REF_DIR ?? join(root, '..', 'shared', 'tools', 'openexr-3.4'), 'exr_decode_ref');
if (!existsSync(refTool)) {
  console.error(`no OpenEXR reference decoder at ${refTool}: set EXR_REF_DIR to the folder holding exr_decode_ref`);
  process.exit(1);
}
const threads = availableParallelism();
const all = readdirSync(dir)
  .filter((n) => n.endsWith('.exr'))
  .sort();
const compressionOf = (name) => /_([a-z0-9]+)\.exr$/.exec(name)?.[1] ?? 'other';

/** A folder holding `names` of DIR (hard links, else copies): exrview bench takes folders. */
function subset(names) {
  const d = mkdtempSync(join(tmpdir(), 'exrview-set-'));
  for (const n of names) {
    try {
      linkSync(join(dir, n), join(d, n));
    } catch {
      copyFileSync(join(dir, n), join(d, n));
    }
  }
  return d;
}

const sets = [];
if (wanted.includes('all')) sets.push({ name: 'all', names: all });
for (const c of ['zip', 'piz']) if (wanted.includes(c)) sets.push({ name: `${c} only`, names: all.filter((n) => compressionOf(n) === c) });
if (wanted.includes('each')) {
  for (const c of [...new Set(all.map(compressionOf))].filter((c) => c !== 'zip' && c !== 'piz'))
    sets.push({ name: `${c} (1 file)`, names: all.filter((n) => compressionOf(n) === c).slice(0, 1) });
}

function openexrMs(folder, names) {
  const out = execFileSync(refTool, [String(threads), ...names.map((n) => join(folder, n))], { encoding: 'utf8' });
  return Number(/total ([\d.]+) ms/.exec(out)[1]);
}

function exrviewMs(folder, cold) {
  const r = spawnSync(process.execPath, [join(root, 'bin/exrview.mjs'), 'bench', folder, '--json', ...(cold ? ['--no-warmup'] : [])], {
    encoding: 'utf8',
  });
  const summary = JSON.parse(r.stdout.trim().split('\n').pop());
  if (summary.failures?.length) throw new Error(`exrview failed on ${summary.failures.map((f) => f.file).join(', ')}`);
  return summary;
}

const best = (xs) => Math.min(...xs);
const round = (v, d = 3) => Number(v.toFixed(d));
const results = [];
for (const set of sets) {
  if (set.names.length === 0) continue;
  const folder = subset(set.names);
  try {
    // the page cache warm for both, then turns so machine noise hits both alike
    openexrMs(folder, set.names);
    const o = [],
      warm = [],
      cold = [],
      stages = [];
    for (let i = 0; i < rounds; i++) {
      o.push(openexrMs(folder, set.names));
      const w = exrviewMs(folder, false);
      warm.push(w.decode.wallMs);
      stages.push(w.stages);
      await new Promise((resolve) => setTimeout(resolve, settleMs));
      cold.push(exrviewMs(folder, true).decode.wallMs);
    }
    const speed = best(o) / best(warm);
    const coldSpeed = best(o) / best(cold);
    results.push({
      set: set.name,
      files: set.names.length,
      openexrMs: o,
      exrviewWarmMs: warm,
      exrviewColdMs: cold,
      speed: round(speed),
      coldSpeed: round(coldSpeed),
      coldOverWarm: round(best(cold) / best(warm)),
      stages: stages[warm.indexOf(best(warm))],
    });
    console.log(
      `${set.name.padEnd(16)} OpenEXR 3.4 ${best(o).toFixed(0).padStart(6)} ms   exrview warm ${best(warm).toFixed(0).padStart(6)} ms (${speed.toFixed(2)}x)   cold ${best(cold).toFixed(0).padStart(6)} ms (${coldSpeed.toFixed(2)}x)`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
console.log(JSON.stringify({ bench: 'decode-vs-openexr', openexr: refTool, threads, rounds, settleMs, results }));

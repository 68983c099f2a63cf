// `exrview thumbs` against `exrview bench` on the same folder, interleaved, then thumbs again on a warm cache;
// and bench's own thumbnail pass against its decode (same workers, after its warm-up pass).
// Usage: node bench/thumbs-vs-decode.mjs DIR [--rounds N] [--settle-s S]. Prints one JSON object on its last line.
// Each cold command starts S seconds (default 4) after the last one ended: a guest that reports free memory to its host
// does so a couple of seconds after a free, and a run that follows sooner finds the last one's memory still backed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = process.argv[2];
const roundsArg = process.argv.indexOf('--rounds');
const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 3;
const settleArg = process.argv.indexOf('--settle-s');
const settleS = settleArg > 0 ? Number(process.argv[settleArg + 1]) : 4;
const settle = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, settleS * 1000);
if (!dir) {
  console.error('usage: node bench/thumbs-vs-decode.mjs DIR [--rounds N] [--settle-s S]');
  process.exit(2);
}
const bin = join(root, 'bin', 'exrview.mjs');

function run(args, env = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`exrview ${args.join(' ')} failed: ${r.stderr.trim().slice(-300)}`);
  return r.stdout;
}

/** The summary's own figure: "N thumbnails in X ms". */
function thumbs(cacheDir) {
  const out = mkdtempSync(join(tmpdir(), 'exrview-thumbs-out-'));
  try {
    const text = run(['thumbs', dir, '--out', out, '--gpu', 'off'], { EXRVIEW_CACHE_DIR: cacheDir });
    const m = /(\d+) thumbnails in ([\d.]+) ms/.exec(text);
    if (!m) throw new Error(`no timing summary in: ${text.slice(-300)}`);
    return { count: Number(m[1]), ms: Number(m[2]), summary: text.trim().split('\n') };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const median = (v) => v.slice().sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)];
const best = (v) => Math.min(...v);
const decodeMs = [];
const benchThumbsOverDecode = [];
const decodeColdMs = [];
const coldMs = [];
const warmMs = [];
let lastCold;
let lastWarm;
for (let i = 0; i < rounds; i++) {
  const cache = mkdtempSync(join(tmpdir(), 'exrview-thumbs-cache-'));
  try {
    // the decode as one cold command, like thumbs (whose main thread is not warmed either: EXRVIEW_WARM_UP_JOBS=0);
    // and after an untimed warm-up pass (steady state)
    settle();
    decodeColdMs.push(
      JSON.parse(run(['bench', dir, '--json', '--no-warmup'], { EXRVIEW_WARM_UP_JOBS: '0' }).trim().split('\n').pop()).decode.wallMs,
    );
    const warm = JSON.parse(run(['bench', dir, '--json']).trim().split('\n').pop());
    decodeMs.push(warm.decode.wallMs);
    benchThumbsOverDecode.push(warm.thumbnails.overDecode);
    settle();
    lastCold = thumbs(cache);
    coldMs.push(lastCold.ms);
    lastWarm = thumbs(cache);
    warmMs.push(lastWarm.ms);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}
const result = {
  files: lastCold.count,
  rounds,
  settleS,
  fullDecodeColdMs: { median: median(decodeColdMs), best: best(decodeColdMs), all: decodeColdMs },
  fullDecodeWarmMs: { median: median(decodeMs), best: best(decodeMs), all: decodeMs },
  thumbsColdMs: { median: median(coldMs), best: best(coldMs), all: coldMs },
  thumbsWarmMs: { median: median(warmMs), all: warmMs },
  thumbsOverColdDecode: Number((median(coldMs) / median(decodeColdMs)).toFixed(3)),
  /** The same from the best run of each (the host's noise only ever adds time). */
  thumbsOverColdDecodeBest: Number((best(coldMs) / best(decodeColdMs)).toFixed(3)),
  /** Round by round: the two commands ran seconds apart, under the same load. */
  thumbsOverColdDecodePerRound: coldMs.map((ms, i) => Number((ms / decodeColdMs[i]).toFixed(3))),
  thumbsOverWarmDecode: Number((median(coldMs) / median(decodeMs)).toFixed(3)),
  /** `exrview bench`: its thumbnail pass over its decode pass, both after the warm-up, same workers (no cache, no PNG). */
  benchThumbnailsOverDecode: { median: median(benchThumbsOverDecode), all: benchThumbsOverDecode },
  coldSummary: lastCold.summary,
  warmSummary: lastWarm.summary,
};
console.log(
  `full decode ${result.fullDecodeColdMs.median} ms cold, ${result.fullDecodeWarmMs.median} ms warm; thumbs ${result.thumbsColdMs.median} ms ` +
    `(${result.thumbsOverColdDecode}x cold decode, ${result.thumbsOverColdDecodeBest}x by the best runs, ${result.thumbsOverWarmDecode}x warm); thumbs on a warm cache ${result.thumbsWarmMs.median} ms; ` +
    `bench's thumbnail pass ${result.benchThumbnailsOverDecode.median}x its decode pass`,
);
console.log(JSON.stringify(result));

// Decode speed against the OpenEXR C++ library, interleaved in one run: `node bench/decode-vs-openexr.mjs DIR [--rounds N]`.
// Builds ../shared/tools' reference decoder when missing; prints one JSON object on its last line.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = process.argv[2];
const roundsArg = process.argv.indexOf('--rounds');
const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 5;
if (!dir) {
  console.error('usage: node bench/decode-vs-openexr.mjs DIR [--rounds N]   (DIR: e.g. from ../shared/tools/make-bench-set.sh)');
  process.exit(2);
}
const refDir = process.env.EXR_REF_DIR ?? '/tmp/exr-ref';
const refTool = join(refDir, 'exr_decode_ref');
if (!existsSync(refTool)) {
  const builder = join(root, '..', 'shared', 'tools', 'build-ref-tools.sh');
  if (!existsSync(builder)) {
    console.error(`no reference decoder at ${refTool} and no ${builder} to build it`);
    process.exit(1);
  }
  execFileSync('bash', [builder, refDir], { stdio: 'inherit' });
}
const files = readdirSync(dir).filter((n) => n.endsWith('.exr')).sort().map((n) => join(dir, n));
const threads = availableParallelism();

function runOpenExr() {
  const out = execFileSync(refTool, [String(threads), ...files], { encoding: 'utf8' });
  const m = /total ([\d.]+) ms/.exec(out);
  if (!m) throw new Error(`unexpected reference output: ${out.slice(-200)}`);
  return Number(m[1]);
}

function runExrview() {
  const r = spawnSync(process.execPath, [join(root, 'bin/exrview.mjs'), 'bench', dir, '--json'], { encoding: 'utf8' });
  const last = r.stdout.trim().split('\n').pop();
  const summary = JSON.parse(last);
  if (summary.failures?.length) throw new Error(`exrview failed on ${summary.failures.map((f) => f.file).join(', ')}`);
  return summary;
}

const median = (values) => {
  const s = values.slice().sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};

// warm the page cache and both programs once, then alternate so machine noise hits both alike
runOpenExr();
runExrview();
const openexrMs = [];
const exrviewMs = [];
const summaries = [];
for (let i = 0; i < rounds; i++) {
  const order = i % 2 === 0 ? ['o', 'e'] : ['e', 'o'];
  for (const who of order) {
    if (who === 'o') openexrMs.push(runOpenExr());
    else {
      const s = runExrview();
      summaries.push(s);
      exrviewMs.push(s.decode.wallMs);
    }
  }
}
const stageSums = summaries.reduce(
  (acc, s) => ({ readMs: acc.readMs + s.stages.readMs, decompressMs: acc.decompressMs + s.stages.decompressMs, unpackMs: acc.unpackMs + s.stages.unpackMs }),
  { readMs: 0, decompressMs: 0, unpackMs: 0 },
);
const busy = stageSums.readMs + stageSums.decompressMs + stageSums.unpackMs;
const result = {
  files: files.length,
  pixels: summaries[0].pixels,
  threads,
  rounds,
  openexrMs: { median: median(openexrMs), all: openexrMs },
  exrviewMs: { median: median(exrviewMs), all: exrviewMs },
  ratio: Number((median(exrviewMs) / median(openexrMs)).toFixed(3)),
  stageShare: {
    read: Number((stageSums.readMs / busy).toFixed(3)),
    decompress: Number((stageSums.decompressMs / busy).toFixed(3)),
    unpack: Number((stageSums.unpackMs / busy).toFixed(3)),
  },
};
console.log(`OpenEXR ${threads} threads: median ${result.openexrMs.median} ms; exrview pool: median ${result.exrviewMs.median} ms; ratio ${result.ratio}`);
console.log(JSON.stringify(result));

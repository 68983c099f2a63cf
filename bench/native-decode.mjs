// Whole decode with the native kernels on and off, beside OpenEXR 3.4: `node bench/native-decode.mjs DIR [--rounds N]`.
//
// Each round runs `exrview bench DIR --json` with the native kernels, again with EXRVIEW_NATIVE=0 EXRVIEW_WASM=0,
// and OpenEXR's reference decoder (../shared/tools/openexr-3.4/exr_decode_ref, or EXR_DECODE_REF)
// with as many threads as cores, in an order that rotates so machine noise hits all three alike.
// Reports the medians of decode.wallMs and of the summed decompress stage; one JSON object on the
// last line. Run `npm run build` first.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = process.argv[2];
const roundsArg = process.argv.indexOf('--rounds');
const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 5;
if (!dir) {
  console.error('usage: node bench/native-decode.mjs DIR [--rounds N]');
  process.exit(2);
}
const refTool = process.env.EXR_DECODE_REF ?? join(root, '..', 'shared', 'tools', 'openexr-3.4', 'exr_decode_ref');
const threads = availableParallelism();
const files = execFileSync('sh', ['-c', 'ls "$0"/*.exr', dir], { encoding: 'utf8' }).trim().split('\n');

function runExrview(nativeOn) {
  // the other side is the TypeScript codecs, not the WebAssembly tier below native
  const env = { ...process.env, EXRVIEW_NATIVE: nativeOn ? '1' : '0', EXRVIEW_WASM: nativeOn ? '1' : '0' };
  const r = spawnSync(process.execPath, [join(root, 'bin/exrview.mjs'), 'bench', dir, '--json'], { encoding: 'utf8', env });
  const summary = JSON.parse(r.stdout.trim().split('\n').pop());
  if (summary.failures?.length) throw new Error(`exrview failed on ${summary.failures.map((f) => f.file).join(', ')}`);
  return { wallMs: summary.decode.wallMs, decompressMs: summary.stages.decompressMs, kernels: summary.nativeKernels };
}

function runOpenExr() {
  const out = execFileSync(refTool, [String(threads), ...files], { encoding: 'utf8' });
  const m = /total ([\d.]+) ms/.exec(out);
  if (!m) throw new Error(`unexpected reference output: ${out.slice(-200)}`);
  return { wallMs: Number(m[1]) };
}

const median = (values) => {
  const s = values.slice().sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};

const runners = {
  native: () => runExrview(true),
  typescript: () => runExrview(false),
  ...(existsSync(refTool) ? { openexr: runOpenExr } : {}),
};
const names = Object.keys(runners);
const results = Object.fromEntries(names.map((n) => [n, []]));
// warm the page cache and each program once
for (const name of names) runners[name]();
for (let round = 0; round < rounds; round++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(round + k) % names.length];
    results[name].push(runners[name]());
  }
}
const summary = Object.fromEntries(
  names.map((name) => [
    name,
    {
      wallMs: median(results[name].map((r) => r.wallMs)),
      ...(name === 'openexr'
        ? {}
        : { decompressMs: median(results[name].map((r) => r.decompressMs)), nativeKernels: results[name][0].kernels }),
      allWallMs: results[name].map((r) => r.wallMs),
    },
  ]),
);
const result = { files: files.length, threads, rounds, openexr: existsSync(refTool) ? refTool : null, ...summary };
for (const name of names)
  console.log(
    `${name.padEnd(10)} decode wall median ${summary[name].wallMs} ms${summary[name].decompressMs !== undefined ? `, decompress stage ${summary[name].decompressMs} ms summed over workers` : ''}`,
  );
console.log(JSON.stringify(result));

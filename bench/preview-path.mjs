#!/usr/bin/env node
// The preview path alone: the host's decodeImage of one file (every worker on its bands, a cold RAM cache: a new host
// each run), side by side with OpenEXR 3.4 decoding the same file with as many threads. Runs from dist/ with Node alone.
// Usage: node bench/preview-path.mjs FILE.exr [--runs N] [--channels R,G,B,A]   Prints one JSON object on its last line.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const file = process.argv[2] && !process.argv[2].startsWith('--') ? resolve(process.argv[2]) : null;
if (!file) {
  console.error('usage: node bench/preview-path.mjs FILE.exr [--runs N] [--channels R,G,B,A]');
  process.exit(2);
}
const runs = Number(arg('runs', '5'));
const channels = arg('channels', '')?.split(',').filter(Boolean);
const refTool = join(process.env.EXR_REF_DIR ?? join(root, '..', 'shared', 'tools', 'openexr-3.4'), 'exr_decode_ref');
const threads = availableParallelism();
// the host from the bundle (dist/host.mjs): no npm packages needed
const { createHost } = await import(join(root, 'dist', 'host.mjs'));

const hostMs = [];
let stages = null;
for (let i = 0; i < runs; i++) {
  const userData = mkdtempSync(join(tmpdir(), 'exrview-preview-'));
  const host = createHost({ userDataDir: userData, prefetch: false });
  try {
    const folder = await host.openFolder(dirname(file));
    const entry = (await host.listFiles(folder.id)).find((f) => f.name === basename(file));
    if (!entry) throw new Error(`${file} is not listed (is it a readable EXR?)`);
    await host.startWorkers();
    const t0 = performance.now();
    const image = await host.decodeImage({
      requestId: `p${i}`,
      fileId: entry.id,
      part: 0,
      priority: 'preview',
      ...(channels?.length ? { channels } : {}),
    });
    hostMs.push(performance.now() - t0);
    stages = image.timings;
  } finally {
    await host.close();
    rmSync(userData, { recursive: true, force: true });
  }
}
const openexrMs = [];
if (existsSync(refTool))
  for (let i = 0; i < runs; i++)
    openexrMs.push(Number(/total ([\d.]+) ms/.exec(execFileSync(refTool, [String(threads), file], { encoding: 'utf8' }))[1]));
const best = (xs) => (xs.length ? Math.min(...xs) : null);
const round = (v) => (v === null ? null : Number(v.toFixed(2)));
console.log(
  JSON.stringify({
    bench: 'preview-path',
    file: basename(file),
    threads,
    runs,
    channels: channels?.length ? channels : 'all',
    hostReadyMs: { best: round(best(hostMs)), all: hostMs.map(round) },
    openexr34Ms: { best: round(best(openexrMs)), all: openexrMs.map(round) },
    speed: openexrMs.length ? round(best(openexrMs) / best(hostMs)) : null,
    stages,
  }),
);

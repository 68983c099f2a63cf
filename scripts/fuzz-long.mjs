#!/usr/bin/env node
// The long fuzz run: `node scripts/fuzz-long.mjs --seconds 600 [--seed N]`; findings go to a folder, a JSON summary is the last line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'exrview-fuzz-build-'));
try {
  const common = {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'error',
    packages: 'external',
  };
  await build({ ...common, entryPoints: [join(root, 'testing/codec/fuzz/long-run.ts')], outfile: join(work, 'long-run.mjs') });
  await build({ ...common, entryPoints: [join(root, 'testing/codec/fuzz/case-worker.ts')], outfile: join(work, 'case-worker.mjs') });
  const { main } = await import(pathToFileURL(join(work, 'long-run.mjs')).href);
  process.exitCode = await main(process.argv.slice(2), root, join(work, 'case-worker.mjs'));
} finally {
  rmSync(work, { recursive: true, force: true });
}

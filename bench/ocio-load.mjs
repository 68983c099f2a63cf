#!/usr/bin/env node
// Time to load a built-in OCIO config and build its first processor (the first display's first view, from the space an EXR's
// file rule gives), cold (a fresh `node` per run) and warm (again in the same process); prints one JSON object on its last line.
// `node bench/ocio-load.mjs [--runs N] [--warm N] [--config ocio://...]...` (defaults: 10 cold runs, 20 warm, ocio://default
// and ocio://studio-config-latest). Bundles shaders/colour/ into dist/ocio-load-bench/ first (--no-build: use the one there),
// the built-in configs split into chunks of their own as the app's bundle holds them. Wall and CPU times both: on a shared
// machine the wall time is mostly the wait for a core.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/ocio-load-bench`;
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};

if (args[0] === '--child') {
  await child(args[1], Number(args[2]));
} else {
  await parent();
}

/** One fresh process: the cold load (module import, config, processor), then `warm` more loads of the same config. */
async function child(uri, warm) {
  const cpuMs = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  const [t0, cpu0] = [performance.now(), cpuMs()];
  const colour = await import(pathToFileURL(`${outdir}/index.mjs`).href);
  const [imported, cpuImported] = [performance.now(), cpuMs()];
  const reader = {
    readText: () => {
      throw new Error('a built-in config reads no files');
    },
    readBytes: () => {
      throw new Error('a built-in config reads no files');
    },
    env: {},
  };
  const loadOnce = async () => {
    const start = performance.now();
    const opened = await colour.openConfig(uri, reader);
    const parsed = performance.now();
    const config = opened.config;
    const display = colour.activeDisplays(config)[0];
    const view = colour.activeViews(config, display)[0];
    const input = colour.colourSpaceOfPath(config, 'shot.0001.exr');
    const builder = new colour.ProcessorBuilder(config, opened.files);
    const ops = builder.displayView(input, display.name, view.name);
    const end = performance.now();
    return {
      totalMs: end - start,
      configMs: parsed - start,
      processorMs: end - parsed,
      processor: [input, display.name, view.name],
      ops: ops.length,
    };
  };
  const first = await loadOnce();
  const cpuLoaded = cpuMs();
  const warmMs = [];
  for (let k = 0; k < warm; k++) warmMs.push((await loadOnce()).totalMs);
  // from the process's own start: what a user waits for in a fresh `exrview` beyond Node's start-up
  // CPU time beside wall time: on a shared machine the wall time mostly measures the wait for a core
  const cold = {
    importMs: imported - t0,
    ...first,
    coldMs: imported - t0 + first.totalMs,
    coldCpuMs: cpuLoaded - cpu0,
    importCpuMs: cpuImported - cpu0,
    sinceProcessStartMs: imported + first.totalMs,
  };
  process.stdout.write(JSON.stringify({ cold, warmMs }) + '\n');
}

async function parent() {
  const runs = Number(option('--runs', 10));
  const warm = Number(option('--warm', 20));
  const configs = args.flatMap((a, k) => (args[k - 1] === '--config' ? [a] : []));
  if (configs.length === 0) configs.push('ocio://default', 'ocio://studio-config-latest');
  // --no-build: run the bundle made earlier (on a machine without the dev dependencies)
  if (!args.includes('--no-build')) await bundle();
  const os = await import('node:os');
  const results = {};
  for (const uri of configs) {
    const cold = [];
    const wallMs = [];
    const warmMs = [];
    let processor;
    for (let run = 0; run < runs; run++) {
      const start = performance.now();
      const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', uri, String(run === 0 ? warm : 0)], {
        encoding: 'utf8',
      });
      wallMs.push(performance.now() - start);
      if (r.status !== 0) throw new Error(`child failed for ${uri}: ${r.stderr}`);
      const out = JSON.parse(r.stdout.trim().split('\n').at(-1));
      cold.push(out.cold);
      warmMs.push(...out.warmMs);
      processor = out.cold.processor;
    }
    const stats = (values) => {
      const sorted = [...values].sort((a, b) => a - b);
      const round = (v) => Math.round(v * 10) / 10;
      return { bestMs: round(sorted[0]), medianMs: round(sorted[sorted.length >> 1]), n: sorted.length };
    };
    results[uri] = {
      processor,
      cold: stats(cold.map((c) => c.coldMs)),
      coldCpu: stats(cold.map((c) => c.coldCpuMs)),
      importCpu: stats(cold.map((c) => c.importCpuMs)),
      coldParts: {
        importMs: stats(cold.map((c) => c.importMs)),
        configMs: stats(cold.map((c) => c.configMs)),
        processorMs: stats(cold.map((c) => c.processorMs)),
      },
      coldProcessWall: stats(wallMs),
      warm: stats(warmMs),
    };
    console.log(`${uri}: cold ${JSON.stringify(results[uri].cold)} warm ${JSON.stringify(results[uri].warm)}`);
  }
  console.log(
    JSON.stringify({
      bench: 'ocio-load',
      targetMs: 100,
      node: process.version,
      cpus: os.cpus().length,
      loadAverage: os.loadavg().map((v) => Math.round(v * 100) / 100),
      results,
    }),
  );
}

async function bundle() {
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: root,
    entryPoints: [{ in: 'shaders/colour/index.ts', out: 'index' }],
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);",
    },
  });
}

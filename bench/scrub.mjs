#!/usr/bin/env node
// Bench in Chromium (WebGPU): frame time while scrubbing exposure on a 4K image (median, p95; each step timed from the
// parameter change to the GPU finishing the frame), uploads that caused (must be 0), and time to show an image already
// in the GPU cache. Prints one JSON object on its last line. Usage: node bench/scrub.mjs [--steps N] [--size WxH] [--compare]
// --compare: two images compared as the app does (A shown, B the reference): frame time of compare-mode and exposure
// changes in turn (every mode), the compare pass's GPU time, the metrics and difference-statistics reductions' GPU time,
// and the loads and uploads the changes caused (must be 0).
import { build } from 'esbuild';
import { chromium } from 'playwright';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS as args, CHROMIUM_PATH } from '../scripts/chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const steps = Number(arg('steps', '60'));
const [widthPx, heightPx] = arg('size', '3840x2160').split('x').map(Number);
const executablePath = CHROMIUM_PATH;
if (!existsSync(executablePath)) {
  console.log(JSON.stringify({ skipped: `no Chromium at ${executablePath}` }));
  process.exit(0);
}
const gpuArgs = process.env.EXRVIEW_BENCH_HW ? ['--no-sandbox', '--enable-unsafe-webgpu', '--enable-features=Vulkan'] : args;

const dir = mkdtempSync(join(tmpdir(), 'exrview-bench-'));
await build({
  entryPoints: [join(root, 'testing/renderer/gpu-harness.ts')],
  bundle: true,
  format: 'esm',
  outfile: join(dir, 'h.js'),
  loader: { '.wgsl': 'text' },
  target: 'es2022',
  logLevel: 'warning',
});
const js = readFileSync(join(dir, 'h.js'));
const server = createServer((req, res) => {
  if (req.url === '/h.js') {
    res.setHeader('content-type', 'text/javascript');
    res.end(js);
    return;
  }
  res.setHeader('content-type', 'text/html');
  res.end('<!doctype html><html><body><script type="module" src="/h.js"></script></body></html>');
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await chromium.launch({ executablePath, args: gpuArgs, headless: true });
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => 'gpuHarness' in window);
  const q = (xs, p) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
  };
  const round = (v) => (Number.isFinite(v) ? Math.round(v * 100) / 100 : null);
  if (process.argv.includes('--compare')) {
    const c = await page.evaluate(([w, h, n]) => window.gpuHarness.benchCompareScrub(w, h, n), [widthPx, heightPx, steps]);
    const stat = (xs) => {
      const f = xs.filter(Number.isFinite);
      return f.length ? { median: round(q(f, 0.5)), p95: round(q(f, 0.95)) } : 'n/a';
    };
    console.log(
      JSON.stringify({
        bench: 'compare scrub',
        adapter: c.adapter,
        images: `2 × ${widthPx}x${heightPx} half RGBA`,
        canvas: '1280x720',
        steps,
        modeChangeFrameMs: stat(c.modeMs),
        exposureChangeFrameMs: stat(c.exposureMs),
        comparePassGpuMs: stat(c.gpuMs),
        metricsGpuMs: stat(c.metricsGpuMs),
        differenceStatsGpuMs: stat(c.statsGpuMs),
        loadsDuringChanges: c.loadsCaused,
        uploadsDuringChanges: c.uploadsCaused,
        compareFrames: c.compareFrames,
      }),
    );
  } else {
    const r = await page.evaluate(([w, h, n]) => window.gpuHarness.benchScrub(w, h, n), [widthPx, heightPx, steps]);
    const gpu = r.gpuMs.filter(Number.isFinite);
    const summary = {
      bench: 'scrub',
      adapter: r.adapter,
      image: `${widthPx}x${heightPx} half RGBA`,
      canvas: '1280x720',
      steps,
      frameMs: { median: round(q(r.stepMs, 0.5)), p95: round(q(r.stepMs, 0.95)) },
      toneMapGpuMs: gpu.length ? { median: round(q(gpu, 0.5)), p95: round(q(gpu, 0.95)) } : 'n/a',
      uploadsDuringScrub: r.uploadsCaused,
      cachedShowMs: { median: round(q(r.cachedShowMs, 0.5)), max: round(Math.max(...r.cachedShowMs)) },
      firstShowMs: round(r.firstShowMs),
      firstUploadBytes: r.firstUploadBytes,
      mipGpuMs: round(r.mipGpuMs),
    };
    console.log(JSON.stringify(summary));
  }
} finally {
  await browser.close();
  server.close();
}

#!/usr/bin/env node
// Bench in browser mode (Chromium, WebGPU): click a thumbnail, then click → host ready → transfer done → upload done →
// first sharp frame, per stage, with a cold RAM cache (a fresh `exrview serve`) and a warm one (the page reloaded, the
// server kept); then a layer switch. Side by side with OpenEXR 3.4 decoding the same file (exr_decode_ref, 2 threads).
// Each run also gives its own row: host ready against OpenEXR's decode measured just before it, the machine's load
// average, the grid frames drawn between the click and the first frame (none: the click comes first), and the CPU
// time the server, Chromium and the whole machine spent while the host decoded (/proc: proc-cpu.mjs), which says what
// the host needed and who else ran when the load makes wall times swing.
// Usage: node bench/click-to-pixels.mjs FILE.exr [FILE.exr ...] [--runs N]   Prints one JSON object on its last line.
import { chromium } from 'playwright';
import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleCpu } from './proc-cpu.mjs';
import { CHROMIUM_ARGS as args, CHROMIUM_PATH } from '../scripts/chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 3;
const files = argv.filter((a, i) => a.endsWith('.exr') && argv[i - 1] !== '--runs').map((f) => resolve(f));
if (files.length === 0) {
  console.error(
    'usage: node bench/click-to-pixels.mjs FILE.exr [FILE.exr ...] [--runs N]   (e.g. bench/make-multilayer.sh makes a 23-channel 4K file)',
  );
  process.exit(2);
}
const executablePath = CHROMIUM_PATH;
if (!existsSync(executablePath)) {
  console.log(JSON.stringify({ skipped: `no Chromium at ${executablePath}` }));
  process.exit(0);
}
const refTool = join(root, '..', 'shared', 'tools', 'openexr-3.4', 'exr_decode_ref');

/** `exrview serve` on a folder holding only `file`, with its own user data folder; resolves with its URL and pid. */
async function serve(file) {
  const dir = mkdtempSync(join(tmpdir(), 'exrview-click-'));
  // browser mode lists no symlink that points out of the served folder: a hard link (or a copy across file systems)
  try {
    linkSync(file, join(dir, basename(file)));
  } catch {
    copyFileSync(file, join(dir, basename(file)));
  }
  const userData = mkdtempSync(join(tmpdir(), 'exrview-click-user-'));
  const child = spawn(process.execPath, [join(root, 'bin/exrview.mjs'), 'serve', dir, '--port', '0'], {
    env: { ...process.env, EXRVIEW_USER_DATA: userData, XDG_CACHE_HOME: userData },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m) ok(m[1]);
    });
    child.on('exit', (code) => fail(new Error(`exrview serve exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid,
    stop: () => {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
      rmSync(userData, { recursive: true, force: true });
    },
  };
}

/** Peak resident memory of a process so far (Linux), MB. */
function peakRssMb(pid) {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return null;
  }
}
function rssMb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return null;
  }
}

/** Clicks the file's thumbnail and waits for the record the controller writes once the first frame showing it is submitted. */
async function clickAndMeasure(page, name, serverPid = null) {
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name }).waitFor();
  // an artist clicks a thumbnail they see: its decode is done, so the click's decode does not share the cores with it
  await page.waitForFunction(() => window.exrviewApp.controller.thumbsShown >= 1, null, { timeout: 300_000 });
  const before = await page.evaluate(() => window.exrviewApp.controller.records.length);
  const t0 = await page.evaluate(() => performance.now());
  // the grid frames drawn from the click until the picked image's first frame lets the page's other work go
  await page.evaluate(() => {
    const c = window.exrviewApp.controller;
    const from = c.engine.stats().gridFrames;
    window.gridFramesDuringLoad = null;
    const stop = c.foreground?.subscribe((loading) => {
      if (loading) return;
      window.gridFramesDuringLoad = c.engine.stats().gridFrames - from;
      stop();
    });
  });
  const cpu = serverPid ? sampleCpu(serverPid) : null;
  await page.getByRole('listbox', { name: 'Images' }).getByRole('option', { name }).click();
  const r = await record(page, before, t0);
  cpu?.stop();
  // the decode workers: as many as the host starts by default
  const cpuDuringHost = cpu && r.hostSource === 'decode' ? cpu.during(r.hostMs, availableParallelism()) : null;
  return { ...r, gridFramesDuringLoad: await page.evaluate(() => window.gridFramesDuringLoad), cpuDuringHost };
}

async function record(page, before, t0) {
  await page.waitForFunction((n) => window.exrviewApp.controller.records.length > n, before, { timeout: 300_000 });
  // the upload's wall time arrives once the GPU has done the copies
  await page.waitForFunction(
    () => {
      const r = window.exrviewApp.controller.records.at(-1);
      return r.show.source !== 'uploaded' || Number.isFinite(r.show.uploadWallMs);
    },
    null,
    { timeout: 300_000 },
  );
  return page.evaluate((start) => {
    const c = window.exrviewApp.controller;
    const r = c.records.at(-1);
    const s = c.engine.stats();
    return {
      clickToFrameMs: r.at - performance.timeOrigin - start,
      hostSource: r.hostSource,
      hostMs: r.host?.hostMs ?? null,
      readMs: r.host?.readMs ?? null,
      decompressMs: r.host?.decompressMs ?? null,
      unpackMs: r.host?.unpackMs ?? null,
      transferBytes: r.transferBytes,
      transferMs: r.transferMs,
      transferGBps: r.transferMs > 0 ? r.transferBytes / 1e6 / r.transferMs : null,
      planesUploaded: r.show.planesUploaded,
      uploadBytes: r.show.uploadBytes,
      uploadCallMs: r.show.uploadCallMs,
      uploadWallMs: r.show.uploadWallMs,
      showMs: r.show.showMs,
      mipGpuMs: s.mipGpuMs,
      toneMapGpuMs: s.toneMapGpuMs,
      imageUploads: s.imageUploads,
    };
  }, t0);
}

function openexrMs(file) {
  if (!existsSync(refTool)) return null;
  const best = [];
  for (let i = 0; i < 3; i++) best.push(Number(/total ([\d.]+) ms/.exec(execFileSync(refTool, ['2', file], { encoding: 'utf8' }))[1]));
  return Math.min(...best);
}

const median = (xs) => {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};
/** The 1-minute load average: the machine is shared, so each run says how busy it was. */
const load1 = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

const round = (v) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 100) / 100 : v);

const results = [];
for (const file of files) {
  const name = basename(file);
  const cold = [];
  const warm = [];
  const layerSwitch = [];
  const openexr = [];
  const perRun = [];
  let rss = null;
  for (let run = 0; run < runs; run++) {
    const loadBefore = load1();
    openexr.push(openexrMs(file));
    const server = await serve(file);
    const browser = await chromium.launch({ executablePath, args, headless: true });
    try {
      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
      // a shared, loaded machine: waits as long as the slowest software-GPU step may take there
      page.setDefaultTimeout(300_000);
      await page.goto(server.url);
      await page.waitForFunction(() => window.exrviewApp?.controller?.engine, null, { timeout: 300_000 });
      const baseRss = rssMb(server.pid);
      cold.push(await clickAndMeasure(page, name, server.pid));
      const c = cold.at(-1);
      const oe = openexr.at(-1);
      perRun.push({
        run: run + 1,
        load1Before: loadBefore,
        load1After: load1(),
        openexr34Ms2Threads: oe,
        hostMs: round(c.hostMs),
        hostReadyOverOpenexr: oe ? round(c.hostMs / oe) : null,
        unpackMs: round(c.unpackMs),
        clickToFrameMs: round(c.clickToFrameMs),
        gridFramesDuringLoad: c.gridFramesDuringLoad,
        cpuDuringHost: c.cpuDuringHost,
      });
      console.error(JSON.stringify(perRun.at(-1)));
      rss = { baselineMb: baseRss, peakMb: peakRssMb(server.pid) };
      // a layer switch, where the file has another layer
      const layers = await page
        .getByRole('combobox', { name: 'Layer' })
        .locator('option')
        .evaluateAll((os) => os.map((o) => o.value));
      if (layers.length > 1) {
        const before = await page.evaluate(() => window.exrviewApp.controller.records.length);
        const t0 = await page.evaluate(() => performance.now());
        await page.getByRole('combobox', { name: 'Layer' }).selectOption(layers[1]);
        layerSwitch.push(await record(page, before, t0));
      }
      // warm RAM cache: a new page (no GPU cache), the same server
      await page.reload();
      await page.waitForFunction(() => window.exrviewApp?.controller?.engine, null, { timeout: 300_000 });
      warm.push(await clickAndMeasure(page, name));
    } finally {
      await browser.close();
      server.stop();
    }
  }
  const summarise = (xs) =>
    xs.length === 0
      ? null
      : Object.fromEntries(
          // per-run objects (the CPU accounting) stay in perRun
          Object.keys(xs[0])
            .filter((k) => typeof xs[0][k] !== 'object' || xs[0][k] === null)
            .map((k) => [k, typeof xs[0][k] === 'number' || xs[0][k] === null ? round(median(xs.map((x) => x[k]))) : xs[0][k]]),
        );
  const c = summarise(cold);
  const oe = median(openexr);
  results.push({
    file: name,
    runs,
    openexr34Ms2Threads: oe,
    cold: c,
    warm: summarise(warm),
    layerSwitch: summarise(layerSwitch),
    hostReadyOverOpenexr: oe && c ? round(c.hostMs / oe) : null,
    perRun,
    hostTransferUploadMs: c ? round(c.hostMs + c.transferMs + c.uploadCallMs) : null,
    serverRss: rss,
  });
}
console.log(
  JSON.stringify({
    bench: 'click-to-pixels',
    adapter: 'SwiftShader (software: MIP and tone-map times are not the product floor)',
    results,
  }),
);

#!/usr/bin/env node
// Load: a folder of N small EXRs (default 10,000, generated once into /tmp by the project's writer and kept) served in browser
// mode on a fresh thumbnail cache; headless Chromium (WebGPU on SwiftShader) opens it, waits for the first screen of thumbnails,
// then scrolls the grid end to end at a steady rate. Reports the server's peak RSS, the time to the first screen, the frame
// time (requestAnimationFrame deltas) p50/p95/max during the scroll and for 5 s at rest before it (the machine's share),
// the page's long tasks and JS heap, and how many thumbnails the page holds at the end.
// Usage: node bench/load-folder.mjs [--files N] [--scroll-s S] [--dir D] [--profile-s S] ; the last line is JSON.
// PROFILE_IDLE=1 also profiles the page over the 5 s at rest.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.mjs';
import { loadWriter, makeFolder, mb, quantile, root, rssSampler, startServer } from './load-common.mjs';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '10000' },
    /** How long the scroll from top to bottom takes (a steady rate: the grid's height over this). */
    'scroll-s': { type: 'string', default: '60' },
    /** Where the generated folder is kept between runs (made once per file count). */
    dir: { type: 'string' },
    build: { type: 'boolean', default: false },
    'first-screen-timeout-s': { type: 'string', default: '120' },
    /** CPU-profile the page's main thread over the scroll's first S seconds (CDP sampling); the top functions by self time. */
    'profile-s': { type: 'string', default: '0' },
  },
});
const FILES = Number(values.files);
const SCROLL_MS = Number(values['scroll-s']) * 1000;
const IDLE_MS = 5000;
const DIR = values.dir ?? join(tmpdir(), `exrview-folder-${FILES}`);
const log = (...a) => console.error('load-folder:', ...a);
const PROFILE_MS = Number(values['profile-s']) * 1000;

/** A CDP CPU profile summed by function: self ms, the top `count`, and the profile's span. */
function profileTop(profile, count = 20) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const f = byNode.get(profile.samples[i]).callFrame;
    const file = f.url ? f.url.split('/').at(-1) : '';
    const key = `${f.functionName || '(anonymous)'} ${file}${f.url ? `:${f.lineNumber + 1}` : ''}`;
    selfMs.set(key, (selfMs.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  const top = [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, count);
  return { spanMs: Math.round((profile.endTime - profile.startTime) / 1000), top: top.map(([fn, ms]) => ({ fn, ms: Math.round(ms) })) };
}

/** The folder, generated on the first run (a marker says it is whole); later runs reuse it. */
async function folder() {
  const marker = join(DIR, '.complete');
  if (existsSync(marker) && readdirSync(DIR).length === FILES + 1) return 0;
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'exrview-writer-'));
  const t0 = performance.now();
  makeFolder(await loadWriter(work), DIR, FILES, { baseW: 48, baseH: 32, spanW: 224, spanH: 150, rgbaEvery: 7 });
  rmSync(work, { recursive: true, force: true });
  writeFileSync(marker, '');
  return performance.now() - t0;
}

/** In the page: the visible options, and how many of the readable ones the engine holds a thumbnail for. */
const visibleState = () => {
  const app = window.exrviewApp;
  const files = app.store.getState().library.files;
  const byName = new Map(files.map((f) => [f.name, f]));
  const grid = document.querySelector('[role=listbox][aria-label=Images]').getBoundingClientRect();
  const names = [...document.querySelectorAll('[role=listbox][aria-label=Images] [role=option]')]
    .filter((o) => {
      const r = o.getBoundingClientRect();
      return r.bottom > grid.top && r.top < grid.bottom;
    })
    .map((o) => o.getAttribute('aria-label'));
  const ok = names.filter((n) => byName.get(n)?.status === 'ok');
  const withThumb = ok.filter((n) => app.controller.engine?.hasThumbnail(byName.get(n).id));
  return { visible: names.length, ok: ok.length, withThumb: withThumb.length, total: files.length };
};

/** In the page: requestAnimationFrame deltas over `durationMs` with nothing changing. */
const idleFrames = (durationMs) =>
  new Promise((resolve) => {
    const deltas = [];
    let last = null;
    const t0 = performance.now();
    const frame = (now) => {
      if (last !== null) deltas.push(now - last);
      last = now;
      if (now - t0 < durationMs) requestAnimationFrame(frame);
      else resolve(deltas);
    };
    requestAnimationFrame(frame);
  });

/**
 * In the page: scrolls the grid from top to bottom in `durationMs` (scrollTop set from the clock, so the rate stays steady
 * whatever the frames do) while recording every requestAnimationFrame delta and every long task.
 */
const scrollEndToEnd = (durationMs) =>
  new Promise((resolve) => {
    const grid = document.querySelector('[role=listbox][aria-label=Images]');
    const distancePx = grid.scrollHeight - grid.clientHeight;
    const deltas = [];
    const longTasks = [];
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longTasks.push(Math.round(e.duration));
    });
    observer.observe({ type: 'longtask', buffered: false });
    const t0 = performance.now();
    let last = t0;
    const ticker = setInterval(() => {
      const f = Math.min(1, (performance.now() - t0) / durationMs);
      grid.scrollTop = Math.round(f * distancePx);
    }, 8);
    const frame = (now) => {
      deltas.push(now - last);
      last = now;
      if (now - t0 < durationMs) requestAnimationFrame(frame);
      else {
        clearInterval(ticker);
        grid.scrollTop = distancePx;
        observer.disconnect();
        resolve({ deltas, longTasks, distancePx, atEnd: grid.scrollTop + grid.clientHeight >= grid.scrollHeight - 2 });
      }
    };
    requestAnimationFrame((now) => {
      last = now;
      requestAnimationFrame(frame);
    });
  });

async function main() {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH} (set EXRVIEW_CHROMIUM)`);
  if (values.build || !existsSync(join(root, 'dist/cli.mjs')) || !existsSync(join(root, 'dist/renderer/index.html'))) {
    const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8' });
    if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
  }
  const generateMs = await folder();
  log(generateMs ? `${FILES} files written in ${Math.round(generateMs)} ms` : `reusing ${DIR}`);
  const cacheHome = mkdtempSync(join(tmpdir(), 'exrview-load-cache-'));
  let server = null;
  let browser = null;
  let rss = null;
  try {
    const tServe = performance.now();
    const started = await startServer(DIR, cacheHome);
    const serverReadyMs = performance.now() - tServe;
    server = started.server;
    rss = rssSampler(server.pid);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const tOpen = performance.now();
    await page.goto(started.url);
    await page.getByRole('listbox', { name: 'Images' }).getByRole('option').first().waitFor({ timeout: 300_000 });
    const firstOptionMs = performance.now() - tOpen;
    // the first screen: every readable visible cell has its thumbnail (the listing may still be coming in)
    const deadline = performance.now() + Number(values['first-screen-timeout-s']) * 1000;
    let first = await page.evaluate(visibleState);
    while ((first.ok === 0 || first.withThumb < first.ok) && performance.now() < deadline) {
      await page.waitForTimeout(25);
      first = await page.evaluate(visibleState);
    }
    const firstScreenMs = performance.now() - tOpen;
    await page.waitForFunction((n) => window.exrviewApp?.store.getState().library.files.length === n, FILES, { timeout: 300_000 });
    const listedMs = performance.now() - tOpen;
    log(
      `first option ${Math.round(firstOptionMs)} ms, first screen (${first.withThumb}/${first.ok}) ${Math.round(firstScreenMs)} ms, listed ${Math.round(listedMs)} ms`,
    );

    // the same page at rest, before the scroll: what the machine's load alone does to the frame time
    if (process.env.PROFILE_IDLE) await cdp.send('Profiler.enable');
    if (process.env.PROFILE_IDLE) await cdp.send('Profiler.start');
    const idleDeltas = await page.evaluate(idleFrames, IDLE_MS);
    if (process.env.PROFILE_IDLE) {
      const idleProfile = profileTop((await cdp.send('Profiler.stop')).profile);
      log(
        `idle profile over ${idleProfile.spanMs} ms:\n${idleProfile.top.map((t) => `  ${String(t.ms).padStart(6)} ms  ${t.fn}`).join('\n')}`,
      );
    }
    if (PROFILE_MS) await cdp.send('Profiler.enable');
    if (PROFILE_MS) await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    if (PROFILE_MS) await cdp.send('Profiler.start');
    const scrolled = page.evaluate(scrollEndToEnd, SCROLL_MS);
    let profiled = null;
    if (PROFILE_MS) {
      await new Promise((r) => setTimeout(r, PROFILE_MS));
      profiled = profileTop((await cdp.send('Profiler.stop')).profile);
      log(`profile over ${profiled.spanMs} ms:\n${profiled.top.map((t) => `  ${String(t.ms).padStart(6)} ms  ${t.fn}`).join('\n')}`);
    }
    const scroll = await scrolled;
    const deltas = scroll.deltas;
    const final = await page.evaluate(() => {
      const app = window.exrviewApp;
      const s = app.controller.engine?.stats();
      return {
        thumbsShown: app.controller.thumbsShown,
        atlasThumbnails: s?.atlas?.thumbnails ?? null,
        atlasMb: s?.atlas ? Math.round(s.atlas.bytes / 2 ** 20) : null,
        atlasEvictions: s?.atlas?.evictions ?? null,
        path: document.querySelector('.status .path')?.textContent ?? null,
      };
    });
    const metrics = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    rss.stop();
    const summary = {
      files: FILES,
      loadAverage1m: Math.round(loadavg()[0] * 100) / 100,
      generateMs: Math.round(generateMs),
      serverReadyMs: Math.round(serverReadyMs),
      firstOptionMs: Math.round(firstOptionMs),
      listedMs: Math.round(listedMs),
      // from the page's open, and from the `exrview serve` command (the server lists the folder's first files before it listens)
      firstScreen: {
        ms: Math.round(firstScreenMs),
        fromServeMs: Math.round(serverReadyMs + firstScreenMs),
        thumbnails: first.withThumb,
        readable: first.ok,
        visible: first.visible,
      },
      scroll: {
        durationMs: SCROLL_MS,
        distancePx: scroll.distancePx,
        pxPerSecond: Math.round(scroll.distancePx / (SCROLL_MS / 1000)),
        reachedEnd: scroll.atEnd,
        frames: deltas.length,
        frameMs: { p50: quantile(deltas, 0.5), p95: quantile(deltas, 0.95), max: quantile(deltas, 1) },
        over50Ms: deltas.filter((d) => d > 50).length,
        longTasks: {
          count: scroll.longTasks.length,
          totalMs: scroll.longTasks.reduce((a, b) => a + b, 0),
          max: Math.max(0, ...scroll.longTasks),
        },
      },
      idleFrameMs: { p50: quantile(idleDeltas, 0.5), p95: quantile(idleDeltas, 0.95), max: quantile(idleDeltas, 1) },
      thumbnails: final,
      pageJsHeapMb: mb(metrics.JSHeapUsedSize ?? 0),
      serverRss: { peakMb: mb(rss.peak()), startMb: mb(rss.samples[0]?.[1] ?? 0), endMb: mb(rss.samples.at(-1)?.[1] ?? 0) },
      renderPath: final.path,
      ...(profiled ? { profile: profiled } : {}),
      pageErrors,
    };
    console.log(JSON.stringify(summary));
  } finally {
    rss?.stop();
    await browser?.close().catch(() => {});
    if (server && server.exitCode === null) server.kill('SIGTERM');
    rmSync(cacheHome, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`load-folder: ${error.stack ?? error}`);
  process.exitCode = 1;
});

#!/usr/bin/env node
// Load: a folder of N small EXRs (default 2,000, made by the project's writer) served in browser mode and scrolled end to end in
// headless Chromium (WebGPU on SwiftShader); reports the server's resident memory over time, input latency during the scroll,
// and thumbnail arrival. Usage: node bench/load-2000.mjs [--files N] [--keep] ; the last line is the JSON summary.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.mjs';
import { loadWriter, makeFolder, mb, quantile, root, rssSampler, startServer } from './load-common.mjs';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '2000' },
    keep: { type: 'boolean', default: false },
    build: { type: 'boolean', default: false },
    /** Longest wait for one screenful's thumbnails before scrolling on (the scroll does not stall on a slow page). */
    'page-wait-ms': { type: 'string', default: '8000' },
  },
});
const FILES = Number(values.files);
const PAGE_WAIT_MS = Number(values['page-wait-ms']);
const CHROMIUM = CHROMIUM_PATH;
const log = (...a) => console.error('load:', ...a);

/** In the page: visible options, and how many of them the engine holds a thumbnail for. */
const visibleState = () => {
  const app = window.exrviewApp;
  const files = app.store.getState().library.files;
  const byName = new Map(files.map((f) => [f.name, f]));
  const names = [...document.querySelectorAll('[role=listbox][aria-label=Images] [role=option]')]
    .filter((o) => {
      const r = o.getBoundingClientRect();
      const g = o.parentElement.parentElement.getBoundingClientRect();
      return r.bottom > g.top && r.top < g.bottom;
    })
    .map((o) => o.getAttribute('aria-label'));
  const ok = names.filter((n) => byName.get(n)?.status === 'ok');
  const withThumb = ok.filter((n) => app.controller.engine?.hasThumbnail(byName.get(n).id));
  return { names, ok: ok.length, withThumb: withThumb.length, shown: app.controller.thumbsShown, total: files.length };
};

/** In the page: arms a one-shot probe; the next key press's latency to the frame after the exposure readout changed. */
const armLatencyProbe = () => {
  // the readout is a text field: React sets its value property, which no MutationObserver sees, so it is read each frame
  const out = document.querySelector('[aria-label="Exposure value"]');
  const read = () => (out && 'value' in out ? out.value : out?.textContent);
  const before = read();
  window.__latency = new Promise((resolve) => {
    let keyAt = null;
    const onKey = (e) => (keyAt ??= e.timeStamp);
    window.addEventListener('keydown', onKey, { capture: true });
    const deadline = performance.now() + 10_000;
    const check = () => {
      if (keyAt !== null && read() !== before) {
        window.removeEventListener('keydown', onKey, { capture: true });
        requestAnimationFrame(() => resolve(performance.now() - keyAt));
      } else if (performance.now() > deadline) resolve(null);
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
};

async function main() {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (set EXRVIEW_CHROMIUM)`);
  if (values.build || !existsSync(join(root, 'dist/cli.mjs')) || !existsSync(join(root, 'dist/renderer/index.html'))) {
    const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8' });
    if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
  }
  const work = mkdtempSync(join(tmpdir(), 'exrview-load-'));
  const dir = join(work, 'images');
  const cacheHome = join(work, 'cache');
  spawnSync('mkdir', ['-p', dir, cacheHome]);
  let server = null;
  let browser = null;
  let rss = null;
  try {
    const t0 = performance.now();
    makeFolder(await loadWriter(work), dir, FILES, { baseW: 64, baseH: 48, spanW: 97, spanH: 43, rgbaEvery: 0 });
    const generateMs = performance.now() - t0;
    log(`${FILES} files written in ${Math.round(generateMs)} ms`);

    const started = await startServer(dir, cacheHome);
    server = started.server;
    rss = rssSampler(server.pid);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const tOpen = performance.now();
    await page.goto(started.url);
    const grid = page.getByRole('listbox', { name: 'Images' });
    await grid.getByRole('option').first().waitFor({ timeout: 120_000 });
    await page.waitForFunction((n) => window.exrviewApp?.store.getState().library.files.length === n, FILES, { timeout: 120_000 });
    const listedMs = performance.now() - tOpen;
    log(`listed in ${Math.round(listedMs)} ms`);
    const exposure = page.getByRole('slider', { name: 'Exposure' });

    const latencies = [];
    const pageWaits = [];
    const thumbsOverTime = [];
    let pagesComplete = 0;
    let pages = 0;
    let direction = 'ArrowRight';
    const tScroll = performance.now();
    for (;;) {
      // a key press on the exposure slider while thumbnails stream in: input to the next frame after the readout changed
      await page.evaluate(armLatencyProbe);
      await exposure.focus();
      await exposure.press(direction);
      direction = direction === 'ArrowRight' ? 'ArrowLeft' : 'ArrowRight';
      const latency = await page.evaluate(() => window.__latency);
      if (latency !== null) latencies.push(latency);

      // wait (bounded) for this screenful's thumbnails
      const tPage = performance.now();
      let state = await page.evaluate(visibleState);
      while (state.withThumb < state.ok && performance.now() - tPage < PAGE_WAIT_MS) {
        await page.waitForTimeout(50);
        state = await page.evaluate(visibleState);
      }
      pages++;
      pageWaits.push(performance.now() - tPage);
      if (state.withThumb === state.ok) pagesComplete++;
      thumbsOverTime.push([Math.round(performance.now() - tScroll), state.shown]);

      const atEnd = await grid.evaluate((el) => {
        const end = el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
        if (!end) el.scrollTop += Math.round(el.clientHeight * 0.9);
        return end;
      });
      if (atEnd) break;
      await page.waitForTimeout(30);
    }
    const scrollMs = performance.now() - tScroll;
    const final = await page.evaluate(() => {
      const app = window.exrviewApp;
      const files = app.store.getState().library.files;
      return {
        shown: app.controller.thumbsShown,
        withThumbnail: files.filter((f) => app.controller.engine?.hasThumbnail(f.id)).length,
        ok: files.filter((f) => f.status === 'ok').length,
        path: document.querySelector('.status .path')?.textContent ?? null,
      };
    });
    rss.stop();
    const budgetBytes = totalmem() / 4; // createHost's default RAM budget (a quarter of physical memory); serve sets no other
    const peak = rss.peak();
    const series = rss.samples.filter((_, i) => i % 10 === 0).map(([t, b]) => [Math.round(t / 100) / 10, mb(b)]);
    const summary = {
      files: FILES,
      generateMs: Math.round(generateMs),
      listedMs: Math.round(listedMs),
      scrollMs: Math.round(scrollMs),
      pages,
      thumbnails: {
        shownTotal: final.shown,
        filesWithThumbnail: final.withThumbnail,
        okFiles: final.ok,
        pagesComplete,
        pageWaitMedianMs: quantile(pageWaits, 0.5),
        pageWaitMaxMs: quantile(pageWaits, 1),
        perSecond: Math.round((final.shown / (scrollMs / 1000)) * 10) / 10,
        overTime: thumbsOverTime.filter((_, i) => i % Math.max(1, Math.floor(thumbsOverTime.length / 20)) === 0),
      },
      exposureKeyLatencyMs: {
        samples: latencies.length,
        median: quantile(latencies, 0.5),
        p95: quantile(latencies, 0.95),
        max: quantile(latencies, 1),
      },
      serverRss: {
        peakMb: mb(peak),
        startMb: mb(rss.samples[0]?.[1] ?? 0),
        endMb: mb(rss.samples.at(-1)?.[1] ?? 0),
        ramBudgetMb: mb(budgetBytes),
        underBudget: peak < budgetBytes,
        series,
      },
      renderPath: final.path,
      pageErrors,
    };
    console.log(JSON.stringify(summary));
    return summary;
  } finally {
    rss?.stop();
    await browser?.close().catch(() => {});
    if (server && server.exitCode === null) server.kill('SIGTERM');
    if (!values.keep) rmSync(work, { recursive: true, force: true });
    else log(`kept ${work}`);
  }
}

main().catch((error) => {
  console.error(`load: ${error.stack ?? error}`);
  process.exitCode = 1;
});

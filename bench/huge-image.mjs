#!/usr/bin/env node
// A 32768×16384 half RGBA ZIP scanline image (made once into /tmp by the project's writer) opened in browser mode on
// SwiftShader: time from the click to the first frame (a small reduced level, 2048×1024) and to the refined one (the
// 8192×4096 level, made by the workers in the same pass), the server's peak resident memory meanwhile, against
// OpenEXR 3.4's decode of the whole file with 2 threads in the same run. Usage:
// node bench/huge-image.mjs [--file PATH] [--runs N] [--build] ; the last line is the JSON summary.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.mjs';
import { loadWriter, mb, root, rssSampler, startServer } from './load-common.mjs';

const { values } = parseArgs({
  options: {
    // alone in its folder, which is served (a link to a file outside the folder would be refused)
    file: { type: 'string', default: '/tmp/exrview-huge-32k/huge-32k-half-rgba-zip.exr' },
    runs: { type: 'string', default: '2' },
    build: { type: 'boolean', default: false },
  },
});
const W = 32768,
  H = 16384;
const REFERENCE = '/work/shared/tools/openexr-3.4/exr_decode_ref';
const log = (...a) => console.error('huge-image:', ...a);

/** The image, written once: ramps in R and G, a checker in B, A = 1 (half bits made directly, rows copied). */
async function makeImage(path) {
  if (existsSync(path)) return;
  mkdirSync(dirname(path), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'exrview-huge-writer-'));
  try {
    const writer = await loadWriter(work);
    const half = halfBits;
    const planes = [0, 1, 2, 3].map(() => new Uint16Array(W * H));
    const red = Uint16Array.from({ length: W }, (_, x) => half((x / W) * 0.9));
    const checks = [0, 1].map((phase) => Uint16Array.from({ length: W }, (_, x) => half(((Math.floor(x / 2048) + phase) & 1) * 0.8 + 0.1)));
    for (let y = 0; y < H; y++) {
      planes[0].set(red, y * W);
      planes[1].fill(half((y / H) * 0.9), y * W, (y + 1) * W);
      planes[2].set(checks[Math.floor(y / 2048) & 1], y * W);
    }
    planes[3].fill(half(1));
    log(`writing ${path} (${W}×${H} half RGBA, ZIP)…`);
    writer.writeExrFile(path, [
      {
        dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 },
        compression: 'zip',
        channels: ['R', 'G', 'B', 'A'].map((name, c) => ({ name, pixelType: 'half', data: planes[c] })),
      },
    ]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** IEEE binary16 bits of a value in [0, 1] (enough for the ramps above). */
function halfBits(v) {
  if (v < 2 ** -14) return Math.round(v / 2 ** -24); // subnormal
  const e = Math.floor(Math.log2(v));
  const m = Math.round((v / 2 ** e - 1) * 1024);
  return m === 1024 ? (e + 16) << 10 : ((e + 15) << 10) | m;
}

/** OpenEXR 3.4's decode of the whole file with 2 threads: wall ms (the tool's own figure where it prints one). */
function openexrDecodeMs(path) {
  const t0 = performance.now();
  const r = spawnSync(REFERENCE, ['2', path], { encoding: 'utf8' });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${REFERENCE} failed: ${r.stderr || r.stdout}`);
  const m = /([\d.]+)\s*ms/.exec(r.stdout);
  return { ms: m ? Number(m[1]) : wallMs, wallMs, output: r.stdout.trim().split('\n').slice(-3).join(' | ') };
}

async function firstFrame(folder, cacheHome) {
  const started = await startServer(folder, cacheHome);
  const rss = rssSampler(started.server.pid, 50);
  let browser = null;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(started.url);
    const cell = page.getByRole('listbox', { name: 'Images' }).getByRole('option').first();
    await cell.waitFor({ timeout: 120_000 });
    // the thumbnail first (its own decode), so the click's figure is the preview's alone
    await page.waitForFunction(() => window.exrviewApp.controller.thumbsShown >= 1, null, { timeout: 600_000 });
    const rssBeforeClick = rss.peak();
    const t0 = Date.now();
    await cell.click();
    await page.waitForFunction(() => window.exrviewApp.controller.records.length >= 1, null, { timeout: 600_000, polling: 20 });
    const clickToFrameMs = Date.now() - t0;
    const recordAt = (i) =>
      page.evaluate((at) => {
        const r = window.exrviewApp.controller.records[at];
        return { host: r.host, transferBytes: r.transferBytes, transferMs: r.transferMs, showMs: r.show.showMs };
      }, i);
    const record = await recordAt(0);
    const reduced = await page.evaluate(() => window.exrviewApp.store.getState().image.decoded?.reduced ?? null);
    // the finer level in the small one's place: the store's copy is set once it is on screen
    await page.waitForFunction(() => !window.exrviewApp.store.getState().image.loading, null, { timeout: 600_000, polling: 20 });
    const clickToRefinedMs = Date.now() - t0;
    const refinedRecord = (await page.evaluate(() => window.exrviewApp.controller.records.length >= 2)) ? await recordAt(1) : null;
    const refined = await page.evaluate(() => window.exrviewApp.store.getState().image.decoded?.reduced ?? null);
    // and the detail at 1:1 in the middle: the crop of level 0 the view needs
    const t1 = Date.now();
    await page.evaluate(() => window.exrviewApp.controller.actions.setPanZoom({ zoom: 1, centerX: 16384, centerY: 8192 }));
    await page.waitForFunction(() => !!window.exrviewApp.controller.engine.region.crop, null, { timeout: 300_000, polling: 20 });
    const detailMs = Date.now() - t1;
    rss.stop();
    return {
      clickToFrameMs,
      clickToRefinedMs,
      detailMs,
      record,
      reduced,
      refinedRecord,
      refined,
      rssBeforeClickMB: mb(rssBeforeClick),
      peakRssMB: mb(rss.peak()),
    };
  } finally {
    rss.stop();
    await browser?.close();
    started.server.kill('SIGTERM');
  }
}

async function main() {
  if (values.build) spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  const path = values.file;
  await makeImage(path);
  const sizeMB = mb(statSync(path).size);
  const work = mkdtempSync(join(tmpdir(), 'exrview-huge-bench-'));
  const folder = dirname(path);
  const runs = [];
  const reference = [];
  try {
    for (let i = 0; i < Number(values.runs); i++) {
      reference.push(openexrDecodeMs(path));
      log(`OpenEXR 3.4, 2 threads: ${reference.at(-1).ms.toFixed(0)} ms (${reference.at(-1).output})`);
      const run = await firstFrame(folder, join(work, `cache-${i}`));
      const ratio = (ms) => Math.round((ms / reference.at(-1).ms) * 100) / 100;
      runs.push({
        ...run,
        loadAverage1m: Math.round(loadavg()[0] * 100) / 100,
        openexrMs: Math.round(reference.at(-1).ms),
        firstOverOpenexr: ratio(run.clickToFrameMs),
        refinedOverOpenexr: ratio(run.clickToRefinedMs),
      });
      log(`run ${i + 1}:`, JSON.stringify(runs.at(-1)));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const best = (xs) => Math.min(...xs);
  const firstFrameMs = best(runs.map((r) => r.clickToFrameMs));
  const openexrMs = best(reference.map((r) => r.ms));
  console.log(
    JSON.stringify({
      file: { path, widthPx: W, heightPx: H, channels: 'RGBA half', compression: 'zip', sizeMB },
      loadAverage1m: Math.round(loadavg()[0] * 100) / 100,
      firstFrameMs,
      openexrDecode2ThreadsMs: Math.round(openexrMs),
      firstFrameOverOpenexr: Math.round((firstFrameMs / openexrMs) * 100) / 100,
      refinedFrameMs: best(runs.map((r) => r.clickToRefinedMs)),
      detailAt1to1Ms: best(runs.map((r) => r.detailMs)),
      serverPeakRssMB: Math.max(...runs.map((r) => r.peakRssMB)),
      runs,
    }),
  );
}

await main();

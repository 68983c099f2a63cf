#!/usr/bin/env node
// Bench in browser mode (Chromium, WebGPU on SwiftShader): start-up of the 2D viewer, page load → engine ready →
// first thumbnail drawn → first preview frame of the first image, over fresh pages of one `exrview serve`; also the
// script bytes the page loaded and whether three.js was among them (it must not be: the Environment view loads it).
// Usage: node bench/startup.mjs [DIR] [--runs N]   (no DIR: the built-in sample images). Prints one JSON object last.
import { chromium } from 'playwright';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS as args, CHROMIUM_PATH } from '../scripts/chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 7;
const dir = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--runs');
const executablePath = CHROMIUM_PATH;
if (!existsSync(executablePath)) {
  console.log(JSON.stringify({ skipped: `no Chromium at ${executablePath}` }));
  process.exit(0);
}

const child = spawn(process.execPath, [join(root, 'bin/exrview.mjs'), 'serve', ...(dir ? [resolve(dir)] : []), '--port', '0'], {
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
const browser = await chromium.launch({ executablePath, args, headless: true });
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const samples = [];
try {
  for (let r = 0; r < runs; r++) {
    const page = await browser.newPage();
    await page.goto(url);
    // each figure is performance.now() (ms since navigation start) on the first animation frame the condition holds
    const at = (cond) => page.waitForFunction(cond, undefined, { polling: 'raf', timeout: 120_000 }).then((h) => h.jsonValue());
    const engineReadyMs = await at(() => {
      const c = window.exrviewApp?.controller;
      return c?.engine ? performance.now() : false;
    });
    const firstThumbMs = await at(() => (window.exrviewApp.controller.thumbsShown >= 1 ? performance.now() : false));
    const clickMs = await page.evaluate(() => performance.now());
    await page.getByRole('listbox', { name: 'Images' }).getByRole('option').first().click();
    const firstPreviewMs = await at(() => {
      const c = window.exrviewApp.controller;
      const s = c.engine.stats();
      return s.frames > 0 && c.records.length > 0 ? performance.now() : false;
    });
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.initiatorType === 'script' || /\.m?js(\?|$)/.test(e.name))
        .map((e) => ({ name: e.name.replace(/\?.*$/, ''), bytes: e.encodedBodySize || e.transferSize })),
    );
    samples.push({
      engineReadyMs,
      firstThumbMs,
      firstPreviewAfterClickMs: firstPreviewMs - clickMs,
      scriptBytes: scripts.reduce((a, s) => a + s.bytes, 0),
      threeLoaded: scripts.some((s) => /three/i.test(s.name)),
    });
    await page.close();
  }
} finally {
  await browser.close();
  child.kill();
}
const keys = ['engineReadyMs', 'firstThumbMs', 'firstPreviewAfterClickMs', 'scriptBytes'];
const summary = Object.fromEntries(
  keys.map((k) => [
    k,
    { median: median(samples.map((s) => s[k])), min: Math.min(...samples.map((s) => s[k])), max: Math.max(...samples.map((s) => s[k])) },
  ]),
);
console.log(JSON.stringify({ runs, dir: dir ?? '(samples)', summary, threeLoadedAtStart: samples.some((s) => s.threeLoaded), samples }));

// Load in the e2e suite: 300 EXRs served in browser mode, scrolled end to end (bench/load-2000.mjs at a smaller size);
// the server's memory stays far under its budget, key presses stay answered, and every file's thumbnail arrives.
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

interface LoadSummary {
  files: number;
  pages: number;
  thumbnails: { shownTotal: number; okFiles: number; pagesComplete: number };
  exposureKeyLatencyMs: { samples: number; median: number | null; p95: number | null };
  serverRss: { peakMb: number; ramBudgetMb: number; underBudget: boolean };
  pageErrors: string[];
}

test('300 files scrolled end to end: memory, responsiveness, thumbnails', async () => {
  test.setTimeout(240_000);
  const run = spawnSync(process.execPath, ['bench/load-2000.mjs', '--files', '300'], { cwd: root, encoding: 'utf8', timeout: 230_000 });
  const lines = run.stdout.trim().split('\n');
  expect(run.status, run.stderr).toBe(0);
  const summary = JSON.parse(lines[lines.length - 1]!) as LoadSummary;
  console.log(`load-300: ${lines[lines.length - 1]}`);
  expect(summary.pageErrors).toEqual([]);
  // every screenful got its thumbnails, and every file's thumbnail arrived once
  expect(summary.pages).toBeGreaterThan(5);
  expect(summary.thumbnails.pagesComplete).toBe(summary.pages);
  expect(summary.thumbnails.shownTotal).toBeGreaterThanOrEqual(summary.thumbnails.okFiles);
  expect(summary.thumbnails.okFiles).toBe(300);
  // the server: thumbnails only, so far below the RAM cache budget; 512 MB is several times what it needs
  expect(summary.serverRss.underBudget).toBe(true);
  expect(summary.serverRss.peakMb).toBeLessThan(512);
  // the UI answers a key within a frame or few even while thumbnails stream in (generous: a loaded 2-core machine, software GPU)
  expect(summary.exposureKeyLatencyMs.samples).toBeGreaterThan(5);
  expect(summary.exposureKeyLatencyMs.median!).toBeLessThan(250);
  expect(summary.exposureKeyLatencyMs.p95!).toBeLessThan(1000);
});

#!/usr/bin/env node
// Runs the Playwright suites (the last step of `npm test`): skips with one line when Chromium is missing, else fails on failure.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const chromium = process.env.EXRVIEW_CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.log(`e2e: skipped: no Chromium at ${chromium} (install Debian's chromium or set EXRVIEW_CHROMIUM)`);
  process.exit(0);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const r = spawnSync(
  process.execPath,
  [`${root}/node_modules/@playwright/test/cli.js`, 'test', '--config', `${root}/playwright.config.ts`, ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
process.exit(r.status ?? 1);

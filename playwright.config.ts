// Playwright: headless Chromium with WebGPU on SwiftShader (see ../shared/GPU.md); one worker, the machine is small.
import { defineConfig } from '@playwright/test';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.mjs';

export { CHROMIUM_ARGS, CHROMIUM_PATH };

export default defineConfig({
  testDir: 'e2e',
  testMatch: /.*\.spec\.ts$/,
  workers: 1,
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  use: {
    headless: true,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
  },
});

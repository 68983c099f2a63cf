// Playwright: headless Chromium with WebGPU on SwiftShader (see ../shared/GPU.md); one worker, the machine is small.
// --use-angle=swiftshader besides GPU.md's flags: without it a WebGPU canvas loses its device on the first present.
import { defineConfig } from '@playwright/test';

export const CHROMIUM_PATH = process.env.EXRVIEW_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--use-angle=swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

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

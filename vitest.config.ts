// Unit tests sit beside the code (*.test.ts); e2e tests run under Playwright (scripts/e2e.mjs).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['electron/**/*.test.ts', 'renderer/**/*.test.ts', 'shaders/**/*.test.ts', 'native/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});

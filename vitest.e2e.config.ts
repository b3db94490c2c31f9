import { defineConfig } from 'vitest/config';

// Browser journeys: each file starts its own server and Chromium, so files run one at a time.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    sequence: { concurrent: false },
    testTimeout: 120_000,
    hookTimeout: 180_000,
    reporters: ['default'],
  },
});

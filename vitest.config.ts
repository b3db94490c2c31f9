import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { aliases } from './vite.config.ts';

// Web component tests (jsdom) need no database: they run once, in the PGlite pass of `npm test`,
// and are left out when TEST_DATABASE_URL asks for the PostgreSQL pass.
const withWeb = !process.env.TEST_DATABASE_URL;

export default defineConfig({
  resolve: { alias: aliases },
  test: {
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on a 2-core machine (CI's) one test
    // file at a time, one core idle while a file waits on its database, timers or servers. Two
    // at least: the suite's files own their databases, ports and folders.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One migrated template database per run; each test file's database is a copy of it.
    globalSetup: ['server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['server/**/*.test.ts', 'contract/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          // A worker imports the server's modules once for all the files it runs, not once a
          // file (~2.4 s each, ~150 files). Each file builds its own app on its own database and
          // DATA_DIR, module state is keyed by the database (WeakMaps), and no server test mocks
          // modules or changes process.env. The one process-wide mark (server/jobs/pressure.ts)
          // is cleared by the tests that read it before they do.
          isolate: false,
        },
      },
      ...(withWeb
        ? [
            {
              extends: true as const,
              test: {
                name: 'web',
                include: ['web/**/*.test.tsx'],
                environment: 'jsdom',
                setupFiles: ['web/test/setup-dom.ts'],
              },
            },
          ]
        : []),
    ],
  },
});

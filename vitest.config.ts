import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: [
      { find: '~', replacement: path.resolve(import.meta.dirname, 'app') },
      // Workspace packages from their sources, so tests need no build (packages convention).
      { find: /^@custom-room\/contract$/, replacement: path.resolve(import.meta.dirname, 'contract/src/index.ts') },
      { find: /^@custom-room\/contract\/(.*)$/, replacement: path.resolve(import.meta.dirname, 'contract/src/$1.ts') },
      { find: /^@custom-room\/toolkit$/, replacement: path.resolve(import.meta.dirname, 'toolkit/src/index.ts') },
    ],
  },
  test: {
    // Every project: a test fails on a console.error/console.warn it did not expect (decision 037).
    setupFiles: ['tests/support/console-guard.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'gateway',
          include: ['tests/gateway/**/*.test.ts'],
          // Each database's own backup runs in that database's pass: the SQLite file's online copy on
          // SQLite, pg_dump/pg_restore on PostgreSQL.
          exclude: process.env.TEST_DATABASE_URL ? ['tests/gateway/backup-sqlite.test.ts'] : ['tests/gateway/backup-postgres.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One module graph for every file of the project (decision 067): the gateway's ~300 modules are
          // transformed and imported once, not once per file (55 s of the layer's 230 s). Each file still
          // starts its own gateways on their own databases; nothing here reads process.env at import.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'security',
          include: ['tests/security/**/*.test.ts'],
          exclude: ['tests/security/web*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          isolate: false, // as the gateway project (decision 067)
        },
      },
      {
        // Attacks on the web app over HTTP: a real gateway + the web server (server/) on the production build (needs `npm run build`).
        extends: true,
        test: {
          name: 'web-security',
          include: ['tests/security/web*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 90_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['tests/web/**/*.test.ts', 'tests/web/**/*.test.tsx', 'tests/house/**/*.test.ts'],
          environment: 'node',
          testTimeout: 15_000,
        },
      },
    ],
  },
});

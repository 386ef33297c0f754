import { defineConfig, devices } from '@playwright/test';
import base from './playwright.config';

/**
 * The cluster smoke (tests/cluster), run by scripts/test-cluster.mjs against a running `npm run cluster`
 * (two gateways, two webs, nginx, PostgreSQL) whose URLs it passes in E2E_STACK_FILE, like the normal
 * suite's globalSetup does. No globalSetup here: this config starts nothing. With JavaScript only.
 * The runner SIGKILLs and restarts a gateway and a web process while these tests run; a test whose
 * form post was in flight on the killed process may fail once, so one retry is allowed and the runner
 * reports it as flaky.
 */
export default defineConfig({
  ...base,
  testDir: 'tests/cluster',
  outputDir: 'test-results/cluster',
  globalSetup: undefined,
  globalTeardown: undefined,
  retries: 1,
  workers: 2,
  globalTimeout: 5 * 60_000,
  reporter: [['list']],
  projects: [{ name: 'cluster', use: { ...devices['Desktop Chrome'], viewport: { width: 360, height: 800 }, javaScriptEnabled: true } }],
});

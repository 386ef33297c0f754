import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests against the PRODUCTION build (npm run build first): globalSetup starts one real
 * gateway + web pair on free ports; every test runs twice, with JavaScript ("js") and without ("no-js"),
 * in Debian's chromium-headless-shell (no browser download) at phone size.
 */
const phone = { width: 360, height: 800 };

/**
 * Debian's chromium-headless-shell (same source and version as its chromium): the headless-only build
 * runs this suite about 1.8× faster than the full browser in headless mode on this 2-core machine
 * (decision 034). E2E_CHROMIUM points elsewhere (/usr/bin/chromium, the full browser) when needed.
 */
export const E2E_CHROMIUM = process.env.E2E_CHROMIUM || '/usr/bin/chromium-headless-shell';

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/e2e',
  globalSetup: './tests/e2e/support/global-setup.ts',
  globalTeardown: './tests/e2e/support/global-teardown.ts',
  fullyParallel: true,
  forbidOnly: true,
  workers: 2,
  retries: 0,
  // A guard against a test that hangs, not a speed check (speed is measured by the benchmarks): the longest
  // journeys (sign-up to UTR, an organiser's verify round) take 15-30 s on a busy 2-core machine.
  timeout: 60_000,
  globalTimeout: 20 * 60_000, // the whole suite: ~10 min on a quiet machine, 15+ beside benchmarks
  expect: { timeout: 5_000 },
  reporter: [['list'], ['./tests/e2e/support/summary-reporter.ts']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: E2E_CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-dev-shm-usage',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    actionTimeout: 5_000,
    navigationTimeout: 10_000,
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    // A test tagged @js runs only with JavaScript, one tagged @no-js only without (behaviour that exists in one mode only).
    { name: 'js', grepInvert: /@no-js\b/, use: { ...devices['Desktop Chrome'], viewport: phone, javaScriptEnabled: true } },
    { name: 'no-js', grepInvert: /@js\b/, use: { ...devices['Desktop Chrome'], viewport: phone, javaScriptEnabled: false } },
  ],
});

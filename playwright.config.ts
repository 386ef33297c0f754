import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests against the PRODUCTION build (npm run build first): globalSetup starts one real
 * gateway + web pair on free ports; every test runs twice, with JavaScript ("js") and without ("no-js"),
 * in Debian's chromium (no browser download) at phone size.
 */
const phone = { width: 360, height: 800 };

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/e2e',
  globalSetup: './tests/e2e/support/global-setup.ts',
  globalTeardown: './tests/e2e/support/global-teardown.ts',
  fullyParallel: true,
  forbidOnly: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  globalTimeout: 15 * 60_000,
  expect: { timeout: 5_000 },
  reporter: [['list'], ['./tests/e2e/support/summary-reporter.ts']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
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

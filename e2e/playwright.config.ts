import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from './support/chromium';

/**
 * Browser tests: Debian's chromium (never a downloaded browser) against the real server, which
 * the global setup builds once and starts once for each worker. Two workers, a file at a time
 * each: most of a test is waiting on the server or the machines (a second's reports, the
 * autopilot's look, a command's answer), so two files side by side take about half as long on the
 * 2-core machines, and each worker's server is its own, as if it ran alone.
 */
export default defineConfig({
  testDir: 'browser',
  testMatch: '**/*.spec.ts',
  globalSetup: './browser/support/global-setup.ts',
  outputDir: 'test-results/playwright',
  workers: 2,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    locale: 'pl-PL',
    timezoneId: 'Europe/Warsaw',
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
    // The app's service worker would answer the app's files from its cache, out of page.route()'s
    // reach, and fetch the whole build in every test; installable-app.spec.ts lets it run.
    serviceWorkers: 'block',
  },
});

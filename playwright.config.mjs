// End-to-end tests drive Debian's Chromium (never a Playwright-downloaded browser) against the
// built dist/ served by scripts/test.sh on a free loopback port passed in WAVE_PLAYGROUND_URL.
import { defineConfig } from '@playwright/test';

const baseURL = process.env.WAVE_PLAYGROUND_URL;
if (!baseURL) {
  throw new Error('WAVE_PLAYGROUND_URL is not set: run the end-to-end tests through scripts/test.sh');
}

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 30_000,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
             '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
});

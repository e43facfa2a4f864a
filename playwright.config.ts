// End-to-end tests against the built app (`vite preview`), in the system Chromium with two
// workers (the machine has 2 cores; every spec stands alone: its own page, storage and files).
// Network-related flags keep Chromium from calling home. tests/shots (screenshots, asserting
// nothing) runs only with playwright.shots.config.ts.
import { defineConfig } from '@playwright/test';

// PW_PORT lets two checkouts (git worktrees) run their suites at once.
const port = Number(process.env.PW_PORT ?? 4173);

export default defineConfig({
  testDir: 'tests',
  testIgnore: ['shots/**'],
  timeout: 30_000,
  workers: 2,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    viewport: { width: 1600, height: 1000 },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: `npx vite preview --port ${port} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});

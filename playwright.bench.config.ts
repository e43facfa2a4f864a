// The browser benchmarks (`npm run bench:app`): the same server and Chromium as the end-to-end
// tests, but only tests/bench, which measures and reports figures and asserts no timings.
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

export default defineConfig({
  ...base,
  testDir: 'tests/bench',
  testMatch: '*.bench.ts',
  timeout: 180_000,
});

// Screenshots for a human to look at (`npm run shots`): the same server and Chromium as the
// end-to-end tests, but only tests/shots, which asserts nothing about pixels and so is not part
// of the test command. They go to /tmp/shots (SHOTS_DIR); docs/ is written only when asked
// (UPDATE_SCREENSHOT=1, DOC_PICTURES=1).
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

export default defineConfig({
  ...base,
  testDir: 'tests/shots',
  // The base config leaves this folder out; here it is the only one.
  testIgnore: [],
  timeout: 120_000,
});

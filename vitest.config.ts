// Unit tests only: the Playwright specs in tests/ run in a browser, not here.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['www/src/**/*.test.ts'],
    environment: 'node',
    // Kernel files end in .sass, which Vitest takes for stylesheets and blanks out by default;
    // let them through so `?raw` imports of the examples hold their text.
    css: { include: [/examples\/([^/]+\/)?[^/]*\.sass(\?.*)?$/] },
  },
});

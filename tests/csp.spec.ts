// The Content-Security-Policy: inline script never runs, and the app does everything it does
// (wasm, the sweep and report workers, CodeMirror's styles, PNG export, the favicon) without a
// single violation, both built (vite preview, as everywhere else) and under the dev server.
import { spawn, type ChildProcess } from 'node:child_process';
import { test as plain } from '@playwright/test';
import { download, expect, open, openExample, test } from './helpers';

test('the built app runs its workers, styles and exports under the policy with no violation', async ({ page }) => {
  await open(page);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).toContain("object-src 'none'");
  await openExample(page, 'tf_figure1.sass');
  await page.getByTestId('export-menu').click();
  const png = await download(page, page.getByTestId('export-png'));
  expect(png.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  await page.getByTestId('btn-compare').click();
  await expect(page.getByTestId('compare-table')).toBeVisible();
  await page.getByTestId('btn-examples').click();
  await page.getByTestId('figure-bs-fig1').click();
  await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  // The fixture fails the test on any CSP violation or console error.
});

// Not the fixture: this test makes a violation on purpose.
plain('inline script is refused', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => { if (/Content Security Policy/.test(m.text())) violations.push(m.text()); });
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = 1';
    document.body.append(s);
    const img = document.createElement('img');
    img.setAttribute('onerror', 'window.__inline = 2');
    img.src = 'nowhere.png';
    document.body.append(img);
    return new Promise((resolve) => setTimeout(() => resolve((window as unknown as { __inline?: number }).__inline), 300));
  });
  expect(ran).toBeUndefined();
  expect(violations.length).toBeGreaterThanOrEqual(2);
});

test.describe('under the dev server', () => {
  let server: ChildProcess | null = null;
  const PORT = 4175;
  test.beforeAll(async () => {
    server = spawn('npx', ['vite', '--port', String(PORT), '--strictPort', '--host', '127.0.0.1'], { stdio: 'ignore', detached: true });
    for (let i = 0; i < 100; i++) {
      if (await fetch(`http://127.0.0.1:${PORT}/`).then((r) => r.ok, () => false)) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('the dev server did not start');
  });
  test.afterAll(() => { if (server?.pid) process.kill(-server.pid); });

  test('the app starts and runs a kernel with no violation', async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(`http://127.0.0.1:${PORT}/`);
    await expect(page.locator('body')).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });
    await openExample(page, 'single_loop.cu');
    await expect(page.getByTestId('listing')).toBeVisible();
    await page.getByTestId('btn-compare').click();
    await expect(page.getByTestId('compare-table')).toBeVisible({ timeout: 20_000 });
  });
});

// A trap inside the wasm engine (a Rust panic, a bug) must not cost the page or the kernel: the
// engine restarts on the last good run. The trap is made from outside: the wasm's exports are
// wrapped at instantiation, and the next call of a chosen export throws as a trap would.
import { test as plain } from '@playwright/test';
import { cliTrace, expect, makeOwnWork, open, openExample, replaceText, savedWork, seek, setStepLimit, test, uiStack, type Page } from './helpers';
import { makeLink } from './link-maker';

async function armTraps(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __trapNext: string | null };
    w.__trapNext = null;
    type Result = { instance: WebAssembly.Instance; module: WebAssembly.Module };
    const wrap = (r: Result): Result => {
      const exports: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(r.instance.exports)) {
        exports[name] = typeof value !== 'function' ? value : (...args: unknown[]) => {
          if (w.__trapNext === name) {
            w.__trapNext = null;
            throw new WebAssembly.RuntimeError('unreachable');
          }
          return (value as (...a: unknown[]) => unknown)(...args);
        };
      }
      return { instance: { exports } as unknown as WebAssembly.Instance, module: r.module };
    };
    const streaming = WebAssembly.instantiateStreaming;
    WebAssembly.instantiateStreaming = async (...args: Parameters<typeof streaming>) => wrap(await streaming(...args));
  });
}

const trapNext = (page: Page, name: string) => page.evaluate((n) => { (window as unknown as { __trapNext: string }).__trapNext = n; }, name);

test('a trap while reading a state restarts the engine: the kernel, its run and the step survive', async ({ page }) => {
  const trace = cliTrace('examples/single_loop.sass', ['n=3']);
  await armTraps(page);
  await open(page);
  await openExample(page, 'single_loop.sass');
  await page.getByTestId('param-n').fill('3');
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n// marker: survives the trap');
  await seek(page, 120);
  await trapNext(page, 'session_state');
  await seek(page, 125);
  await expect(page.getByTestId('banner').filter({ hasText: 'The engine failed in state: unreachable (restarted the engine)' })).toHaveCount(1);
  // The restarted engine has the same run: the next moves show the CLI's states.
  await seek(page, 130);
  expect(await uiStack(page)).toEqual(trace.rows[130].stack);
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(trace.total));
  await expect(page.getByTestId('editor-content')).toContainText('marker: survives the trap');
  await replaceText(page, '//@ title after the trap\nIADD R1, R1, 0x1;\nEXIT;\n');
  await expect(page.getByTestId('kernel-title')).toHaveText('after the trap');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', '2');
});

/** Every lane loops forever, and the counter keeps the warp's state from repeating. */
const ENDLESS = '//@ title endless\n//@ warp 32\n__global__ void k() {\n    int i = 0;\n    while (threadIdx.x < 100) { i = i + 1; }\n}\n';

test('a trap in the middle of a long run ends it; the last run stays and the page works', async ({ page }) => {
  await armTraps(page);
  await open(page);
  await replaceText(page, ENDLESS);
  await expect(page.getByTestId('run-progress')).toBeVisible();
  await trapNext(page, 'session_resume');
  await expect(page.getByTestId('banner').filter({ hasText: 'The engine failed in resume: unreachable (restarted the engine)' })).toHaveCount(1);
  await expect(page.getByTestId('run-progress')).toBeHidden();
  await expect(page.getByTestId('kernel-title')).toContainText('Figure 3');
  await replaceText(page, '//@ title after the trap\nIADD R1, R1, 0x1;\nEXIT;\n');
  await expect(page.getByTestId('kernel-title')).toHaveText('after the trap');
});

test('a trap after Stop brings the stopped run back: the same steps and step, and it still says you stopped it', async ({ page }) => {
  await armTraps(page);
  await open(page);
  await setStepLimit(page, 50_000_000);
  await replaceText(page, ENDLESS);
  // Past the first chunk, so the restart loads it again in slices.
  await expect.poll(async () => Number(await page.getByTestId('run-progress').getAttribute('data-steps'))).toBeGreaterThan(300_000);
  await page.getByTestId('stop-run').click();
  const stop = page.getByTestId('run-stop');
  await expect(stop).toHaveAttribute('data-kind', 'stopped');
  const words = (await stop.locator('.run-stop-text').textContent())!;
  const steps = Number(/you stopped the run after (\d+) steps/.exec(words)![1]);
  await seek(page, steps - 5);
  const stack = await uiStack(page);
  expect(stack.length).toBeGreaterThan(0);
  await seek(page, steps - 7);
  await trapNext(page, 'session_state');
  await seek(page, steps - 5);
  await expect(page.getByTestId('banner').filter({ hasText: 'The engine failed in state: unreachable (restarted the engine)' })).toHaveCount(1);
  await expect(page.getByTestId('run-progress')).toBeHidden();
  // Not "Step limit reached": the run the user stopped, where it was stopped.
  await expect(stop).toHaveAttribute('data-kind', 'stopped');
  await expect(stop.locator('.run-stop-text')).toHaveText(words);
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(steps));
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(steps - 5));
  await expect.poll(() => uiStack(page)).toEqual(stack);
});

// Not the fixture: the blocked download is a console error on purpose.
plain('an engine that cannot start reads no link and leaves the saved work alone', async ({ page }) => {
  const saved = await makeOwnWork(page);
  await page.route('**/*.wasm', (route) => route.abort());
  await page.goto('about:blank');
  await page.goto(`/${makeLink({ text: '//@ title not mine\nEXIT;\n' })}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('banner').filter({ hasText: 'The simulator engine could not start' })).toHaveCount(1);
  await expect(page.getByTestId('banner').filter({ hasText: 'This link cannot be read because the simulator engine did not start' })).toHaveCount(1);
  await expect(page.getByTestId('editor-content')).toContainText('my own kernel, not saved anywhere else');
  await expect(page.getByTestId('link-question')).toHaveCount(0);
  expect(await savedWork(page)).toBe(saved);
});

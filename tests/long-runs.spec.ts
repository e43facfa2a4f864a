// Long runs load in slices: progress with Stop while the page stays usable, the stop kinds shown
// in full with the loop's line, Stop right after an edit and where the focus goes, a configurable
// step limit (kept in the saved work), a newer load superseding a pending one, and compare and
// sweep modes with a loop that never ends.
import { expect, open, openExample, replaceText, setStepLimit, test, type Page } from './helpers';

/** Every lane loops forever; the counter keeps the warp's state from ever repeating. */
const COUNTER = `//@ title Counter loop that never ends
//@ warp 32
//@ buffer out: i32[32]
//@ model kepler
__global__ void counter(int* out) {
    int i = 0;
    while (threadIdx.x < 100) {
        i = i + 1;
    }
    out[threadIdx.x] = i;
}
`;
const LOOP = /lanes 0-31 run the loop at 0x[0-9a-f]{4}-0x[0-9a-f]{4} \(lines 7-8\)/;

/** Steps the progress line reports (its `data-steps`). */
const progressSteps = async (page: Page) => Number(await page.getByTestId('run-progress').getAttribute('data-steps'));

/** Types at the end of the kernel during a run, and waits until the edit has started the run over
 * (after the editor's pause, the progress restarts from 0), so a Stop that follows ends the
 * edited run and no run starts after it. */
async function typeWhileRunning(page: Page, text: string): Promise<void> {
  await page.getByTestId('run-progress').evaluate((el) => {
    const w = window as unknown as { __restarted: boolean };
    w.__restarted = false;
    new MutationObserver((records) => {
      if (records.some((r) => r.oldValue === '0') || el.getAttribute('data-steps') === '0') w.__restarted = true;
    }).observe(el, { attributeFilter: ['data-steps'], attributeOldValue: true });
  });
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
  await expect(page.getByTestId('editor-content')).toContainText(text);
  await expect.poll(() => page.evaluate(() => (window as unknown as { __restarted: boolean }).__restarted)).toBe(true);
}

test('an endless loop runs in the background with progress; typing works meanwhile; Stop keeps the steps run', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('kernel-title')).toContainText('Figure 3');
  await setStepLimit(page, 50_000_000);
  await replaceText(page, COUNTER);
  const progress = page.getByTestId('run-progress');
  await expect(progress).toBeVisible();
  await expect(progress).toContainText(/Running… [\d.]+ [kM]? ?steps \(stops at 50\.0 M steps\)/);
  await expect.poll(() => progressSteps(page)).toBeGreaterThan(100_000);
  // Stop sits at the right end of the line, so it stays put while the count's text grows.
  const [line, stopBox] = [await progress.boundingBox(), await page.getByTestId('stop-run').boundingBox()];
  expect(line!.x + line!.width - (stopBox!.x + stopBox!.width)).toBeLessThan(24);
  // The last finished run stays on screen meanwhile.
  await expect(page.getByTestId('kernel-title')).toContainText('Figure 3');
  // The menus open and the editor takes typing: the page is usable. (The edit starts the run over.)
  await page.getByTestId('settings').click();
  await expect(page.getByTestId('step-limit')).toBeVisible();
  await page.getByTestId('settings').click();
  await typeWhileRunning(page, '// typed while it runs');
  await expect(progress).toBeVisible();
  await expect.poll(() => progressSteps(page)).toBeGreaterThan(200_000);
  // Responsiveness is shown by the input above being handled mid-run; how long each slice takes
  // is measured by the benchmark page (docs/performance.md), never asserted here.

  await page.getByTestId('stop-run').click();
  await expect(progress).toBeHidden();
  const stop = page.getByTestId('run-stop');
  await expect(stop).toHaveAttribute('data-kind', 'stopped');
  await expect(stop).toContainText(/Stopped: you stopped the run after \d+ steps/);
  await expect(stop).toContainText(LOOP);
  const steps = Number(/after (\d+) steps/.exec((await stop.textContent())!)![1]);
  expect(steps).toBeGreaterThan(200_000);
  expect(steps).toBeLessThan(50_000_000);
  // The scrubber covers exactly the steps run, and the stopped run is the one shown.
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(steps));
  await expect(page.getByTestId('scrubber')).toHaveAttribute('max', String(steps));
  await expect(page.getByTestId('kernel-title')).toHaveText('Counter loop that never ends');
  await expect(page.getByTestId('run-end')).toContainText('stopped');
  // The loop's line: shown in the editor at the run's last step.
  await page.getByTestId('stop-line').click();
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(steps));
  await expect(page.locator('#editor [data-testid=linked-line]')).toHaveAttribute('data-line', '8');
  await expect(page.locator('#listing [data-testid=linked-line]')).toHaveCount(1);
});

/** The counter loop running at the highest step limit (no machine reaches it before a Stop). */
async function runCounter(page: Page): Promise<void> {
  await open(page);
  await setStepLimit(page, 50_000_000);
  await replaceText(page, COUNTER);
  await expect.poll(() => progressSteps(page)).toBeGreaterThan(100_000);
}

test('Stop right after an edit stops the edited kernel: nothing runs after Stop, and the run shown is the text on screen', async ({ page }) => {
  await runCounter(page);
  // An edit, then Stop before the typing's pause has run it.
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('End');
  await page.keyboard.type(' (edited)');
  await page.getByTestId('stop-run').click();
  await expect(page.getByTestId('run-progress')).toBeHidden();
  await expect(page.getByTestId('run-stop')).toHaveAttribute('data-kind', 'stopped');
  await expect(page.getByTestId('kernel-title')).toHaveText('Counter loop that never ends (edited)');
  // Well past the pause: no run started after Stop.
  await page.waitForTimeout(1000);
  await expect(page.getByTestId('run-progress')).toBeHidden();
  await expect(page.getByTestId('run-stop')).toHaveAttribute('data-kind', 'stopped');
});

test('Stop keeps the focus where it was for a click, and hands it to the run\'s end notice from the keyboard', async ({ page }) => {
  await runCounter(page);
  await page.getByTestId('stop-run').click();
  await expect(page.getByTestId('run-stop')).toHaveAttribute('data-kind', 'stopped');
  // The editor had the focus (the text was just put there): typing goes on.
  await expect(page.getByTestId('editor-content')).toBeFocused();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('// after Stop');
  await expect(page.getByTestId('editor-content')).toContainText('// after Stop');
  // From the keyboard: Tab to Stop, Enter; the focus goes to "Show line", not to the page.
  await expect(page.getByTestId('run-progress')).toBeVisible();
  await page.getByTestId('stop-run').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run-stop')).toHaveAttribute('data-kind', 'stopped');
  await expect(page.getByTestId('stop-line')).toBeFocused();
});

test('a spin lock ends quickly as a deadlock that names the looping lanes, the waiting lane and their lines', async ({ page }) => {
  await open(page);
  await openExample(page, 'spin_lock.cu');
  const stop = page.getByTestId('run-stop');
  await expect(stop).toHaveAttribute('data-kind', 'deadlock');
  // Quickly in steps, not in time: the repeat is found 12,288 steps in, not at the 10 M limit.
  await expect(stop).toContainText('Deadlock: the warp can never finish: its state after step 12288');
  await expect(stop).toContainText('lanes 1-31 run the loop at 0x0030-0x0050 (line 13); lane 0 waits at 0x0060 (line 15), held by a SYNC entry');
  await expect(page.getByTestId('run-progress')).toBeHidden();
  // The notice strip shows its first line; "more" opens it whole, wrapped inside the window.
  await page.getByTestId('notice-more').click();
  const text = stop.locator('.run-stop-text');
  expect(await text.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('notices')).not.toHaveClass(/open/);
  await expect(page.getByTestId('stop-line')).toHaveText('Show line 13');
  await page.getByTestId('stop-line').click();
  await expect(page.locator('#editor [data-testid=linked-line]')).toHaveAttribute('data-line', '13');
  await expect(page.locator('#editor [data-testid=linked-line]')).toBeInViewport();
  // At the run's end the CFG's badge sits over the block lane 0 waits for (one lane: singular).
  await expect(page.locator('.wait-badge')).toHaveText(['lane 0 waits']);
  const total = await page.getByTestId('step-label').getAttribute('data-total');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', total!);
});

test('a lower step limit stops the loop there, names the loop, and is kept across a reload', async ({ page }) => {
  await open(page);
  await setStepLimit(page, 50_000);
  await replaceText(page, COUNTER);
  const stop = page.getByTestId('run-stop');
  await expect(stop).toHaveAttribute('data-kind', 'step_limit');
  await expect(stop).toContainText('Step limit reached: stopped after 50000 steps (the step limit) with the warp still looping');
  await expect(stop).toContainText(LOOP);
  await expect(stop).toContainText('Raise the step limit in Settings');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', '50000');
  await expect(page.getByTestId('stop-line')).toHaveText('Show line 8');
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('step-limit')).toHaveValue('50000');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', '50000');
  // A value out of range is marked and not used.
  await page.getByTestId('settings').click();
  await page.getByTestId('step-limit').fill('5');
  await page.getByTestId('step-limit').press('Enter');
  await expect(page.getByTestId('step-limit')).toHaveClass(/invalid/);
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', '50000');
});

test('a newer load supersedes a run still loading: its result never shows', async ({ page }) => {
  await open(page);
  // The highest limit: at the default one the loop now ends while the next kernel is typed.
  await setStepLimit(page, 50_000_000);
  await replaceText(page, COUNTER);
  await expect(page.getByTestId('run-progress')).toBeVisible();
  await replaceText(page, '//@ title short one\nIADD R1, R1, 0x1;\nEXIT;\n');
  await expect(page.getByTestId('kernel-title')).toHaveText('short one');
  await expect(page.getByTestId('run-progress')).toBeHidden();
  // Long enough for the old run to have reached its limit, had it gone on.
  await page.waitForTimeout(4000);
  await expect(page.getByTestId('kernel-title')).toHaveText('short one');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', '2');
  await expect(page.getByTestId('run-stop')).toBeHidden();
});

test('compare mode loads both sides of an endless loop in the background; Stop ends both', async ({ page }) => {
  await open(page);
  // The highest limit, so neither side can reach it before Stop on a fast machine.
  await setStepLimit(page, 50_000_000);
  await replaceText(page, COUNTER);
  await page.getByTestId('stop-run').click();
  await page.getByTestId('btn-compare').click();
  await page.getByTestId('side-b-model').selectOption('pdom');
  const progress = page.getByTestId('run-progress');
  await expect(progress).toContainText(/left .* · right .*steps/);
  await typeWhileRunning(page, '// still typing');
  await expect(progress).toBeVisible();
  await page.getByTestId('stop-run').click();
  await expect(progress).toBeHidden();
  await expect(page.getByTestId('side-a-banner')).toContainText('you stopped the run');
  await expect(page.getByTestId('side-b-banner')).toContainText('you stopped the run');
  // The table's reports load each run again in a worker: both still end as stopped there.
  await expect(page.getByTestId('compare-row-stop').locator('td')).toHaveText(['stopped', 'stopped'], { timeout: 20_000 });
});

test('a sweep of an endless loop keeps the page usable, can be cancelled, and uses the step limit', async ({ page }) => {
  await open(page);
  const SWEPT = COUNTER.replace('//@ buffer out', '//@ param n = 1\n//@ buffer add: i32[32] = n\n//@ buffer out')
    .replace('int* out', 'int* add, int* out').replace('i = i + 1', 'i = i + add[threadIdx.x] + 1');
  await setStepLimit(page, 20_000);
  await replaceText(page, SWEPT);
  await expect(page.getByTestId('run-stop')).toHaveAttribute('data-kind', 'step_limit');
  await page.getByTestId('btn-sweep').click();
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await expect(page.getByTestId('sweep-stop').first()).toContainText('stopped after 20000 steps (step limit)');
  // At the default limit every run takes seconds: the page still answers, and Cancel stops it.
  await setStepLimit(page, 10_000_000);
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-status', 'running');
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('// typed during the sweep');
  await expect(page.getByTestId('editor-content')).toContainText('// typed during the sweep');
  await page.getByTestId('sweep-cancel').click();
  await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-status', 'cancelled');
});

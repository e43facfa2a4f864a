// The timing model (preset h100-timed) on the page: an H100 figure sets the model's own clock,
// nothing fitted, beside the measured dots with a residual strip; stepping one of the report's
// kernels says in the caption at which cycle each step issued and what it waited for.
import { expect, open, openExample, openFigure, seek, test } from './helpers';

test('an H100 timing figure: measured dots, residuals, and the model\'s own prediction with nothing fitted', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await openFigure(page, 'h100-timed-single-nounroll', true);
  await expect(page.getByTestId('sweep-metric')).toHaveValue('clock_window');
  await expect(page.locator('g[data-testid=sweep-measured]')).toHaveAttribute('data-points', '32');
  await expect(page.locator('g[data-testid=sweep-residual]')).toHaveAttribute('data-points', '32');
  await expect(page.getByTestId('legend-series')).toHaveText('volta · h100-timed: the timing model\'s own prediction, nothing fitted');
  await expect(page.getByTestId('legend-series')).not.toContainText('base');
  await expect(page.getByTestId('sweep-ylabel')).toHaveText('cycles (measured and predicted)');
  await expect(page.getByTestId('sweep-svg')).toBeInViewport();
});

test('stepping a kernel under h100-timed shows each step\'s cycle and what it waited for', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  // A counting preset: the caption says nothing of time.
  await seek(page, 3);
  await expect(page.getByTestId('step-timing')).toHaveCount(0);
  await openExample(page, 'h100/branch_ifonly.sm_90.sass');
  await expect(page.getByTestId('preset')).toHaveValue('h100-timed');
  await expect(page.getByTestId('step-timing')).toHaveCount(0);
  const cycles: number[] = [];
  for (const step of [1, 2, 3, 4]) {
    await page.getByTestId('btn-step').click();
    await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(step));
    const timing = page.getByTestId('step-timing');
    await expect(timing).toBeVisible();
    await expect(timing).toBeInViewport({ ratio: 1 });
    const cycle = Number(await timing.getAttribute('data-cycle'));
    await expect(timing).toContainText(`cycle ${cycle}`);
    cycles.push(cycle);
  }
  expect(cycles, 'cycles grow step by step').toEqual([...cycles].sort((a, b) => a - b));
  expect(new Set(cycles).size).toBe(cycles.length);
  // Another preset takes the timing away.
  await page.getByTestId('preset').selectOption('h100');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '4');
  await expect(page.locator('.last-instr')).toBeVisible();
  await expect(page.getByTestId('step-timing')).toHaveCount(0);
});

// The Output panel: printf's lines up to the step, each naming its lane and step; the current
// step's lines highlighted; a click seeks to a line's step; "this lane only"; a long output stays
// fast. Expectations come from the CLI's `run --json` of the same kernel (never from the UI).
import { expect, expectLaidOut, geometry, open, openExample, replaceText, seek, test, warpscope } from './helpers';

const FILE = 'examples/printf_divergent.cu';

interface Line { step: number; lane: number | null; text: string }
function cliOutput(file: string, options: string[] = []): Line[] {
  const out = warpscope(['run', file, '--json', ...options]);
  return (JSON.parse(out) as { output: Line[] }).output;
}
const lines = cliOutput(FILE);
const steps = [...new Set(lines.map((l) => l.step))];

async function showOutput(page: import('@playwright/test').Page): Promise<void> {
  await page.getByRole('tab', { name: 'Output' }).click();
  await expect(page.getByTestId('output')).toBeVisible();
}
const rows = (page: import('@playwright/test').Page) => page.getByTestId('output').getByRole('listitem');

test('the panel lists the lines printed up to the step, with lane and step, and highlights the step\'s', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await openExample(page, 'printf_divergent.cu');
  await showOutput(page);
  await expect(rows(page)).toHaveCount(0);
  await expect(page.getByTestId('output-summary')).toContainText(`0 of ${lines.length} lines`);
  // At the first printing step: its lines, all highlighted, each naming its lane and step.
  await seek(page, steps[0]);
  const first = lines.filter((l) => l.step === steps[0]);
  await expect(rows(page)).toHaveCount(first.length);
  for (const [i, l] of first.entries()) {
    await expect(rows(page).nth(i)).toContainText(`step ${l.step} · lane ${l.lane}`);
    await expect(rows(page).nth(i)).toContainText(l.text.trimEnd());
    await expect(rows(page).nth(i)).toHaveClass(/\bnow\b/);
  }
  // At the end: every line, in the order printed; the older ones no longer highlighted.
  await seek(page, steps[steps.length - 1]);
  await expect(page.getByTestId('output-summary')).toContainText(`${lines.length} of ${lines.length} lines`);
  // The list draws the rows in view: scrolled to the end (it follows the step), then to the top.
  await expect(rows(page).last()).toHaveClass(/\bnow\b/);
  await expect(rows(page).last()).toContainText(lines[lines.length - 1].text.trimEnd());
  await page.getByTestId('output').evaluate((el) => { el.scrollTop = 0; });
  await expect(rows(page).first()).toContainText(`step ${lines[0].step} · lane ${lines[0].lane}${lines[0].text.trimEnd()}`);
  await expect(rows(page).first()).not.toHaveClass(/\bnow\b/);
  const drawn = await rows(page).allTextContents();
  expect(drawn).toEqual(lines.slice(0, drawn.length).map((l) => `step ${l.step} · lane ${l.lane}${l.text.trimEnd()}`));
  expectLaidOut(await geometry(page), '1280x720 with the output', ['output']);
});

test('a click on a line seeks to its step; "this lane only" keeps the chosen lane', async ({ page }) => {
  await open(page);
  await openExample(page, 'printf_divergent.cu');
  await showOutput(page);
  await seek(page, steps[steps.length - 1] + 2);
  await rows(page).first().getByRole('button').click();
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(lines[0].step));
  await seek(page, steps[steps.length - 1]);
  // The chosen lane's lines are emphasised; the filter keeps only them. (On a short screen the
  // registers, where the lane is typed, share the output's group.)
  await page.getByRole('tab', { name: 'Registers' }).click();
  await page.getByTestId('lane-select').fill('3');
  await showOutput(page);
  await expect(rows(page).filter({ hasText: 'lane 3' })).toHaveClass(/\bmine\b/);
  await page.getByTestId('output-lane-only').check();
  await expect(rows(page)).toHaveCount(lines.filter((l) => l.lane === 3).length);
  await expect(rows(page).first()).toContainText(lines.find((l) => l.lane === 3)!.text.trimEnd());
});

test('10,000 lines stay fast: scrolling and stepping draw only the rows in view', async ({ page }) => {
  await open(page);
  await replaceText(page, '//@ warp 32\n__global__ void k() {\n  for (int i = 0; i < 400; i++) {\n    printf("i = %d, lane %d\\n", i, threadIdx.x);\n  }\n}\n');
  await showOutput(page);
  await expect(page.getByTestId('output-summary')).toContainText('of 10001 lines');
  const end = Number(await page.getByTestId('step-label').getAttribute('data-total'));
  await seek(page, end);
  await expect(page.getByTestId('output-summary')).toContainText('10001 of 10001 lines');
  expect(await rows(page).count()).toBeLessThan(120);
  await expect(rows(page).last()).toContainText('output truncated');
  for (const t of [end - 1, Math.floor(end / 2), 10, end]) await seek(page, t);
  await page.getByTestId('output').evaluate((el) => { el.scrollTop = el.scrollHeight / 3; });
  await expect(rows(page).first()).toBeVisible();
});

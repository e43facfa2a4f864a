// The checks in the Problems panel (issue 48): a buggy program pasted whole, one click runs
// compute-sanitizer's four tools on its launch, and the findings are the CLI's (`warpscope
// check --json` on the same text), each jumping to its line; an edit puts the button back.
import { cliTrace, exampleText, expect, open, replaceText, runAllowingFailure, showTab, tempFile, test } from './helpers';

test('a program missing its barrier: the checks find the race at its line, as `warpscope check` does', async ({ page }) => {
  const text = exampleText('examples/sanitizer/reduce_missing_barrier.cu');
  const file = tempFile('reduce.cu', text);
  type CliSide = { line: number; step: number; block: number[] };
  const cli = JSON.parse(runAllowingFailure(['check', file, '--json'])) as { findings: { tool: string; first: CliSide; second: CliSide | null }[] };
  expect(cli.findings.length).toBeGreaterThan(0);
  await open(page);
  await replaceText(page, text);
  await expect(page.getByTestId('kernel-title')).toHaveText('reduce');
  await showTab(page, 'Problems');
  await page.getByTestId('checks-run').click();
  await expect(page.getByTestId('checks-summary')).toHaveText(`${cli.findings.length} findings under volta`);
  const rows = page.getByTestId('finding');
  await expect(rows).toHaveCount(cli.findings.length);
  expect(await rows.evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.tool, Number((e as HTMLElement).dataset.line)])))
    .toEqual(cli.findings.map((f) => [f.tool, f.first.line]));
  await expect(rows.first()).toContainText('Race reported between');
  // A click puts the editor on the finding's line.
  await rows.first().locator('.finding-head').click();
  await expect(page.getByTestId('editor-content')).toBeFocused();
  const cursorText = () => page.evaluate(() => window.getSelection()?.anchorNode?.parentElement?.closest('.cm-line')?.textContent ?? '');
  await expect.poll(cursorText).toContain('s[t] += s[t + stride]');
  // Its steps, in the block shown (block 0): the scrubber goes there, and the CLI's trace has
  // the finding's line's instruction at that step.
  const first = cli.findings[0];
  await rows.first().getByTestId('finding-step-second').click();
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(first.second!.step));
  const row = cliTrace(file).rows.filter(Boolean).find((r) => r.step === first.second!.step);
  expect(row?.text, 'a shared access at the step').toMatch(/\b(LDS|STS|LD|ST)(\.E)? /);
  await rows.first().getByTestId('finding-step-first').click();
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(first.first.step));
  // An edit: the findings were of the text before; the button is back.
  await replaceText(page, text.replace('#define N 256', '#define N 128'));
  await showTab(page, 'Problems');
  await expect(page.getByTestId('checks-run')).toBeVisible();
  await expect(page.getByTestId('finding')).toHaveCount(0);
});

test('a finding in another block: its button shows that block at its step, and the scrubber marks it', async ({ page }) => {
  // The second half of the input was never copied: the first uninitialised read is block 1's.
  const text = exampleText('examples/sanitizer/partial_copy.cu');
  const file = tempFile('partial.cu', text);
  type CliSide = { step: number; block: number[] };
  const cli = JSON.parse(runAllowingFailure(['check', file, '--json'])) as { findings: { tool: string; first: CliSide }[] };
  expect(cli.findings.map((f) => [f.tool, f.first.block])).toEqual([['initcheck', [1, 0, 0]]]);
  const step = cli.findings[0].first.step;
  await open(page);
  await replaceText(page, text);
  await expect(page.getByTestId('kernel-title')).toHaveText('scale');
  await showTab(page, 'Problems');
  await page.getByTestId('checks-run').click();
  const go = page.getByTestId('finding').first().getByTestId('finding-step-first');
  await expect(go).toHaveText(`Block (1, 0, 0), step ${step}`);
  await expect(page.getByTestId('finding-mark'), 'block 0 shown: no mark').toHaveCount(0);
  await go.click();
  await expect(page.getByTestId('warps-block')).toHaveValue('(1, 0, 0)');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(step));
  // The findings stay (they cover every block), and the block shown has its mark: a click on
  // it brings the scrubber back to the read.
  await expect(page.getByTestId('finding')).toHaveCount(1);
  await expect(go).toHaveText(`Step ${step}`);
  const mark = page.getByTestId('finding-mark');
  await expect(mark).toHaveCount(1);
  await expect(mark).toHaveAttribute('title', /^initcheck: Uninitialized __global__ memory read of size 4 bytes at line 7 \(128 times\): step \d+/);
  await page.getByTestId('btn-home').click();
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '0');
  await mark.click();
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(step));
});

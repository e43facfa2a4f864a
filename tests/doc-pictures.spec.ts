// The pictures of docs/reconvergence.md, taken from the app in compare mode. Written only with
// DOC_PICTURES=1 (the test run must not change files in the repository); asserts nothing.
import { mkdirSync } from 'node:fs';
import { open, openExample, seek, test } from './helpers';

test('pictures for docs/reconvergence.md', async ({ page }) => {
  test.skip(!process.env.DOC_PICTURES, 'set DOC_PICTURES=1 to refresh docs/img');
  mkdirSync('docs/img', { recursive: true });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await open(page);
  const shots: [string, string, string, number, string][] = [
    ['if_else.cu', 'pdom', 'tf-stack', 6, 'if_else_compare'],
    ['loop_break.cu', 'tf-stack', 'volta', 21, 'loop_break_compare'],
    ['tf_barrier.cu', 'pdom', 'tf-stack', 12, 'tf_barrier_compare'],
    ['tf_figure1.sass', 'pdom', 'tf-stack', 12, 'tf_figure1_compare'],
  ];
  for (const [file, a, b, step, name] of shots) {
    await openExample(page, file);
    if ((await page.getByTestId('btn-compare').getAttribute('aria-pressed')) !== 'true') await page.getByTestId('btn-compare').click();
    await page.getByTestId('side-a-model').selectOption(a);
    await page.getByTestId('side-b-model').selectOption(b);
    await seek(page, step);
    await page.screenshot({ path: `docs/img/${name}.png` });
  }
});

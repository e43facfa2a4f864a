// The pictures of docs/reconvergence.md, taken from the app in compare mode (`npm run shots`):
// into docs/img with DOC_PICTURES=1, else beside the other screenshots, so a look at them never
// changes the repository; asserts nothing.
import { mkdirSync } from 'node:fs';
import { open, openExample, seek, test } from '../helpers';

const out = process.env.DOC_PICTURES ? 'docs/img' : `${process.env.SHOTS_DIR ?? '/tmp/shots'}/docs-img`;

test('pictures for docs/reconvergence.md', async ({ page }) => {
  mkdirSync(out, { recursive: true });
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
    await page.screenshot({ path: `${out}/${name}.png` });
  }
});

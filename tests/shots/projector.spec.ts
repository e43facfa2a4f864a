// Screenshots of what a lecture hall sees (`npm run shots`): the three named layouts at a 720p
// projector's size, a portrait tablet, and the Embed dialog's two slide sizes.
import { mkdirSync } from 'node:fs';
import { exampleText, open, openExample, seek, test, useLayout } from '../helpers';
import { makeLink } from '../link-maker';

const dir = process.env.SHOTS_DIR ?? '/tmp/shots';
mkdirSync(dir, { recursive: true });

test('screenshots of each layout at 1280x720 and 768x1024', async ({ page }) => {
  for (const [w, h] of [[1280, 720], [768, 1024], [1920, 1080]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    for (const layout of ['lecture', 'research', 'study']) {
      await useLayout(page, layout);
      await openExample(page, 'double_loop.cu');
      await seek(page, 150);
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${dir}/projector-${layout}-${w}x${h}.png` });
    }
  }
});

test('screenshots of embeds at the Embed dialog\'s sizes', async ({ page }) => {
  // Step 130: three tokens on the stack, a long note in the caption.
  const link = makeLink({ text: exampleText('examples/fig3_walkthrough.sass'), step: 130 });
  for (const [w, h] of [[800, 450], [640, 360]] as const) {
    await page.setViewportSize({ width: w, height: h });
    for (const panels of ['caption,cfg,lanes,stack', 'caption,cfg,lanes,stack,plot']) {
      await page.goto('about:blank');
      await open(page, `./${link}&embed=${panels}`);
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${dir}/embed-${panels.split(',').length}-${w}x${h}.png` });
    }
  }
});

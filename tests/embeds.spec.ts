// Embeds show what they promise at the Embed dialog's two slide sizes: Figure 3's walk-through at
// a step with three tokens on its stack, every panel it asks for. Geometry, not pixels.
import { exampleText, expect, expectCaptionMore, open, overlapping, showTab, test } from './helpers';
import { makeLink } from './link-maker';

for (const [w, h] of [[800, 450], [640, 360]] as const) {
  test(`an embed at ${w}x${h} shows what it promises`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    const link = makeLink({ text: exampleText('examples/fig3_walkthrough.sass'), step: 130 });
    await open(page, `./${link}&embed=caption,cfg,lanes,stack,plot`);

    // The caption strip holds three lines of this step's long note: it says there is more.
    expect(await expectCaptionMore(page, `${w}x${h}`)).toBe(true);

    // The stack history, short here: its depth labels stay apart.
    await showTab(page, 'Stack history');
    await expect(page.getByTestId('plot-svg')).toBeVisible();
    expect(await page.locator('#plot .depth-tick').count()).toBeGreaterThanOrEqual(2);
    expect(await overlapping(page, '#plot .depth-tick'), 'depth labels on top of each other').toEqual([]);
  });
}

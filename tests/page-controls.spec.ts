// The page's own controls answer the keyboard and the pointer as a user expects: the lane box
// shows the lane typed at once, the arrow keys step the run after a pick in a select but keep
// their meaning in fields and the editor, ? opens and closes the help, and the top bar's menus
// close after a choice, on Esc and on a click outside.
import { expect, open, replaceText, seek, test, type Page } from './helpers';

const step = (page: Page) => page.getByTestId('step-label');
/** R1's value as the registers panel shows it ("0x00000011 17"). */
const r1 = (page: Page) => page.getByTestId('registers').locator('.reg').filter({ has: page.locator('b', { hasText: /^R1$/ }) });

test('the lane box shows the registers of the lane being typed at once, and leaves the typing alone', async ({ page }) => {
  await open(page);
  // Each lane's R1 is its own lane number.
  await replaceText(page, '//@ title lanes differ\nS2R R1, SR_TID.X;\nEXIT;\n');
  await expect(step(page)).toHaveAttribute('data-total', '2');
  await seek(page, 1);
  const box = page.getByTestId('lane-select');
  await box.click();
  await box.press('Control+a');
  await page.keyboard.type('1');
  await expect(r1(page)).toHaveText(/ 1$/);
  await page.keyboard.type('7');
  await expect(r1(page)).toHaveText(/ 17$/);
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('17');
  // A lane the warp does not have is marked, and the last good lane stays shown.
  await page.keyboard.type('9');
  await expect(box).toHaveValue('179');
  await expect(box).toHaveClass(/invalid/);
  await expect(r1(page)).toHaveText(/ 17$/);
  // Leaving the box puts the lane shown back in it.
  await page.keyboard.press('Tab');
  await expect(box).toHaveValue('17');
  await expect(box).not.toHaveClass(/invalid/);
  // Stepping keeps the lane.
  await seek(page, 2);
  await seek(page, 1);
  await expect(r1(page)).toHaveText(/ 17$/);
});

test('after a pick in a select the arrow keys step the run; in a field or the editor they keep their meaning', async ({ page }) => {
  await open(page);
  await expect(step(page)).toHaveAttribute('data-step', '0');
  // A pick leaves the focus on the select, as a mouse pick does.
  const preset = page.getByTestId('preset');
  await preset.selectOption('maxwell');
  await preset.focus();
  await page.keyboard.press('ArrowRight');
  await expect(step(page)).toHaveAttribute('data-step', '1');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await expect(step(page)).toHaveAttribute('data-step', '1');
  await expect(preset).toHaveValue('maxwell');
  await expect(preset).toBeFocused();
  // The select still works from the keyboard: up and down change the preset.
  await page.keyboard.press('ArrowDown');
  await expect(preset).toHaveValue('h100');
  await expect(step(page)).toHaveAttribute('data-step', '1');
  // The speed select too.
  await page.getByTestId('speed').focus();
  const at = Number(await step(page).getAttribute('data-step'));
  await page.keyboard.press('ArrowRight');
  await expect(step(page)).toHaveAttribute('data-step', String(at + 1));
  // In a number field the arrows edit it; in the editor they move the cursor.
  await page.getByTestId('param-n').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await expect(step(page)).toHaveAttribute('data-step', String(at + 1));
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await expect(step(page)).toHaveAttribute('data-step', String(at + 1));
  // Space presses a focused button (here: opens the gallery) rather than playing.
  await page.getByTestId('btn-examples').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('gallery')).toBeVisible();
  await expect(page.getByTestId('btn-play')).toHaveText(/play/);
});

test('? opens the help and closes it again', async ({ page }) => {
  await open(page);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  await expect(page.getByTestId('help')).toBeVisible();
  await page.keyboard.press('?');
  await expect(page.getByTestId('help')).toBeHidden();
  // Also after a click on the help's text.
  await page.keyboard.press('?');
  await page.getByTestId('help').locator('h2').first().click();
  await page.keyboard.press('?');
  await expect(page.getByTestId('help')).toBeHidden();
  await page.keyboard.press('?');
  await expect(page.getByTestId('help')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('help')).toBeHidden();
});

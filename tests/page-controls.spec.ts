// The page's own controls answer the keyboard and the pointer as a user expects: the lane box
// shows the lane typed at once, the arrow keys step the run after a pick in a select but keep
// their meaning in fields and the editor, ? opens and closes the help, and the top bar's menus
// close after a choice, on Esc and on a click outside.
import { expect, open, replaceText, savedWork, seek, test, type Page } from './helpers';

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

test('the Export and settings menus close after a choice, on Esc and on a click outside', async ({ page }) => {
  await open(page);
  const exportMenu = page.locator('details.menu').filter({ has: page.getByTestId('export-menu') });
  const settingsMenu = page.locator('details.menu').filter({ has: page.getByTestId('settings') });
  // After a choice, and the download still happens.
  await page.getByTestId('export-menu').click();
  await expect(exportMenu).toHaveAttribute('open', '');
  await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  await expect(exportMenu).not.toHaveAttribute('open');
  await expect(page.getByTestId('export-csv')).toBeHidden();
  // On Esc, with the focus back on the menu's button.
  await page.getByTestId('export-menu').click();
  await expect(page.getByTestId('export-csv')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(exportMenu).not.toHaveAttribute('open');
  await expect(page.getByTestId('export-menu')).toBeFocused();
  // Opened from the keyboard, Esc from inside it.
  await page.keyboard.press('Enter');
  await expect(exportMenu).toHaveAttribute('open', '');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('export-svg')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(exportMenu).not.toHaveAttribute('open');
  await expect(page.getByTestId('export-menu')).toBeFocused();
  // On a click outside; opening the other menu closes this one.
  await page.getByTestId('export-menu').click();
  await page.getByTestId('settings').click();
  await expect(exportMenu).not.toHaveAttribute('open');
  await expect(settingsMenu).toHaveAttribute('open', '');
  await page.getByTestId('caption').click();
  await expect(settingsMenu).not.toHaveAttribute('open');
  // A step limit set with Enter is a choice too.
  await page.getByTestId('settings').click();
  await page.getByTestId('step-limit').fill('2000000');
  await page.getByTestId('step-limit').press('Enter');
  await expect(settingsMenu).not.toHaveAttribute('open');
  await expect(page.getByTestId('settings')).toBeFocused();
  await expect.poll(async () => JSON.parse((await savedWork(page))!).stepLimit).toBe(2_000_000);
  // In sweep mode the menu no longer covers the sweep's own buttons once a choice is made.
  await page.getByTestId('btn-sweep').click();
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await page.getByTestId('export-menu').click();
  await Promise.all([page.waitForEvent('download'), page.getByTestId('export-sweep-csv').click()]);
  await Promise.all([page.waitForEvent('download'), page.getByTestId('sweep-export-svg').click({ timeout: 2000 })]);
});

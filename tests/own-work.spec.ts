// Work is never lost: autosave across reloads, a link that would replace the user's kernel asks
// first (at load and when the hash changes) and keeps the user's kernel aside when taken up,
// opening an example over it keeps it aside too, embed links never touch the saved work, undo covers typing and example loads, and storage that
// is full or turned off costs one quiet banner, not the page.
import { exampleText, expect, makeOwnWork, open, openExample, replaceText, savedWork, test, type Page } from './helpers';
import { makeLink, readLink } from './link-maker';

const ASIDE_KEY = 'warpscope.work.aside.v1';
const aside = (page: Page) => page.evaluate((k) => localStorage.getItem(k), ASIDE_KEY);
const LINKED = '//@ title Someone else\'s kernel\nIADD R2, R2, 0x2;\nEXIT;\n';
const link = makeLink({ text: LINKED, model: 'pdom' });

/** The whole text in the editor, read exactly: through Copy link and the facade's decoder. */
async function editorText(page: Page): Promise<string> {
  await page.getByTestId('copy-link').click();
  const url = (await page.getByTestId('copy-link').getAttribute('data-link'))!;
  return readLink(url.slice(url.indexOf('#'))).link!.text;
}

async function openFresh(page: Page, fragment: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`/${fragment}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
}

test('typing, then a reload, brings back the exact text, params and model', async ({ page }) => {
  await open(page);
  await openExample(page, 'single_loop.sass');
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n// typed: ünïcode ✓ <b>');
  await page.getByTestId('param-n').fill('5');
  await page.getByTestId('model').selectOption('pdom');
  await expect(page.getByTestId('model')).toHaveValue('pdom');
  const expected = `${exampleText('examples/single_loop.sass')}\n// typed: ünïcode ✓ <b>`;
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('param-n')).toHaveValue('5');
  await expect(page.getByTestId('model')).toHaveValue('pdom');
  expect(await editorText(page)).toBe(expected);
});

test('a link to another kernel asks first and saves nothing until answered; "Back to my kernel" leaves the link', async ({ page }) => {
  const saved = await makeOwnWork(page);
  await openFresh(page, link);
  await expect(page.getByTestId('link-question')).toHaveText(/This link opens another kernel than yours\. Your own kernel is kept/);
  await expect(page.getByTestId('kernel-title')).toHaveText('Someone else\'s kernel');
  // Playing, seeking and scrolling the link's run save nothing.
  await page.getByTestId('btn-end').click();
  expect(await savedWork(page)).toBe(saved);
  // Not answered, a reload asks again.
  await page.reload();
  await expect(page.getByTestId('link-question')).toBeVisible();
  expect(await savedWork(page)).toBe(saved);
  await page.getByTestId('link-keep-mine').click();
  await expect(page.getByTestId('kernel-title')).toHaveText('My own kernel');
  await expect(page.getByTestId('work-note')).toBeHidden();
  expect(await page.evaluate(() => location.hash)).toBe('');
  expect(await savedWork(page)).toBe(saved);
  expect(await aside(page)).toBeNull();
  await page.reload();
  await expect(page.getByTestId('kernel-title')).toHaveText('My own kernel');
});

test('using the link keeps your kernel aside; you can swap back and forth, then forget the copy', async ({ page }) => {
  const saved = await makeOwnWork(page);
  await openFresh(page, link);
  await page.getByTestId('link-use').click();
  await expect(page.getByTestId('aside-note')).toHaveText('Your own kernel is kept aside.');
  expect(JSON.parse((await savedWork(page))!).text).toBe(LINKED);
  expect(JSON.parse((await aside(page))!)).toEqual({ work: JSON.parse(saved), owner: 'mine' });
  expect(await page.evaluate(() => location.hash)).toBe('');
  await page.reload();
  await expect(page.getByTestId('kernel-title')).toHaveText('Someone else\'s kernel');
  await expect(page.getByTestId('aside-swap')).toHaveText('Back to my kernel');
  await page.getByTestId('aside-swap').click();
  await expect(page.getByTestId('kernel-title')).toHaveText('My own kernel');
  expect(await savedWork(page)).toBe(saved);
  await expect(page.getByTestId('aside-note')).toHaveText('The link\'s kernel is kept aside.');
  await page.getByTestId('aside-swap').click();
  await expect(page.getByTestId('kernel-title')).toHaveText('Someone else\'s kernel');
  await expect(page.getByTestId('model')).toHaveValue('pdom');
  await page.getByTestId('aside-forget').click();
  await expect(page.getByTestId('work-note')).toBeHidden();
  expect(await aside(page)).toBeNull();
});

test('opening an example keeps your kernel aside, across a reload; back to it, the example needs no keeping', async ({ page }) => {
  const saved = await makeOwnWork(page);
  await openExample(page, 'if_else.cu');
  await expect(page.getByTestId('aside-note')).toHaveText('Your own kernel is kept aside.');
  expect(JSON.parse((await aside(page))!)).toEqual({ work: JSON.parse(saved), owner: 'mine' });
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  expect(JSON.parse((await savedWork(page))!).text).toBe(exampleText('examples/if_else.cu'));
  await page.getByTestId('aside-swap').click();
  await expect(page.getByTestId('kernel-title')).toHaveText('My own kernel');
  expect(await savedWork(page)).toBe(saved);
  await expect(page.getByTestId('work-note')).toBeHidden();
  expect(await aside(page)).toBeNull();
  // An example opened over an example keeps nothing.
  await openExample(page, 'if_else.cu');
  await expect(page.getByTestId('aside-note')).toHaveText('Your own kernel is kept aside.');
  await page.getByTestId('aside-forget').click();
  await openExample(page, 'double_loop.cu');
  await expect(page.getByTestId('work-note')).toBeHidden();
});

test('the note that your kernel is kept aside waits behind the way the example\'s run ended', async ({ page }) => {
  await open(page);
  // A kernel of one's own whose run ends early: its notice is on screen when the example opens.
  await replaceText(page, '//@ title My own loop\nL: BRA L;\nEXIT;\n');
  await expect(page.getByTestId('run-stop')).toHaveAttribute('data-kind', 'deadlock');
  await openExample(page, 'spin_lock.cu');
  await expect(page.getByTestId('run-stop')).toContainText('lane 0 waits');
  await expect(page.getByTestId('run-stop')).toHaveAttribute('data-notice', 'current');
  await expect(page.getByTestId('work-note')).toHaveAttribute('data-notice', 'queued');
  await page.getByTestId('notice-next').click();
  await expect(page.getByTestId('aside-note')).toBeVisible();
});

test('editing the link\'s kernel takes it up, with your own kept aside first', async ({ page }) => {
  const saved = await makeOwnWork(page);
  await openFresh(page, link);
  await expect(page.getByTestId('link-question')).toBeVisible();
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('// my change to their kernel');
  await expect(page.getByTestId('aside-note')).toHaveText('Your own kernel is kept aside.');
  await expect.poll(async () => JSON.parse((await savedWork(page))!).text).toBe(`${LINKED}// my change to their kernel`);
  expect(JSON.parse((await aside(page))!).work).toEqual(JSON.parse(saved));
});

test('a link with the same kernel as the saved one opens without a question', async ({ page }) => {
  const saved = await makeOwnWork(page);
  await openFresh(page, makeLink({ text: JSON.parse(saved).text, model: 'volta' }));
  await expect(page.getByTestId('model')).toHaveValue('volta');
  await expect(page.getByTestId('work-note')).toBeHidden();
});

test('a link pasted into an open tab asks the same question', async ({ page }) => {
  const saved = await makeOwnWork(page);
  await page.evaluate((f) => { location.hash = f; }, link);
  await expect(page.getByTestId('link-question')).toBeVisible();
  await expect(page.getByTestId('kernel-title')).toHaveText('Someone else\'s kernel');
  expect(await savedWork(page)).toBe(saved);
  await page.getByTestId('link-keep-mine').click();
  await expect(page.getByTestId('kernel-title')).toHaveText('My own kernel');
  expect(await page.evaluate(() => location.hash)).toBe('');
  expect(await savedWork(page)).toBe(saved);
  // Ctrl+Z in the editor brings the link's text back (putting your kernel back was an edit).
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('kernel-title')).toHaveText('Someone else\'s kernel');
});

test('an embed link never asks and never touches the saved work', async ({ page }) => {
  const saved = await makeOwnWork(page);
  await openFresh(page, `${link}&embed=editor,cfg,stack`);
  await expect(page.locator('[data-panel=cfg]')).toBeVisible();
  await expect(page.getByTestId('work-note')).toBeHidden();
  await page.keyboard.press('End');
  await expect(page.getByTestId('step-label')).not.toHaveAttribute('data-step', '0');
  expect(await savedWork(page)).toBe(saved);
  expect(await aside(page)).toBeNull();
});

test('Ctrl+Z and Ctrl+Shift+Z undo and redo typing, and an example load', async ({ page }) => {
  await makeOwnWork(page);
  // Changes less than half a second apart are one undo step, as in any editor.
  await page.waitForTimeout(600);
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('// abc');
  await expect(page.getByTestId('editor-content')).toContainText('// abc');
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('editor-content')).not.toContainText('// abc');
  await page.keyboard.press('Control+Shift+Z');
  await expect(page.getByTestId('editor-content')).toContainText('// abc');
  const mine = await editorText(page);
  await openExample(page, 'single_loop.sass');
  await expect(page.getByTestId('kernel-title')).toHaveText(/^Single loop/);
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('kernel-title')).toHaveText('My own kernel');
  expect(await editorText(page)).toBe(mine);
  await expect.poll(async () => JSON.parse((await savedWork(page))!).text).toBe(mine);
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+Shift+Z');
  await expect(page.getByTestId('kernel-title')).toHaveText(/^Single loop/);
  expect(await editorText(page)).toBe(exampleText('examples/single_loop.sass'));
});

for (const [what, script] of [
  ['full', () => { Storage.prototype.setItem = () => { throw new DOMException('quota', 'QuotaExceededError'); }; }],
  ['turned off', () => { Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('denied', 'SecurityError'); } }); }],
] as const) {
  test(`storage that is ${what} costs one quiet banner, not the page`, async ({ page }) => {
    await page.addInitScript(script);
    await open(page);
    await expect(page.getByTestId('kernel-title')).toContainText('Figure 3');
    await replaceText(page, '//@ title unsaved\nIADD R1, R1, 0x1;\nEXIT;\n');
    await expect(page.getByTestId('kernel-title')).toHaveText('unsaved');
    const note = page.getByTestId('banner').filter({ hasText: 'Your work cannot be saved in this browser' });
    await expect(note).toHaveCount(1);
    await expect(note).toHaveAttribute('role', 'status');
    await replaceText(page, '//@ title still running\nIADD R1, R1, 0x1;\nIADD R1, R1, 0x1;\nEXIT;\n');
    await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', '3');
    await expect(note).toHaveCount(1);
    await expect(page.getByTestId('banner')).toHaveCount(1);
  });
}

// Broken and hostile permalinks: each says what is wrong (or shows its markup as plain text),
// runs no script, injects no element, opens no dialog, leaves the editor working, and leaves the
// user's saved work byte for byte as it was.
import { expect, makeOwnWork, replaceText, SAVE_KEY, savedWork, test, type Page } from './helpers';
import { makeLink, packBytes, packJson } from './link-maker';

const EVIL = [
  '<img src=x onerror="window.__pwned=1">', '<script>window.__pwned=1</script>', 'javascript:window.__pwned=1', '"><svg onload="window.__pwned=1">',
].join(' ');

/** Opens `fragment` as a fresh page load (not a hashchange). */
async function openFresh(page: Page, fragment: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`/${fragment}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
}

/** Nothing ran and nothing was injected; the saved work is as it was. */
async function expectUnharmed(page: Page, saved: string): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await page.evaluate(() => ({
    img: document.querySelectorAll('img[src="x"], img[onerror]').length,
    svg: document.querySelectorAll('svg[onload]').length,
    script: [...document.scripts].filter((s) => !s.src || /pwned/.test(s.textContent ?? '')).length,
    handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name))).length,
    jsUrls: [...document.querySelectorAll('[href], [src], [action]')]
      .filter((el) => /^\s*javascript:/i.test(el.getAttribute('href') ?? el.getAttribute('src') ?? el.getAttribute('action') ?? '')).length,
  }))).toEqual({ img: 0, svg: 0, script: 0, handlers: 0, jsUrls: 0 });
  expect(await savedWork(page)).toBe(saved);
}

/** The editor still takes a kernel and the engine runs it. */
async function expectUsable(page: Page): Promise<void> {
  await replaceText(page, '//@ title still usable\nIADD R1, R1, 0x1;\nEXIT;\n');
  await expect(page.getByTestId('kernel-title')).toHaveText('still usable');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', '2');
}

const banner = (page: Page, text: string | RegExp) => page.getByTestId('banner').filter({ hasText: text });

const real = makeLink({ text: '//@ title a real link\nIADD R1, R1, 0x1;\nEXIT;\n', step: 1 });
const BROKEN: [string, string, string | RegExp][] = [
  ['corrupted (not base64url)', '#v1.%%%@@@', 'This link is corrupted: its data is not valid base64url.'],
  ['corrupted (bytes that do not inflate)', `#v1.${Buffer.from('not deflate at all, just bytes').toString('base64url')}`, 'corrupted or truncated'],
  ['truncated', real.slice(0, Math.floor(real.length / 2)), 'This link is corrupted or truncated: its data does not unpack.'],
  // Its data a length no encoder makes: the link stops partway through a character.
  ['cut short mid-character', real.slice(0, 4 + 4 * Math.floor((real.length - 6) / 4) + 1), 'This link is corrupted: it was cut short'],
  // Past the largest kernel and CUDA source a link holds (two times 256 KiB, packed).
  ['oversized', `#v1.${'A'.repeat(1_600_000)}`, /This link is too long \(1600003 characters; warpscope reads links of up to \d+\)/],
  ['from a newer version', real.replace('#v1.', '#v2.'), 'This link uses format v2, which this version of warpscope cannot read (it reads v1).'],
  ['a deflate bomb', packBytes(Buffer.concat([Buffer.from('{"v":1,"text":"'), Buffer.alloc(60_000_000, ' '), Buffer.from('"}')])),
    /This link unpacks to more than \d+ KiB, more than any kernel warpscope opens/],
  ['JSON that is not a state', packBytes(Buffer.from('{"v":1,"text":')), 'This link cannot be opened: it does not hold a saved state.'],
  ['a kernel text that is not text', packJson({ v: 1, text: { toString: '<img src=x>' } }), 'the kernel text is missing'],
  ['malformed params', packJson({ v: 1, text: 'EXIT;', params: { n: '<script>window.__pwned=1</script>' } }), 'the params are malformed'],
  ['a malformed compare choice', packJson({ v: 1, text: 'EXIT;', compare: { model: ['<img src=x onerror=alert(1)>'] } }), 'the compare choice is malformed'],
  ['a malformed sweep', packJson({ v: 1, text: 'EXIT;', sweep: { request: { param: 'n', from: '<b>', to: 3 }, metric: 'cycles' } }), /the sweep setting is malformed/],
  ['a malformed format number inside', packJson({ v: '<img src=x onerror=alert(1)>', text: 'EXIT;' }), 'its format number is malformed ("<img src=x onerror='],
];

// One page for every case, as a user meets them one after another: each link is a fresh load,
// and the saved work is put back as it was (byte for byte) before the next.
test('every broken link says so, keeps the saved work and leaves the page working', async ({ page }) => {
  test.setTimeout(120_000);
  const saved = await makeOwnWork(page);
  for (const [what, fragment, message] of BROKEN) {
    await test.step(`a link that is ${what}`, async () => {
      await openFresh(page, fragment);
      await expect(banner(page, message)).toHaveCount(1);
      await expect(banner(page, message)).toContainText('Showing your last saved kernel instead.');
      await expect(page.getByTestId('kernel-title')).toHaveText('My own kernel');
      await expect(page.getByTestId('link-question')).toHaveCount(0);
      await expectUnharmed(page, saved);
      await expectUsable(page);
      // The edit above saved the new kernel (saves are synchronous): the user's work goes back.
      await expect.poll(() => savedWork(page)).toContain('still usable');
      await page.evaluate(([key, work]) => localStorage.setItem(key, work), [SAVE_KEY, saved]);
    });
  }
});

test('in a fresh browser a broken link says why, and that the default example shows instead of saved work', async ({ page }) => {
  const [, fragment, message] = BROKEN[2];
  await openFresh(page, fragment);
  await expect(banner(page, message)).toHaveCount(1);
  await expect(banner(page, message)).toContainText('Nothing is saved in this browser yet, so the default example');
  await expect(banner(page, message)).toContainText('Figure 3 walk-through');
  await expect(banner(page, message)).not.toContainText('your last saved kernel');
  await expect(page.getByTestId('kernel-title')).toContainText('Figure 3 walk-through');
  await expectUsable(page);
});

test('a broken link pasted into an open tab says so and changes nothing', async ({ page }) => {
  const saved = await makeOwnWork(page);
  for (const [, fragment, message] of BROKEN.slice(0, 6)) {
    await page.evaluate((f) => { location.hash = f; }, fragment);
    await expect(banner(page, message)).toContainText('Your kernel stays as it was.');
    await expect(page.getByTestId('kernel-title')).toHaveText('My own kernel');
  }
  await expectUnharmed(page, saved);
  await expectUsable(page);
});

test('markup in the kernel text, title, about text and notes shows as text and runs nothing', async ({ page }) => {
  const saved = await makeOwnWork(page);
  const text = `//@ title ${EVIL}\n//@ about ${EVIL}\n//@ note step 1: ${EVIL}\nIADD R1, R1, 0x1; // ${EVIL}\nEXIT;\n`;
  await openFresh(page, makeLink({ text, step: 1 }));
  await expect(page.getByTestId('kernel-title')).toHaveText(EVIL);
  await expect(page.getByTestId('kernel-title')).toHaveAttribute('title', EVIL);
  await expect(page.getByTestId('caption')).toHaveText(EVIL);
  await expect(page.getByTestId('editor-content')).toContainText('<script>window.__pwned=1</script>');
  // Another kernel than the saved one: the question is asked, nothing is saved yet.
  await expect(page.getByTestId('link-question')).toBeVisible();
  await expectUnharmed(page, saved);
  await page.getByTestId('link-keep-mine').click();
  await expect(page.getByTestId('kernel-title')).toHaveText('My own kernel');
  await expectUnharmed(page, saved);
  await expectUsable(page);
});

test('markup in param, model and preset names comes back as located errors, shown as text', async ({ page }) => {
  const saved = await makeOwnWork(page);
  await openFresh(page, makeLink({ text: '//@ param n = 2\nIADD R1, R1, 0x1;\nEXIT;\n', params: { [EVIL]: 3, n: 4 }, model: EVIL, preset: EVIL }));
  await expect(page.getByTestId('diag-summary')).toContainText('2 errors in the kernel');
  await page.locator('.cm-lint-marker-error').first().hover();
  await expect(page.locator('.cm-tooltip-lint').first()).toContainText(`unknown model \`${EVIL}\` chosen`);
  await expectUnharmed(page, saved);
  // No run yet, but the model and preset can be chosen again: then the link's kernel runs.
  await page.getByTestId('model').selectOption('pdom');
  await page.getByTestId('preset').selectOption('kepler');
  await expect(page.getByTestId('diag-summary')).toHaveText('');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', '2');
  await expect(page.getByTestId('param-n')).toHaveValue('4');
});

test('markup in the compare model, figure id and embed names is refused as text', async ({ page }) => {
  const saved = await makeOwnWork(page);
  const text = '//@ title compare me\nIADD R1, R1, 0x1;\nEXIT;\n';
  await openFresh(page, makeLink({ text, compare: { model: EVIL, pathOrder: EVIL, schedule: EVIL }, figure: EVIL }));
  await expect(page.getByTestId('side-b-status')).toContainText(`could not run this kernel (line 1: unknown model \`${EVIL}\` chosen`);
  await expect(page.getByTestId('figure-note')).toBeHidden();
  await expectUnharmed(page, saved);
  await page.getByTestId('link-keep-mine').click();
  await expect(page.getByTestId('kernel-title')).toHaveText('My own kernel');
  // An embed link is read-only: it asks nothing and never touches the saved work.
  await openFresh(page, `${makeLink({ text, embed: [EVIL] })}&embed=${encodeURIComponent(EVIL)}`);
  await expect(banner(page, 'This embed link names no known panel')).toHaveCount(1);
  await expect(page.getByTestId('kernel-title')).toHaveText('compare me');
  await expect(page.getByTestId('link-question')).toHaveCount(0);
  await expectUnharmed(page, saved);
  await openFresh(page, '');
  await expect(page.getByTestId('kernel-title')).toHaveText('My own kernel');
  await expectUsable(page);
});

test('markup in sweep param, model, metric and measured names is refused as text', async ({ page }) => {
  const saved = await makeOwnWork(page);
  const sweep = {
    request: { param: EVIL, from: 0, to: 3, models: [EVIL], presets: [EVIL], split: { param: EVIL, values: [1] }, params: { [EVIL]: 1 } },
    metric: EVIL, measured: { file: EVIL, build: EVIL, kernel: EVIL, pattern: EVIL },
  };
  await openFresh(page, makeLink({ text: '//@ param n = 2\nIADD R1, R1, 0x1;\nEXIT;\n', sweep }));
  await expect(page.getByTestId('sweep-view')).toBeVisible();
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-status', /done|failed/);
  await expectUnharmed(page, saved);
  await page.getByTestId('link-keep-mine').click();
  await expect(page.getByTestId('kernel-title')).toHaveText('My own kernel');
  await expectUnharmed(page, saved);
});

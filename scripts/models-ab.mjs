// The model sweeps of the benchmark page in two or more builds of the wasm, measured in one run:
// each round opens `bench.html?only=models&seconds=2` in a fresh Chromium for every build in turn
// (so the machine's load falls on all builds alike), then prints per build each model's median
// over the rounds, M warp instructions/s (mimd: thread instructions), and its ratio to kepler.
//
//   npx vite build --outDir /tmp/before   (at the commit before; the same at the one after)
//   npx vite preview --outDir /tmp/before --port 4301 --strictPort &   (and /tmp/after on 4302)
//   node scripts/models-ab.mjs 3 http://127.0.0.1:4301/ http://127.0.0.1:4302/
//   MODELS=kepler,volta node scripts/models-ab.mjs ...   (only these models)
import { chromium } from '@playwright/test';
const [rounds, ...urls] = process.argv.slice(2);
if (!urls.length) throw new Error('usage: node scripts/models-ab.mjs ROUNDS URL...');
const res = urls.map(() => ({}));
for (let r = 0; r < Number(rounds); r++) {
  for (const [k, url] of urls.entries()) {
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--disable-gpu'] });
    const page = await browser.newPage();
    const only = process.env.MODELS ? `&models=${process.env.MODELS}` : '';
    await page.goto(url + `bench.html?only=models&seconds=2${only}`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'done', null, { timeout: 300000 });
    const rows = await page.evaluate(() => window.benchResults);
    for (const row of rows) {
      const m = row.name.match(/^model sweep (\S+) \(divergent/);
      if (m) (res[k][m[1]] ??= []).push(row.value);
    }
    await browser.close();
  }
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
for (const [k, url] of urls.entries()) {
  const kep = res[k].kepler ? med(res[k].kepler) : NaN;
  console.log(url, Object.entries(res[k]).map(([m, v]) => `${m} ${med(v).toFixed(1)} (${(med(v) / kep).toFixed(2)})`).join(', '));
}

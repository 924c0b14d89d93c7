// browse.js PAGE FUNCTION CALLER SHOT - load the --export=html page in
// headless Chromium, fail on any console error or uncaught exception,
// click FUNCTION in the flat profile and check that its callers list
// shows CALLER, open the flame graph, and save screenshots as SHOT
// (call graph view) and SHOT with "-flame" before ".png".
'use strict';
const os = require('os');
const path = require('path');
const fs = require('fs');
const { chromium } = require('playwright-core');

async function main () {
  const [page, fn, caller, shot] = process.argv.slice(2);
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const problems = [];
  const requests = [];
  try {
    const tab = await context.newPage();
    tab.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
    tab.on('pageerror', (e) => problems.push('exception: ' + e.message));
    tab.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url()); });
    await tab.goto('file://' + path.resolve(page), { waitUntil: 'load' });

    const rows = await tab.locator('#flat-table tbody tr').count();
    if (rows === 0)
      problems.push('the flat profile has no rows');
    // Sorting by name puts the rows in name order (ascending first).
    await tab.locator('#flat-table th[data-sort=name]').click();
    const names = await tab.locator('#flat-table tbody td.name a.fn').allTextContents();
    const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (JSON.stringify(names) !== JSON.stringify(sorted))
      problems.push('sorting by name did not sort: ' + names.slice(0, 5).join(' | '));

    await tab.locator('#flat-table a.fn', { hasText: fn }).first().click();
    await tab.locator('#fn-name').waitFor();
    const title = await tab.locator('#fn-name').textContent();
    const callers = await tab.locator('#callers a.fn').allTextContents();
    console.log('selected: ' + title);
    console.log('callers: ' + callers.join(', '));
    if (!title.includes(fn))
      problems.push('clicking ' + fn + ' showed ' + title);
    if (!callers.some((c) => c.includes(caller)))
      problems.push(fn + ': callers lack ' + caller);
    await tab.screenshot({ path: shot, fullPage: false });

    // Following a caller link shows that function.
    await tab.locator('#callers a.fn', { hasText: caller }).first().click();
    const next = await tab.locator('#fn-name').textContent();
    if (!next.includes(caller))
      problems.push('the caller link led to ' + next);

    // Search filters the flat profile.
    await tab.locator('nav button[data-tab=flat]').click();
    await tab.locator('#search').fill(fn);
    const found = await tab.locator('#flat-table tbody td.name').allTextContents();
    if (found.length === 0 || !found.every((t) => t.toLowerCase().includes(fn.toLowerCase())))
      problems.push('search for ' + fn + ' gave ' + found.join(' | '));
    await tab.locator('#search').fill('');

    await tab.locator('nav button[data-tab=flame]').click();
    const frames = await tab.locator('#flame-chart .frame').count();
    console.log('flame frames: ' + frames);
    if (frames < 2)
      problems.push('the flame graph has ' + frames + ' frames');
    await tab.screenshot({ path: shot.replace(/\.png$/, '-flame.png'), fullPage: false });
  } finally {
    await context.close();
    fs.rmSync(profileDir, { recursive: true, force: true });
  }
  if (requests.length)
    problems.push('the page asked the network for ' + requests.join(', '));
  for (const p of problems)
    console.log('FAIL: ' + p);
  process.exit(problems.length ? 1 : 0);
}

main().catch((e) => { console.log('FAIL: ' + (e.stack || e)); process.exit(1); });

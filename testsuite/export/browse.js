// browse.js --page=PAGE --shot=SHOT [OPTION...] - use the --export=html
// page in headless Chromium as a reader would; fail on any console
// error, uncaught exception or network request, and on views that show
// the wrong thing.  The options name functions of the profiled program:
//   --fn=F --caller=C  sort by name, click F: its callers show C; C's link
//       leads to C, Back returns to F, Back again to the sorted profile
//   --recursive=R --calls=N+M  R's calls read N+M (as in gprof's call
//       graph) and its times per call divide by N
//   --hood=H --hood-caller=A --hood-callee=B  the link #fn=H, loaded
//       fresh, shows H, drawn with A above and B below; following A and
//       going Back shows H again
//   --lines  the page was made with -l: F's source view lists its lines
//       in order, as heat, with their text
// Screenshots: SHOT (F's view) and SHOT with -recursive, -hood, -source
// and -flame before ".png".
'use strict';
const os = require('os');
const path = require('path');
const fs = require('fs');
const { chromium } = require('playwright-core');

const opt = {};
for (const a of process.argv.slice(2)) {
  const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(a);
  if (!m)
    throw new Error('usage: browse.js --page=PAGE --shot=SHOT [--fn=F --caller=C ...]');
  opt[m[1]] = m[2] === undefined ? true : m[2];
}
const problems = [];
function check (ok, what) { if (!ok) problems.push(what); }
function shotName (suffix) { return opt.shot.replace(/\.png$/, suffix + '.png'); }

// A time as the page writes it ("3.21 ms"), in seconds; NaN if it is not
// one (an exponent, say).
const UNIT = { s: 1, ms: 1e-3, 'µs': 1e-6, ns: 1e-9 };
function seconds (text) {
  const m = /^(\d+(?:\.\d+)?) (s|ms|µs|ns)$/.exec(text);
  return m ? Number(m[1]) * UNIT[m[2]] : NaN;
}
function close (a, b) { return Math.abs(a - b) <= 0.01 * Math.max(Math.abs(a), Math.abs(b)); }

async function shownName (tab, name) {
  try {
    await tab.waitForFunction((n) => {
      const e = document.getElementById('fn-name');
      return e && e.textContent.startsWith(n);
    }, name, { timeout: 5000 });
    return true;
  } catch (e) {
    const now = await tab.locator('#fn-name').textContent({ timeout: 100 }).catch(() => '(none)');
    problems.push('expected ' + name + ' to be shown, found ' + now + ' at ' + tab.url());
    return false;
  }
}

// Every time the flat profile and the function views write is in units.
async function checkTimes (tab, where) {
  const cells = await tab.locator('#flat-table td[data-col=self], #flat-table td[data-col=total], ' +
    '#flat-table td[data-col=selfcall], #flat-table td[data-col=totalcall], ' +
    '#callers td:nth-child(3), #callees td:nth-child(3), #source td:nth-child(2)').allTextContents();
  // The function's figures: total, self, calls, self and total per call.
  const stats = (await tab.locator('#fn-stats b').allTextContents()).filter((t, i) => i !== 2);
  const bad = cells.concat(stats).filter((t) => !['', '0', '–', '<0.01 ns'].includes(t) && !(seconds(t) >= 0));
  check(cells.length > 0, where + ': no times found');
  check(bad.length === 0, where + ': times not in units: ' + bad.slice(0, 5).join(' | '));
  const body = await tab.locator('main').innerText();
  check(!/\d\.?\d*e[-+]\d/.test(body), where + ': a number with an exponent: ' + (/\S*\d\.?\d*e[-+]\d\S*/.exec(body) || [''])[0]);
}

// Wait until the flat profile shows only the functions that match Q.
async function searched (tab, q) {
  await tab.waitForFunction((q) => {
    const names = [...document.querySelectorAll('#flat-table td.name')].map((td) => td.textContent.toLowerCase());
    return names.length > 0 && names.every((n) => n.includes(q.toLowerCase()));
  }, q, { timeout: 5000 });
}

async function flatRow (tab, name) {
  return tab.locator('#flat-table tbody tr').filter({ has: tab.locator('td.name a.fn', { hasText: name }) }).first();
}

async function main () {
  const url = 'file://' + path.resolve(opt.page);
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  context.setDefaultTimeout(10000);
  const requests = [];
  async function open (hash) {
    const tab = await context.newPage();
    tab.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
    tab.on('pageerror', (e) => problems.push('exception: ' + e.message));
    tab.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url()); });
    await tab.goto(url + (hash || ''), { waitUntil: 'load' });
    return tab;
  }
  try {
    const tab = await open();
    const rows = await tab.locator('#flat-table tbody tr').count();
    check(rows > 0, 'the flat profile has no rows');
    await checkTimes(tab, 'flat profile');

    // Sorting by name puts the rows in name order (ascending first).
    await tab.locator('#flat-table th[data-sort=name]').click();
    await tab.locator('#flat-table th.sorted.asc[data-sort=name]').waitFor();
    const names = await tab.locator('#flat-table tbody td.name a.fn').allTextContents();
    const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    check(JSON.stringify(names) === JSON.stringify(sorted), 'sorting by name did not sort: ' + names.slice(0, 5).join(' | '));

    // A function, its caller, and Back through both to the sorted table.
    await tab.locator('#flat-table a.fn', { hasText: opt.fn }).first().click();
    if (await shownName(tab, opt.fn)) {
      const callers = await tab.locator('#callers a.fn').allTextContents();
      console.log('selected: ' + opt.fn + ' at ' + tab.url().replace(/^.*#/, '#'));
      console.log('callers: ' + callers.join(', '));
      check(callers.some((c) => c.includes(opt.caller)), opt.fn + ': callers lack ' + opt.caller);
      check(/#fn=/.test(tab.url()), 'the URL does not name the function: ' + tab.url());
      await checkTimes(tab, opt.fn);
      await tab.screenshot({ path: opt.shot, fullPage: false });

      if (opt.lines) {
        const table = tab.locator('#source');
        const lines = (await table.locator('td.ln').allTextContents()).map(Number);
        const hot = await table.locator('tr.hot').evaluateAll((trs) => trs.map((tr) => ({
          line: Number(tr.cells[0].textContent), share: parseFloat(tr.cells[2].textContent),
          alpha: parseFloat(tr.style.backgroundColor.split(',')[3]), code: tr.cells[3].textContent })));
        console.log('source lines: ' + lines.join(' ') + '; hot: ' + hot.map((h) => h.line + ' ' + h.share + '%').join(', '));
        check(lines.length > 0 && lines.every((l, i) => l > 0 && (i === 0 || l > lines[i - 1])),
          'the source view is not in line order: ' + lines.join(' '));
        check(hot.length >= 3, opt.fn + ': fewer than 3 lines with samples in the source view');
        const sum = hot.reduce((s, h) => s + h.share, 0);
        check(Math.abs(sum - 100) < 1, 'the lines\' shares add up to ' + sum + '%');
        check(hot.every((h) => h.alpha > 0 && /WORK/.test(h.code)), 'a hot line lacks its heat or its text: ' +
          JSON.stringify(hot));
        const byShare = [...hot].sort((a, b) => a.share - b.share);
        check(byShare.every((h, i) => i === 0 || h.alpha >= byShare[i - 1].alpha), 'more samples, less heat: ' + JSON.stringify(byShare));
        check(lines.length > hot.length, 'no context lines around the hot ones');
        await table.scrollIntoViewIfNeeded();
        await table.screenshot({ path: shotName('-source') });
      } else {
        check(await tab.locator('#source').count() === 0, 'a source view without -l');
      }

      await tab.locator('#callers a.fn', { hasText: opt.caller }).first().click();
      await shownName(tab, opt.caller);
      await tab.goBack();
      await shownName(tab, opt.fn);
      await tab.goBack();
      await tab.locator('#flat-table').waitFor();
      check(await tab.locator('#flat-table th.sorted.asc[data-sort=name]').count() === 1,
        'Back to the flat profile lost its sort: ' + tab.url());
    }

    // Search filters the flat profile, and a reload keeps it.
    await tab.locator('nav button[data-tab=flat]').click();
    await tab.locator('#search').fill(opt.fn);
    await searched(tab, opt.fn);
    await tab.reload({ waitUntil: 'load' });
    check(await tab.locator('#search').inputValue() === opt.fn, 'reloading lost the search: ' + tab.url());
    const found = await tab.locator('#flat-table tbody td.name').allTextContents();
    check(found.length > 0 && found.every((t) => t.toLowerCase().includes(opt.fn.toLowerCase())),
      'search for ' + opt.fn + ' gave ' + found.join(' | '));

    // The recursive function's calls as gprof counts them.
    await tab.locator('#search').fill(opt.recursive);
    await searched(tab, opt.recursive);
    const row = await flatRow(tab, opt.recursive);
    const cell = async (col) => row.locator('td[data-col=' + col + ']').textContent();
    const calls = await cell('calls');
    const first = Number(calls.split('+')[0]);
    console.log(opt.recursive + ': calls ' + calls + ', self ' + await cell('self') + ', self/call ' +
      await cell('selfcall') + ', total/call ' + await cell('totalcall'));
    check(calls === opt.calls, opt.recursive + ': calls ' + calls + ', gprof says ' + opt.calls);
    check(close(seconds(await cell('selfcall')), seconds(await cell('self')) / first) &&
      close(seconds(await cell('totalcall')), seconds(await cell('total')) / first),
    opt.recursive + ': the times per call do not divide by ' + first);
    await row.locator('a.fn').click();
    if (await shownName(tab, opt.recursive)) {
      const stats = await tab.locator('#fn-stats b').allTextContents();
      check(stats.includes(opt.calls), opt.recursive + ': its view does not say ' + opt.calls + ': ' + stats.join(' | '));
      await tab.screenshot({ path: shotName('-recursive'), fullPage: false });
    }

    await tab.locator('#search').fill('');
    await tab.locator('nav button[data-tab=flame]').click();
    await tab.locator('#flame-chart').waitFor();
    const frames = await tab.locator('#flame-chart .frame').count();
    console.log('flame frames: ' + frames);
    check(frames >= 2, 'the flame graph has ' + frames + ' frames');
    await tab.screenshot({ path: shotName('-flame'), fullPage: false });

    // A link to a function, opened in a fresh tab; its neighbourhood drawn.
    const deep = await open('#fn=' + encodeURIComponent(opt.hood));
    if (await shownName(deep, opt.hood)) {
      const nodes = await deep.locator('#hood g.node').evaluateAll((gs) => gs.map((g) => ({
        name: g.getAttribute('data-name'), center: g.classList.contains('center'),
        y: Number(g.querySelector('rect').getAttribute('y')) })));
      const counts = await deep.locator('#hood text.count').allTextContents();
      console.log('drawn: ' + nodes.map((n) => n.name + '@' + n.y).join(', ') + '; counts ' + counts.join(' '));
      const mid = nodes.find((n) => n.center);
      const at = (name) => nodes.find((n) => n.name === name && !n.center);
      check(mid && mid.name === opt.hood, 'the drawing\'s middle box is not ' + opt.hood);
      check(mid && at(opt['hood-caller']) && at(opt['hood-caller']).y < mid.y, 'the drawing lacks the caller ' + opt['hood-caller'] + ' above');
      check(mid && at(opt['hood-callee']) && at(opt['hood-callee']).y > mid.y, 'the drawing lacks the callee ' + opt['hood-callee'] + ' below');
      check(counts.length >= 2 && counts.every((c) => /^\d+$/.test(c)), 'the edges lack call counts: ' + counts.join(' '));
      await deep.locator('#hood').screenshot({ path: shotName('-hood') });
      await deep.locator('#hood g.node[data-name=' + JSON.stringify(opt['hood-caller']) + ']').click();
      await shownName(deep, opt['hood-caller']);
      await deep.goBack();
      await shownName(deep, opt.hood);
    }
  } finally {
    await context.close();
    fs.rmSync(profileDir, { recursive: true, force: true });
  }
  check(requests.length === 0, 'the page asked the network for ' + requests.join(', '));
  for (const p of problems)
    console.log('FAIL: ' + p);
  process.exit(problems.length ? 1 : 0);
}

main().catch((e) => {
  for (const p of problems.concat([e.stack || String(e)]))
    console.log('FAIL: ' + p);
  process.exit(1);
});

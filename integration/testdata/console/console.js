// Drives the search server's web console in a headless Chromium for integration/console_test.go.
//
//   node console.js WS_ENDPOINT BASE_URL SHOT_DIR
//
// The browser is the test's: it starts /usr/bin/chromium with a DevTools port and owns its
// process; this script connects to it over CDP. The Go test drives: it writes one JSON step a
// line on stdin ({"step": "search", ...}) and reads one JSON answer a line on stdout:
// {"ok": true, "data": ...} or {"ok": false, "error": "..."}, with the screenshot taken after
// the step and the problems seen since the last answer (console errors, page errors, requests
// to anywhere but BASE_URL). Every wait is for a condition on the page, bounded by the step's
// "timeout" (milliseconds); nothing sleeps for a fixed time.
'use strict';

const path = require('path');
const readline = require('readline');
const { chromium } = require('playwright-core');

const [wsEndpoint, base, shotDir] = process.argv.slice(2);

// ---- What the page shows, read from the DOM as a user would read it.

function readResults() {
  const text = (el) => (el ? el.textContent.trim() : '');
  const done = document.querySelector('#completeness');
  return {
    url: location.pathname + location.search,
    complete: done ? done.dataset.complete : '',
    completeness: text(done),
    message: text(document.querySelector('#search-msg')),
    pageInfo: document.querySelector('#pager').hidden ? '' : text(document.querySelector('#page-info')),
    rows: [...document.querySelectorAll('#results table.trips tbody tr')].map((tr) => ({
      price: text(tr.querySelector('.price')),
      flights: [...tr.querySelectorAll('.flight')].map(text),
      alliance: text(tr.querySelector('.trip-alliance')),
      seats: text(tr.querySelector('.seats')),
    })),
  };
}

function readPicture() {
  const live = document.querySelector('#live');
  return {
    seq: Number(live.dataset.seq || 0),
    status: document.querySelector('#live-status').textContent.trim(),
    changes: [...document.querySelectorAll('#changes li')].map((li) => li.textContent.trim()),
    alliances: [...document.querySelectorAll('#alliances article.alliance')].map((art) => ({
      name: art.dataset.alliance,
      text: art.textContent.replace(/\s+/g, ' ').trim(),
      machines: [...art.querySelectorAll('thead th.machine')].map((th) => ({
        name: th.dataset.machine,
        state: th.querySelector('.state').textContent.trim(),
        delegate: th.querySelector('.tag') !== null && th.querySelector('.tag').textContent.trim() === 'delegate',
        etcd: th.querySelector('.etcd') ? th.querySelector('.etcd').textContent.trim() : '',
      })),
      cells: [...art.querySelectorAll('tbody td.role')].filter((td) => td.textContent.trim() !== '').map((td) => ({
        machine: td.dataset.machine, seller: td.dataset.seller, role: td.textContent.trim(),
      })),
    })),
  };
}

function readBooking() {
  const result = document.querySelector('#booking-result');
  const fields = {};
  for (const dd of document.querySelectorAll('#booking-details dd')) fields[dd.dataset.field] = dd.textContent.trim();
  return {
    shown: !document.querySelector('#booking').hidden,
    status: result.hidden ? '' : (result.dataset.status || ''),
    fields,
    message: document.querySelector('#booking-msg').textContent.trim(),
  };
}

// A search has settled when its outcome is on the page: a new answer (not one markOld saw) or
// an error.
function resultsSettled() {
  const msg = document.querySelector('#search-msg');
  const done = document.querySelector('#completeness');
  return !document.querySelector('#search-button').disabled &&
    ((done !== null && done.dataset.old !== 'yes') || msg.classList.contains('error'));
}

function markOld() {
  const done = document.querySelector('#completeness');
  if (done) done.dataset.old = 'yes';
}

// ---- Steps

const steps = {
  async open(page, s) {
    await page.goto(base + (s.path || '/'), { waitUntil: 'load', timeout: s.timeout });
    await page.waitForFunction(() => Number(document.querySelector('#live').dataset.seq) > 0, null, { timeout: s.timeout });
    if (s.results) await page.waitForFunction(resultsSettled, null, { timeout: s.timeout });
    return page.evaluate(readResults);
  },

  // mark leaves a value in the page's memory: still there later means the page was not reloaded.
  async mark(page, s) {
    return page.evaluate((v) => { window.consoleTestMark = v; return v; }, s.value);
  },
  async readMark(page) {
    return page.evaluate(() => window.consoleTestMark || '');
  },

  // search types the query into the form as a user would and presses Search.
  async search(page, s) {
    await page.evaluate(markOld);
    const from = page.getByLabel(/^From/);
    await from.fill('');
    await from.pressSequentially(s.src.toLowerCase());
    const to = page.getByLabel(/^To/);
    await to.fill('');
    await to.pressSequentially(s.dst);
    await page.getByLabel(/^Date/).fill(s.date);
    if (s.sort) await page.getByLabel(/^Sort/).selectOption(s.sort);
    if (s.limit) await page.getByLabel(/^Page size/).selectOption(String(s.limit));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForFunction(resultsSettled, null, { timeout: s.timeout });
    return page.evaluate(readResults);
  },

  async nextPage(page, s) {
    await page.evaluate(markOld);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForFunction(resultsSettled, null, { timeout: s.timeout });
    return page.evaluate(readResults);
  },

  // picture waits for a picture newer than s.after (the seq of one seen before) and reads it.
  async picture(page, s) {
    await page.waitForFunction((after) => Number(document.querySelector('#live').dataset.seq) > after, s.after || 0, { timeout: s.timeout });
    return page.evaluate(readPicture);
  },

  // book books the trip of row s.row from the page: its Book button, seats, hold, Book seats.
  async book(page, s) {
    const row = page.locator('#results table.trips tbody tr').nth(s.row);
    await row.getByRole('button', { name: /^Book / }).click();
    await page.getByLabel('Seats', { exact: true }).fill(String(s.seats));
    await page.getByLabel(/^Hold/).selectOption(s.hold || '');
    await page.getByRole('button', { name: 'Book seats' }).click();
    await page.waitForFunction(() => {
      const r = document.querySelector('#booking-result');
      return (!r.hidden && r.dataset.status) || document.querySelector('#booking-msg').classList.contains('error');
    }, null, { timeout: s.timeout });
    return page.evaluate(readBooking);
  },

  async confirm(page, s) { return bookingAction(page, s, 'Confirm hold', 'confirmed'); },
  async cancel(page, s) { return bookingAction(page, s, 'Cancel booking', 'cancelled'); },

  async close() { return null; },
};

async function bookingAction(page, s, button, want) {
  await page.getByRole('button', { name: button }).click();
  await page.waitForFunction((w) => document.querySelector('#booking-result').dataset.status === w ||
    document.querySelector('#booking-msg').classList.contains('error'), want, { timeout: s.timeout });
  return page.evaluate(readBooking);
}

async function main() {
  const browser = await chromium.connectOverCDP(wsEndpoint);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console error: ' + m.text()); });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(base + '/') && !u.startsWith('data:')) problems.push('request outside the search server: ' + u);
  });

  const out = (v) => process.stdout.write(JSON.stringify(v) + '\n');
  let n = 0;
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    const s = JSON.parse(line);
    const answer = {};
    try {
      if (!steps[s.step]) throw new Error('no step ' + s.step);
      answer.data = await steps[s.step](page, s);
      answer.ok = true;
    } catch (e) {
      answer.ok = false;
      answer.error = String((e && e.message) || e);
    }
    if (s.step !== 'close') {
      const shot = path.join(shotDir, String(++n).padStart(2, '0') + '-' + s.step + (s.name ? '-' + s.name : '') + '.png');
      try {
        await page.screenshot({ path: shot, fullPage: true });
        answer.screenshot = shot;
      } catch (e) {
        answer.screenshotError = String(e.message || e);
      }
    }
    answer.problems = problems.splice(0);
    out(answer);
    if (s.step === 'close') break;
  }
  await context.close();
  await browser.close();
}

main().catch((e) => {
  process.stderr.write('console.js: ' + ((e && e.stack) || e) + '\n');
  process.exit(1);
});

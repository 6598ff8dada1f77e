package integration

// What the console test reads from the page, as a user would read it: JavaScript functions that
// the driver calls in the page.

const jsReadResults = `() => {
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
}`

const jsReadPicture = `() => {
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
}`

const jsReadBooking = `() => {
  const result = document.querySelector('#booking-result');
  const fields = {};
  for (const dd of document.querySelectorAll('#booking-details dd')) fields[dd.dataset.field] = dd.textContent.trim();
  return {
    shown: !document.querySelector('#booking').hidden,
    status: result.hidden ? '' : (result.dataset.status || ''),
    fields,
    message: document.querySelector('#booking-msg').textContent.trim(),
  };
}`

// jsResultsSettled: a search has settled when its outcome is on the page, a new answer (not one
// jsMarkOld saw) or an error.
const jsResultsSettled = `() => {
  const msg = document.querySelector('#search-msg');
  const done = document.querySelector('#completeness');
  return !document.querySelector('#search-button').disabled &&
    ((done !== null && done.dataset.old !== 'yes') || msg.classList.contains('error'));
}`

const jsMarkOld = `() => {
  const done = document.querySelector('#completeness');
  if (done) done.dataset.old = 'yes';
}`

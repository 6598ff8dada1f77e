// The web console of the search server: search, book and watch the alliances live.
// Plain JavaScript run as written (see the Go package's doc comment for why); every request goes
// to the server that served this page, by path only.
'use strict';

(function () {
  const API = '/Services/FlightsSearch';
  const DEFAULT_LIMIT = 25;
  const LIVE_EVERY_MS = 1000;
  const LIVE_HIDDEN_EVERY_MS = 5000;

  const $ = (id) => document.getElementById(id);

  // el builds an element: attributes from attrs (null and false are left out), then children,
  // strings becoming text. Server data only ever becomes text, never markup.
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function hhmm(iso) { return typeof iso === 'string' ? iso.slice(11, 16) : ''; }
  function when(iso) { return typeof iso === 'string' ? iso.slice(0, 10) + ' ' + iso.slice(11, 19) + ' UTC' : ''; }
  function clock(d) { return d.toISOString().slice(11, 19) + ' UTC'; }
  function minutes(ms) {
    const m = Math.round(ms / 60000);
    return Math.floor(m / 60) + 'h ' + String(m % 60).padStart(2, '0') + 'm';
  }
  function delay(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

  // A fresh Idempotency-Key. crypto.randomUUID needs a secure context (https or loopback); a
  // console opened over plain http from another host falls back to getRandomValues.
  function newKey() {
    if (window.crypto && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  }

  // api sends one request and reads its JSON answer. It throws only when no answer came (a
  // network error), which is when a booking may be retried with the same key.
  async function api(method, path, opts) {
    const o = opts || {};
    const headers = { Accept: 'application/json' };
    if (o.body !== undefined) headers['Content-Type'] = 'application/json';
    if (o.key) headers['Idempotency-Key'] = o.key;
    const r = await fetch(path, {
      method, headers, cache: 'no-store', signal: o.signal,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
    let data = null;
    try { data = await r.json(); } catch (_) { data = null; }
    return { status: r.status, ok: r.ok, data };
  }
  function errorText(res) {
    return res.data && typeof res.data.error === 'string' ? res.data.error : 'the server answered ' + res.status;
  }

  // ---- Search
  const form = $('search-form');
  let lastQuery = null;
  let lastTrips = [];
  let searchCtl = null;

  function formQuery() {
    const up = (id) => $(id).value.trim().toUpperCase();
    return {
      src: up('src'), dst: up('dst'), date: $('date').value.trim(),
      servers: up('servers').replace(/\s+/g, ''),
      nonstop: $('nonstop').checked, max_price: $('max_price').value.trim(),
      sort: $('sort').value, limit: Number($('limit').value) || DEFAULT_LIMIT, offset: 0,
    };
  }

  function queryFromURL() {
    const p = new URLSearchParams(location.search);
    if (!p.has('src') && !p.has('dst') && !p.has('date')) return null;
    const limit = Number(p.get('limit'));
    return {
      src: (p.get('src') || '').toUpperCase(), dst: (p.get('dst') || '').toUpperCase(),
      date: p.get('date') || '', servers: (p.get('servers') || '').toUpperCase(),
      nonstop: p.get('nonstop') === 'true', max_price: p.get('max_price') || '',
      sort: p.get('sort') || 'price', limit: limit > 0 ? limit : DEFAULT_LIMIT,
      offset: Math.max(0, Number(p.get('offset')) || 0),
    };
  }

  function fillForm(q) {
    $('src').value = q.src; $('dst').value = q.dst; $('date').value = q.date;
    $('servers').value = q.servers; $('nonstop').checked = q.nonstop; $('max_price').value = q.max_price;
    $('sort').value = ['price', 'duration', 'departure', 'arrival'].includes(q.sort) ? q.sort : 'price';
    const lim = $('limit');
    if (![...lim.options].some((o) => o.value === String(q.limit))) lim.append(el('option', {}, String(q.limit)));
    lim.value = String(q.limit);
  }

  // params writes a query as the REST API takes it: the server filters, sorts and pages.
  function params(q) {
    const p = new URLSearchParams({ src: q.src, dst: q.dst, date: q.date });
    if (q.servers) p.set('servers', q.servers);
    if (q.nonstop) p.set('nonstop', 'true');
    if (q.max_price) p.set('max_price', q.max_price);
    if (q.sort !== 'price') p.set('sort', q.sort);
    if (q.limit) p.set('limit', String(q.limit));
    if (q.offset > 0) p.set('offset', String(q.offset));
    return p.toString();
  }
  // The page's own URL is the same query (less the default page size): a link reproduces it.
  const pageURL = (q) => '/?' + params(Object.assign({}, q, { limit: q.limit === DEFAULT_LIMIT ? 0 : q.limit }));
  const apiURL = (q) => API + '/flight?' + params(q);

  const first = (t) => t.legs[0];
  const last = (t) => t.legs[t.legs.length - 1];

  async function runSearch(q, opts) {
    const quiet = opts && opts.quiet;
    if (searchCtl) searchCtl.abort();
    const ctl = new AbortController();
    searchCtl = ctl;
    lastQuery = q;
    history.replaceState(null, '', pageURL(q));
    const msg = $('search-msg');
    if (!quiet) { msg.className = ''; msg.textContent = 'Searching ' + q.src + ' → ' + q.dst + ' on ' + q.date + '…'; }
    $('search-button').disabled = true;
    try {
      const res = await api('GET', apiURL(q), { signal: ctl.signal });
      if (ctl !== searchCtl) return;
      if (!res.ok) {
        showSearchError(errorText(res));
        return;
      }
      const ans = res.data;
      const trips = ans.trips || [];
      const total = typeof ans.total === 'number' ? ans.total : trips.length;
      lastTrips = trips;
      renderResults(q, ans, trips, total);
      msg.className = '';
      msg.textContent = total === 0 ? 'No trip matches.' : total + (total === 1 ? ' trip found.' : ' trips found.');
    } catch (e) {
      if (e.name === 'AbortError') return;
      showSearchError('the search server did not answer (' + e.message + ')');
    } finally {
      if (ctl === searchCtl) $('search-button').disabled = false;
    }
  }

  function showSearchError(text) {
    const msg = $('search-msg');
    msg.className = 'error';
    msg.textContent = 'Search refused: ' + text;
    $('results').replaceChildren();
    $('pager').hidden = true;
    lastTrips = [];
  }

  function completeness(ans) {
    const all = ans.alliances || [];
    if (ans.complete) {
      return el('p', { class: 'answer-note', id: 'completeness', 'data-complete': 'true' },
        'Complete answer from ' + (all.map((a) => a.name).join(', ') || 'no alliance') + '.');
    }
    const parts = all.filter((a) => !a.complete).map((a) => {
      const missing = (a.missing_sellers || []).length ? 'missing sellers ' + a.missing_sellers.join(', ') : '';
      return a.name + ': ' + [missing, a.error || ''].filter(Boolean).join('; ');
    });
    return el('p', { class: 'incomplete', id: 'completeness', role: 'alert', 'data-complete': 'false' },
      el('strong', {}, 'Incomplete answer. '), 'Some trips may be missing — ' + parts.join(' · ') + '.');
  }

  function legLine(l, date) {
    const nextDay = l.arrival && l.arrival.slice(0, 10) !== date ? el('span', { class: 'next-day' }, ' +1 day') : null;
    return el('div', { class: 'leg' },
      el('span', { class: 'leg-main' },
        el('span', { class: 'flight' }, l.flight), ' ',
        el('span', { class: 'seller', title: 'seller' }, l.seller), ' ',
        l.src + ' ' + hhmm(l.departure) + ' → ' + l.dst + ' ' + hhmm(l.arrival), nextDay), ' ',
      el('span', { class: 'leg-price' }, l.price + ' · ' + l.seats + ' seats'));
  }

  function renderResults(q, ans, trips, total) {
    const box = $('results');
    const caption = 'Trips from ' + q.src + ' to ' + q.dst + ' on ' + q.date + ', by ' + q.sort;
    const rows = trips.map((t, i) => {
      const names = t.legs.map((l) => l.flight).join(' > ');
      const seatsLeft = Math.min(...t.legs.map((l) => l.seats));
      const dur = Date.parse(last(t).arrival) - Date.parse(first(t).departure);
      return el('tr', { 'data-index': i },
        el('td', { class: 'price num' }, t.price),
        el('td', { class: 'legs' }, t.legs.map((l) => legLine(l, q.date))),
        el('td', { class: 'num' }, minutes(dur)),
        el('td', { class: 'trip-alliance' }, first(t).alliance),
        el('td', { class: 'seats num' }, String(seatsLeft)),
        el('td', {}, el('button', {
          type: 'button', class: 'book', 'data-index': i, disabled: seatsLeft < 1,
          'aria-label': 'Book ' + names + ' for ' + t.price,
        }, 'Book')));
    });
    const table = trips.length === 0 ? null : el('table', { class: 'trips' },
      el('caption', {}, caption),
      el('thead', {}, el('tr', {},
        el('th', { scope: 'col' }, 'Price'), el('th', { scope: 'col' }, 'Flights'),
        el('th', { scope: 'col' }, 'Duration'), el('th', { scope: 'col' }, 'Alliance'),
        el('th', { scope: 'col' }, 'Seats left'), el('th', { scope: 'col' }, el('span', { class: 'sr-only' }, 'Book')))),
      el('tbody', {}, rows));
    box.replaceChildren(completeness(ans), table ? el('div', { class: 'scroll' }, table) : el('p', {}, 'No trip matches this search.'));

    const pager = $('pager');
    pager.hidden = total <= q.limit && q.offset === 0;
    const from = total === 0 ? 0 : q.offset + 1;
    $('page-info').textContent = 'Trips ' + from + '–' + Math.min(q.offset + q.limit, total) + ' of ' + total;
    $('prev').disabled = q.offset === 0;
    $('next').disabled = q.offset + q.limit >= total;
  }

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const q = formQuery();
    fillForm(q);
    runSearch(q);
  });
  $('prev').addEventListener('click', () => {
    if (lastQuery) runSearch(Object.assign({}, lastQuery, { offset: Math.max(0, lastQuery.offset - lastQuery.limit) }));
  });
  $('next').addEventListener('click', () => {
    if (lastQuery) runSearch(Object.assign({}, lastQuery, { offset: lastQuery.offset + lastQuery.limit }));
  });
  $('results').addEventListener('click', (ev) => {
    const b = ev.target.closest('button.book');
    if (b) openBooking(lastTrips[Number(b.dataset.index)], b);
  });

  // ---- Booking
  let booking = null; // { trip, opener, current }

  function openBooking(trip, opener) {
    if (!trip) return;
    booking = { trip, opener, current: null };
    $('booking').hidden = false;
    $('booking-trip').textContent = trip.legs.map((l) => l.flight + ' (' + l.src + ' ' + hhmm(l.departure) + ' → ' + l.dst + ' ' + hhmm(l.arrival) + ')').join(', ') +
      ' · ' + trip.price + ' a seat · alliance ' + first(trip).alliance;
    $('booking-msg').textContent = '';
    $('booking-result').hidden = true;
    $('book-button').disabled = false;
    $('seats').focus();
  }

  function closeBooking() {
    $('booking').hidden = true;
    const opener = booking && booking.opener;
    booking = null;
    if (opener && opener.isConnected) opener.focus(); else $('results').focus();
  }

  // retrying sends a request until an answer comes, the same key every time, so a booking that
  // did go through is answered again rather than made twice.
  async function retrying(what, send) {
    const msg = $('booking-msg');
    for (let attempt = 0; ; attempt++) {
      try {
        return await send();
      } catch (e) {
        if (attempt >= 4) throw e;
        msg.textContent = what + ': no answer (' + e.message + '); trying again with the same key…';
        await delay(500 * 2 ** attempt);
      }
    }
  }

  async function bookingAction(what, send) {
    const msg = $('booking-msg');
    msg.className = '';
    msg.textContent = what + '…';
    const focused = document.activeElement;
    for (const b of document.querySelectorAll('#booking button')) b.disabled = true;
    try {
      const res = await retrying(what, send);
      if (res.ok) {
        msg.textContent = '';
        showBooking(res.data);
        if (lastQuery) setTimeout(() => runSearch(lastQuery, { quiet: true }), 1100); // seats left follow within a second
      } else {
        msg.className = 'error';
        msg.textContent = what + ' refused: ' + errorText(res);
      }
    } catch (e) {
      msg.className = 'error';
      msg.textContent = what + ' failed: the search server did not answer (' + e.message + '). Retry: the same key is used.';
    } finally {
      for (const b of document.querySelectorAll('#booking button')) b.disabled = false;
      // Disabling the button pressed took the keyboard's focus away: give it back, or to the
      // booking when that button is gone (Confirm hold once confirmed).
      if (focused && focused.isConnected && focused.offsetParent !== null) focused.focus();
      else $('booking-result-h').focus();
    }
  }

  function showBooking(b) {
    booking.current = b;
    const rows = [
      ['ID', b.id], ['Status', b.status], ['Alliance', b.alliance],
      ['Flights', (b.legs || []).map((l) => l.flight).join(' > ')], ['Seats', b.seats],
      ['Price', b.price], ['Created', when(b.created_at)],
    ];
    if (b.expires_at) rows.push(['Expires', when(b.expires_at)]);
    $('booking-details').replaceChildren(...rows.flatMap(([k, v]) => [el('dt', {}, k),
      el('dd', { 'data-field': k.toLowerCase() }, v === undefined ? '' : String(v))]));
    $('booking-result').hidden = false;
    $('booking-result').dataset.status = b.status;
    $('confirm-hold').hidden = b.status !== 'held';
    $('cancel-booking').hidden = b.status !== 'held' && b.status !== 'confirmed';
  }

  $('book-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (!booking) return;
    const t = booking.trip;
    const body = {
      alliance: first(t).alliance,
      legs: t.legs.map((l) => ({ seller: l.seller, flight: l.flight })),
      seats: Number($('seats').value),
    };
    if ($('hold').value) body.hold = $('hold').value;
    const key = newKey();
    bookingAction('Booking', () => api('POST', API + '/bookings', { body, key }));
  });
  $('confirm-hold').addEventListener('click', () => {
    const key = newKey();
    const id = booking.current.id;
    bookingAction('Confirming', () => api('POST', API + '/bookings/' + encodeURIComponent(id) + '/confirm', { key }));
  });
  $('cancel-booking').addEventListener('click', () => {
    const key = newKey();
    const id = booking.current.id;
    bookingAction('Cancelling', () => api('DELETE', API + '/bookings/' + encodeURIComponent(id), { key }));
  });
  $('refresh-booking').addEventListener('click', () => {
    const id = booking.current.id;
    bookingAction('Reading the booking', () => api('GET', API + '/bookings/' + encodeURIComponent(id)));
  });
  $('book-close').addEventListener('click', closeBooking);
  $('booking').addEventListener('keydown', (ev) => { if (ev.key === 'Escape') closeBooking(); });

  // ---- The alliances, live: polled every second (see the Go handler for why not SSE).
  const live = $('live');
  let liveSeq = 0;
  let lastSignature = '';
  let previous = null; // alliance → { delegate, states: machine → state }

  function allianceSignature(a) {
    const reg = a.registration || {};
    return JSON.stringify([a.name, reg.uri, reg.alternates, reg.stale, reg.stale ? reg.last_seen : '',
      a.source, a.error, a.delegate, a.round, a.etcd, a.sellers, a.machines]);
  }

  function hostOf(u) { try { return new URL(u).host; } catch (_) { return u; } }

  function allianceView(a) {
    const id = 'alliance-' + a.name;
    const reg = a.registration || {};
    const byHost = new Map((a.machines || []).filter((m) => m.url).map((m) => [hostOf(m.url), m.name]));
    const named = (u) => hostOf(u) + (byHost.has(hostOf(u)) ? ' (' + byHost.get(hostOf(u)) + ')' : '');
    const round = a.round;
    const etcd = a.etcd;
    const machines = a.machines || [];
    const sellers = a.sellers || [];

    const meta = [
      el('p', { class: 'meta' }, a.replicas ? el('span', { class: 'replicas' }, 'Copies of every seller: ' + a.replicas + ' · ') : null,
        'Delegate: ', el('strong', {}, a.delegate || 'none known'),
        ' · registered ', named(reg.uri || ''),
        (reg.alternates || []).length ? ', then ' + reg.alternates.map(named).join(', ') : ''),
      round ? el('p', { class: 'meta round', 'data-phase': round.phase },
        'Round ' + round.id + ': ' + (round.phase === 'idle' ? 'idle' : round.phase + ' (in progress)') +
        (round.last_result ? ', last ' + round.last_result : '')) : null,
      etcd ? el('p', { class: 'meta etcd' },
        'etcd: ', el('span', { class: etcd.quorum ? 'ok' : 'bad' }, etcd.quorum ? 'quorum' : 'NO QUORUM'),
        etcd.leader ? ', leader ' + etcd.leader : '',
        ' · voters: ' + ((etcd.voters || []).join(', ') || 'none') +
        ' · learners: ' + ((etcd.learners || []).join(', ') || 'none')) : null,
      reg.stale ? el('p', { class: 'warn' }, 'Registration stale: the delegate has not refreshed it since ' + reg.last_seen + '.') : null,
      a.error ? el('p', { class: 'warn' }, a.error) : null,
    ];

    let grid;
    if (machines.length === 0) {
      grid = el('p', {}, 'No machine known.');
    } else {
      const head = el('tr', {}, el('th', { scope: 'col' }, 'Seller'), machines.map((m) =>
        el('th', { scope: 'col', class: 'machine state-' + m.state, 'data-machine': m.name, 'data-state': m.state, title: m.url || '' },
          el('span', { class: 'name' }, m.name), ' ',
          m.zone ? el('span', { class: 'zone', 'data-zone': m.zone }, 'zone ' + m.zone) : null, ' ',
          el('span', { class: 'state' }, m.state),
          m.delegate ? el('span', { class: 'tag' }, 'delegate') : null,
          m.etcd ? el('span', { class: 'etcd' }, m.etcd + (m.etcd_leader ? ' · leader' : '')) : null)));
      const body = sellers.map((s) => el('tr', {}, el('th', { scope: 'row' }, s), machines.map((m) => {
        const role = (m.primaries || []).includes(s) ? 'PRIMARY' : (m.backups || []).includes(s) ? 'BACKUP' : '';
        return el('td', { class: role ? 'role ' + role.toLowerCase() : 'role', 'data-machine': m.name, 'data-seller': s, 'data-role': role }, role);
      })));
      grid = el('table', { class: 'grid' },
        el('caption', {}, 'Sellers each machine of ' + a.name + ' holds'),
        el('thead', {}, head), el('tbody', {}, body));
    }
    const troubles = machines.filter((m) => m.error);
    return el('article', { class: 'alliance', 'data-alliance': a.name, 'aria-labelledby': id },
      el('h3', { id }, a.name), meta, el('div', { class: 'scroll' }, grid),
      troubles.length ? el('ul', { class: 'troubles' }, troubles.map((m) =>
        el('li', {}, el('strong', {}, m.name + ' ' + m.state + ': '), m.error))) : null);
  }

  function noteChanges(alliances) {
    const now = {};
    for (const a of alliances) {
      const states = {};
      for (const m of a.machines || []) states[m.name] = m.state;
      now[a.name] = { delegate: a.delegate, states };
    }
    if (previous) {
      const notes = [];
      for (const [name, cur] of Object.entries(now)) {
        const before = previous[name];
        if (!before) { notes.push(name + ' appeared'); continue; }
        for (const [m, st] of Object.entries(cur.states)) {
          if (!(m in before.states)) notes.push(name + ': ' + m + ' appeared (' + st + ')');
          else if (before.states[m] !== st) notes.push(name + ': ' + m + ' ' + before.states[m] + ' → ' + st);
        }
        for (const m of Object.keys(before.states)) {
          if (!(m in cur.states)) notes.push(name + ': ' + m + ' left the alliance');
        }
        if (before.delegate !== cur.delegate && cur.delegate) notes.push(name + ': delegate ' + (before.delegate || 'none') + ' → ' + cur.delegate);
      }
      for (const name of Object.keys(previous)) if (!(name in now)) notes.push(name + ' is no longer registered');
      const list = $('changes');
      const at = clock(new Date());
      for (const n of notes) list.prepend(el('li', {}, el('time', {}, at), ' ', n));
      while (list.children.length > 10) list.lastElementChild.remove();
    }
    previous = now;
  }

  function renderLive(pic) {
    const alliances = pic.alliances || [];
    const signature = alliances.map(allianceSignature).join('\n');
    if (signature !== lastSignature) {
      lastSignature = signature;
      const box = $('alliances');
      box.replaceChildren(...(alliances.length ? alliances.map(allianceView)
        : [el('p', {}, 'No alliance is registered with this search server yet.')]));
      noteChanges(alliances);
    }
    live.dataset.seq = String(++liveSeq);
  }

  function liveStatus(text, bad) {
    const s = $('live-status');
    s.textContent = text;
    s.className = bad ? 'error' : '';
  }

  async function pollLive() {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), 5000);
    try {
      const r = await fetch(API + '/alliances', { cache: 'no-store', signal: ctl.signal, headers: { Accept: 'application/json' } });
      if (!r.ok) throw new Error('the server answered ' + r.status);
      renderLive(await r.json());
      liveStatus('Live: updated ' + clock(new Date()), false);
    } catch (e) {
      liveStatus('The live picture is not updating: ' + (e.name === 'AbortError' ? 'no answer within 5 s' : e.message) + '; retrying.', true);
    } finally {
      clearTimeout(timer);
      setTimeout(pollLive, document.hidden ? LIVE_HIDDEN_EVERY_MS : LIVE_EVERY_MS);
    }
  }

  // ---- Start: the live picture at once; a search when the URL carries one.
  pollLive();
  const q = queryFromURL();
  if (q) {
    fillForm(q);
    runSearch(q);
  }
})();

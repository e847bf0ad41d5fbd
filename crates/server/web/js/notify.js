// The lobby's websocket (GET /api/lobby/ws) on every page: the person's notices in a bar under
// the header (challenges to answer, challenges sent, "your turn" in correspondence games, a
// challenge declined or expired), the browser's notifications when the person allows them,
// and on the home page the live list of seeks (home.js listens through onLobby).

import { api, esc, variants, variantName } from './api.js';

const listeners = new Set();
let socket = null;
let wantList = false;
let hello = null;
let retryMs = 1000;
// the ids of seeks, quick pairings and challenges this person is waiting on: their game opens here
const expected = new Set();
const incoming = new Map(); // challenge id -> challenge
const outgoing = new Map();
const turns = new Map(); // game id -> your-turn notice
const messages = []; // sentences: [{id, text, url}]
let variantList = [];

/** Calls `fn(message)` for every lobby message (the last hello at once, if any). */
export function onLobby(fn) {
  listeners.add(fn);
  if (hello) fn(hello);
}

/** The game of seek, pairing or challenge `id` opens on this page when it starts. */
export function expectGame(id) {
  if (id) expected.add(id);
}

/** Opens the lobby's websocket: with the list of seeks when `list` (the home page). */
export function connectLobby(list = false) {
  wantList = wantList || list;
  if (socket && socket.readyState <= 1) return;
  open();
}

/** Opens it again (the session changed: a first seek made an anonymous player of the page). */
export function reconnectLobby() {
  if (socket) {
    socket.onclose = null;
    socket.close();
  }
  open();
}

function open() {
  if (!variantList.length) {
    variants()
      .then((l) => {
        variantList = l;
        render();
      })
      .catch(() => {});
  }
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  socket = new WebSocket(`${proto}//${location.host}/api/lobby/ws?list=${wantList ? 1 : 0}`);
  socket.onmessage = (m) => {
    let msg;
    try {
      msg = JSON.parse(m.data);
    } catch {
      return;
    }
    retryMs = 1000;
    handle(msg);
    for (const fn of listeners) fn(msg);
  };
  socket.onclose = () => {
    socket = null;
    setTimeout(open, retryMs);
    retryMs = Math.min(retryMs * 2, 30000);
  };
}

const colorName = (c) => (c === 'white' ? 'White' : c === 'black' ? 'Black' : 'a random colour');

/** "5+3", "3 days a turn". */
export function controlText(x) {
  if (x.days) return `${x.days} day${x.days === 1 ? '' : 's'} a turn`;
  if (x.clock) return `${Math.round((x.clock.initial_ms / 60000) * 100) / 100}+${Math.round(x.clock.increment_ms / 1000)}`;
  return '';
}

function challengeText(c, mine) {
  const what = `${variantName(variantList, c.variant)}, ${controlText(c)}, ${c.rated ? 'rated' : 'casual'}`;
  if (mine) return `Your challenge to ${c.to.name} (${what}) waits for an answer.`;
  const color = c.color === 'random' ? 'colours drawn at random' : `you play ${c.color === 'white' ? 'Black' : 'White'}`;
  return `${c.from.name} (${c.from.rating}${c.from.provisional ? '?' : ''}) challenges you: ${what}, ${color}.`;
}

function say(text, url = null) {
  messages.push({ text, url });
  if (messages.length > 5) messages.shift();
}

/** A notification of the browser, when the person allowed them. */
function notifyBrowser(text, url) {
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  try {
    const n = new Notification('Menagerie', { body: text, tag: url || text });
    n.onclick = () => {
      window.focus();
      if (url) location.href = url;
    };
  } catch {
    /* some browsers allow notifications only from a service worker */
  }
}

function handle(msg) {
  switch (msg.type) {
    case 'hello':
      hello = msg;
      incoming.clear();
      outgoing.clear();
      turns.clear();
      for (const c of (msg.challenges && msg.challenges.in) || []) incoming.set(c.id, c);
      for (const c of (msg.challenges && msg.challenges.out) || []) outgoing.set(c.id, c);
      for (const t of msg.your_turn || []) turns.set(t.game, t);
      for (const id of msg.mine || []) expected.add(id);
      break;
    case 'challenge':
      incoming.set(msg.challenge.id, msg.challenge);
      notifyBrowser(challengeText(msg.challenge, false), '/');
      break;
    case 'challenge-sent':
      outgoing.set(msg.challenge.id, msg.challenge);
      expected.add(msg.challenge.id);
      break;
    case 'challenge-declined':
      outgoing.delete(msg.id);
      say(msg.sentence);
      notifyBrowser(msg.sentence);
      break;
    case 'challenge-gone':
      incoming.delete(msg.id);
      if (outgoing.delete(msg.id) || msg.status === 'expired') {
        if (msg.sentence) say(msg.sentence);
      }
      break;
    case 'your-turn':
      turns.set(msg.game, msg);
      notifyBrowser(`Your turn against ${msg.opponent || 'your opponent'} in ${variantName(variantList, msg.variant)}.`, msg.url);
      break;
    case 'game':
      incoming.delete(msg.id);
      outgoing.delete(msg.id);
      if (expected.has(msg.id) && !location.pathname.startsWith(msg.url)) {
        location.href = msg.url;
        return;
      }
      say('A game of yours has started:', msg.url);
      break;
    default:
      return;
  }
  render();
}

function bar() {
  let el = document.getElementById('notice-bar');
  if (!el) {
    const top = document.getElementById('top');
    if (!top) return null;
    el = document.createElement('section');
    el.id = 'notice-bar';
    el.className = 'notice-bar';
    el.setAttribute('aria-live', 'polite');
    el.setAttribute('aria-label', 'Notices');
    top.after(el);
  }
  return el;
}

const REASONS = [
  ['generic', 'No, thanks'],
  ['later', 'Not now, later'],
  ['too-fast', 'Too fast'],
  ['too-slow', 'Too slow'],
  ['variant', 'Not this variant'],
];

function render() {
  const el = bar();
  if (!el) return;
  const parts = [];
  for (const c of incoming.values()) {
    parts.push(`<div class="notice-item challenge-in" data-challenge="${esc(c.id)}"><span>${esc(challengeText(c, false))}</span>
      <button type="button" class="primary accept-challenge">Accept</button>
      <select class="decline-reason" aria-label="Why you decline">${REASONS.map(([v, t]) => `<option value="${v}">${t}</option>`).join('')}</select>
      <button type="button" class="decline-challenge">Decline</button></div>`);
  }
  for (const c of outgoing.values()) {
    parts.push(`<div class="notice-item challenge-out" data-challenge="${esc(c.id)}"><span>${esc(challengeText(c, true))}</span> <button type="button" class="cancel-challenge">Take back</button></div>`);
  }
  for (const t of turns.values()) {
    if (location.pathname === t.url) continue;
    parts.push(`<div class="notice-item your-turn-notice" data-game="${esc(t.game)}"><a href="${esc(t.url)}">Your turn against ${esc(t.opponent || 'your opponent')} in ${esc(variantName(variantList, t.variant))}</a></div>`);
  }
  for (const m of messages) {
    parts.push(`<div class="notice-item notice-message">${esc(m.text)}${m.url ? ` <a href="${esc(m.url)}">Play it</a>` : ''}</div>`);
  }
  if (parts.length && 'Notification' in window && Notification.permission === 'default') {
    parts.push('<div class="notice-item"><button type="button" id="allow-notifications">Tell me through the browser\'s notifications</button></div>');
  }
  el.innerHTML = parts.join('');
  el.hidden = parts.length === 0;
  for (const item of el.querySelectorAll('.challenge-in')) {
    const id = item.dataset.challenge;
    item.querySelector('.accept-challenge').addEventListener('click', async () => {
      try {
        const g = await api('POST', `/api/challenges/${encodeURIComponent(id)}/accept`, {});
        location.href = g.url;
      } catch (e) {
        incoming.delete(id);
        say(e.message);
        render();
      }
    });
    item.querySelector('.decline-challenge').addEventListener('click', async () => {
      const reason = item.querySelector('.decline-reason').value;
      try {
        await api('POST', `/api/challenges/${encodeURIComponent(id)}/decline`, { reason });
      } catch (e) {
        say(e.message);
      }
      incoming.delete(id);
      render();
    });
  }
  for (const item of el.querySelectorAll('.challenge-out')) {
    const id = item.dataset.challenge;
    item.querySelector('.cancel-challenge').addEventListener('click', async () => {
      try {
        await api('DELETE', `/api/challenges/${encodeURIComponent(id)}`);
      } catch (e) {
        say(e.message);
      }
      outgoing.delete(id);
      render();
    });
  }
  const allow = el.querySelector('#allow-notifications');
  if (allow) allow.addEventListener('click', () => Notification.requestPermission().then(render));
}

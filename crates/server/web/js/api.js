import { connectLobby } from './notify.js';

// Talking to the server (PLAN.md Contract 3). Seat tokens the browser was given when it
// created a game are kept in localStorage; a seat opened by link is in an HttpOnly cookie.

const KEY = 'menagerie:game:';

/** What this browser knows about a game it created: `{ seats: {white, black}, mode, friend }`. */
export function localGame(id) {
  try {
    return JSON.parse(localStorage.getItem(KEY + id) || 'null');
  } catch {
    return null;
  }
}

/** Remember what this browser knows about a game. */
export function saveLocalGame(id, info) {
  try {
    localStorage.setItem(KEY + id, JSON.stringify(info));
  } catch {
    /* private mode: the cookie still works */
  }
}

/** An error from the server, carrying its one-sentence reason. */
export class ApiError extends Error {
  constructor(status, sentence) {
    super(sentence);
    this.status = status;
  }
}

/** A JSON request; `token` (optional) goes in the Authorization header. */
export async function api(method, path, body, token) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'The server cannot be reached.');
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const sentence = (data && data.error) || `The server answered ${res.status}.`;
    throw new ApiError(res.status, sentence);
  }
  return data;
}

/** The list of games, cached for the page's life. */
let variantsPromise = null;
export function variants() {
  if (!variantsPromise) {
    variantsPromise = api('GET', '/api/variants').then((v) => (Array.isArray(v) ? v : v.variants || []));
  }
  return variantsPromise;
}

/** A human name for a variant id. */
export function variantName(list, id) {
  const v = (list || []).find((x) => x.id === id);
  return v ? v.name : id;
}

/** Read NDJSON lines from a streaming response, calling `onLine` for each parsed object. */
export async function streamNdjson(res, onLine, signal) {
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    if (signal && signal.aborted) break;
    const { done, value } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i).trim();
      buf = buf.slice(i + 1);
      if (line) {
        try {
          onLine(JSON.parse(line));
        } catch {
          /* a broken line is skipped */
        }
      }
    }
  }
  if (buf.trim()) {
    try {
      onLine(JSON.parse(buf));
    } catch {
      /* ignore */
    }
  }
}

/** Escape text for HTML. */
export function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The caller's account (`{name}`, `name` null when anonymous), asked once per page. */
let accountPromise = null;
export function account() {
  if (!accountPromise) accountPromise = api('GET', '/api/account').catch(() => ({ name: null }));
  return accountPromise;
}

/** The address of a player's profile. */
export function profileUrl(name) {
  return `/@/${encodeURIComponent(name)}`;
}

/** The login page's address, coming back here afterwards. */
export function loginUrl() {
  const here = location.pathname + location.search;
  return here === '/login' || here.startsWith('/login?') ? '/login' : `/login?next=${encodeURIComponent(here)}`;
}

/** Fills the header's account corner: the account's name (its profile) and settings, or "Log in". */
function fillAccount(a) {
  const el = document.getElementById('account-nav');
  if (!el) return;
  el.innerHTML = a && a.name
    ? `<a id="account-name" href="${esc(profileUrl(a.name))}">${esc(a.name)}</a><a href="/account" title="Password, log out, delete the account">Account</a>`
    : `<a id="login-link" href="${esc(loginUrl())}">Log in</a>`;
}

/** Why a rating is provisional, for the "?" tooltip. */
export const PROVISIONAL_HELP = 'Provisional: the rating deviation (RD) is 110 or more, so the rating is still uncertain; it settles after more rated games.';

/** A rating as pages show it: rounded, with "?" while provisional (RD ≥ 110) and a tooltip saying why. */
export function ratingHtml(rating, rd, provisional) {
  const shown = `${Math.round(rating)}${provisional ? '?' : ''}`;
  const title = provisional ? `${PROVISIONAL_HELP} RD ${Math.round(rd)}.` : `Rating ${Math.round(rating)}, deviation (RD) ${Math.round(rd)}.`;
  return `<span class="rating${provisional ? ' provisional' : ''}" title="${esc(title)}">${esc(shown)}</span>`;
}

/** A rating change with its sign: "+12", "−12", "±0". */
export function signed(diff) {
  const d = Math.round(diff);
  return d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0';
}

/** The page header's markup, the same on every page (the account corner fills in when known). */
export function header(active) {
  const link = (href, text, key) => `<a href="${href}"${active === key ? ' aria-current="page"' : ''}>${text}</a>`;
  account().then(fillAccount);
  // the person's notices on every page (challenges, "your turn"); the home page's list too
  setTimeout(() => connectLobby(active === 'home'), 0);
  return `<a class="brand" href="/">Menagerie</a><nav>${link('/', 'Play', 'home')}${link('/games', 'Games', 'games')}${link('/my-games', 'My games', 'my-games')}${link('/analysis', 'Analysis', 'analysis')}${link('/leaderboard', 'Leaderboard', 'leaderboard')}</nav><span class="account-nav" id="account-nav"></span>`;
}

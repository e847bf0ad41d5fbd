// Seats that belong to people (issue 29), in Chromium against the real `menagerie serve`:
// a friend game by invitation in two browsers (the live "joined" notice, a taken invitation
// makes a spectator), a logged-in player finding a game from a second browser, the umpire's
// note, the profile and games pages (local dates, names, turns, results, filters, paging),
// and the account page.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, waitUntil } from './browser.mjs';
import { startServer, call } from './server.mjs';
import { gameIdOf, stateOf, playByPointing, openGame, waitForMoves } from './pages.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

// The reader's clock for the lists: far from UTC, so raw or UTC times cannot pass for local ones.
const ZONE = 'Pacific/Auckland';
const READER = { timezoneId: ZONE, locale: 'en-GB' };
const localTime = (ms) => new Date(ms).toLocaleString('en-GB', { timeZone: ZONE, dateStyle: 'medium', timeStyle: 'short' });
const PASSWORD = 'correct horse battery';

/** Starts a game from the home page: `opponent` friend/engine/local, `color` white/black/random. */
async function startFromHome(page, { variant = 'chess', opponent, color = 'white', level = null }) {
  await page.goto(server.url + '/');
  await page.click(`.variant-card[data-variant="${variant}"]`);
  await page.check(`input[name="opponent"][value="${opponent}"]`);
  await page.check(`input[name="color"][value="${color}"]`);
  if (level) await page.selectOption('#level', String(level));
  await page.click('#start');
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('svg.board [data-square]');
}

/** Signs up (or logs in) on the /login page and waits until the header names the account. */
async function account(page, form, name, password = PASSWORD) {
  await page.goto(server.url + '/login');
  await page.waitForSelector(`#${form}`);
  await page.fill(`#${form} input[name="name"]`, name);
  await page.fill(`#${form} input[name="password"]`, password);
  await page.click(`#${form} button[type="submit"]`);
  await page.waitForURL((u) => u.pathname === '/');
  await page.waitForSelector('#account-name');
  assert.equal(await page.textContent('#account-name'), name);
  assert.equal(await page.getAttribute('#account-name', 'href'), `/@/${name}`);
}

/** Plays a legal turn, given by its canonical text, by pointing on `page`. */
async function play(page, canonical) {
  const st = await stateOf(page);
  await playByPointing(page, st.legal.find((t) => t.canonical === canonical));
}

/** A friend game between two browser pages: `a` creates it as White, `b` takes the invitation. */
async function friendGame(a, b) {
  await startFromHome(a, { opponent: 'friend', color: 'white' });
  await a.waitForSelector('#friend:not([hidden])');
  const invite = await a.inputValue('#friend-link');
  await b.goto(invite);
  await b.waitForURL(/\/game\//);
  await b.waitForSelector('svg.board [data-square]');
  return invite;
}

test('a friend game by invitation: the friend joins in a second browser, the creator sees it live, both play; the invitation then makes a spectator', async () => {
  const a = await newPage(browser);
  await startFromHome(a, { opponent: 'friend', color: 'white' });
  const id = gameIdOf(a);
  await a.waitForSelector('#friend:not([hidden])');
  const invite = await a.inputValue('#friend-link');
  assert.match(invite, new RegExp(`^${server.url.replace(/[.]/g, '\\.')}/join/[^/?#]+$`), 'the friend is sent an invitation, not a seat link');
  // the creator holds its own seat only: White's, and the other seat is free
  const st0 = await stateOf(a);
  assert.equal(st0.you, 'white');
  assert.equal(st0.seats.black.taken, false);
  assert.equal(st0.umpire_key, false);
  assert.equal(await a.locator('#joined-note').count(), 0);
  assert.equal(await a.locator('#umpire-note').count(), 0);
  assert.equal(await a.textContent('#player-bottom .name'), 'White · You');
  assert.equal(await a.textContent('#player-top .name'), 'Black · Opponent');
  // nothing in what the page keeps opens Black's seat
  const kept = await a.evaluate((g) => localStorage.getItem(`menagerie:game:${g}`), id);
  const info = JSON.parse(kept);
  assert.deepEqual(Object.keys(info.tokens), ['white']);
  assert.equal(info.friend, invite);

  const b = await newPage(browser);
  await b.goto(invite);
  await b.waitForURL(/\/game\//);
  await b.waitForSelector('svg.board [data-square]');
  assert.equal(gameIdOf(b), id);
  assert.equal(new URL(b.url()).search, '', 'the first browser is not told the invitation was taken');
  assert.equal(await b.getAttribute('svg.board', 'data-orientation'), 'black');
  assert.equal((await stateOf(b)).you, 'black');
  // the creator is told at once, and the invitation is no longer offered
  await a.waitForSelector('#joined-note');
  assert.equal(await a.textContent('#joined-note'), 'Your friend has joined.');
  await a.waitForSelector('#friend', { state: 'hidden' });
  assert.equal((await stateOf(a)).seats.black.taken, true);
  assert.equal(await b.locator('#joined-note').count(), 0, 'the friend is not told it joined itself');
  assert.equal(await b.locator('#friend').isHidden(), true);

  // both play a few turns, each seeing the other's live
  const turns = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4'];
  for (const [i, t] of turns.entries()) {
    const [mover, watcher] = i % 2 === 0 ? [a, b] : [b, a];
    await waitUntil(mover, () => document.querySelector('#status').textContent.startsWith('Your turn'));
    await play(mover, t);
    await waitForMoves(watcher, i + 1);
    await waitForMoves(mover, i + 1);
  }
  const st = await stateOf(b);
  assert.deepEqual(st.moves.map((m) => m.canonical), turns);
  assert.equal(st.turn, 'black');

  // a reload of the creator's page keeps the invitation hidden (the state says the seat is taken)
  await a.reload();
  await a.waitForSelector('svg.board [data-square]');
  await waitForMoves(a, 5);
  assert.equal(await a.locator('#friend').isHidden(), true);

  // a third browser opening the used invitation is a spectator, told so in one sentence
  const c = await newPage(browser);
  await c.goto(invite);
  await c.waitForURL(/\/game\/[^/]+\?invite=taken$/);
  await c.waitForSelector('#invite-taken');
  assert.equal(gameIdOf(c), id);
  assert.equal(await c.textContent('#invite-taken'), 'This invitation has already been used: the seat is taken; you are watching.');
  await waitUntil(c, () => /^You are watching/.test(document.querySelector('#status').textContent));
  assert.equal((await stateOf(c)).you, 'spectator');
  assert.equal(await c.locator('#move-form').isHidden(), true);
  assert.equal(await c.locator('#controls').isHidden(), true);
  // and nothing it can do moves Black
  const forced = await c.evaluate(async (g) => (await fetch(`/api/games/${g}/move`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ move: 'g8f6' }) })).status, id);
  assert.ok(forced === 403 || forced === 409, `a spectator's move is refused (${forced})`);
  assert.equal((await stateOf(a)).moves.length, 5);

  // "My games" of the anonymous creator's browser lists the game, Black to move
  await a.goto(server.url + '/my-games');
  await a.waitForSelector(`#playing tr[data-game="${id}"]`);
  assert.equal(await a.textContent(`#playing tr[data-game="${id}"] [data-col="status"]`), 'Their turn');
  assert.equal(await a.textContent(`#playing tr[data-game="${id}"] [data-col="turns"]`), '5');
  assert.equal(await a.textContent(`#playing tr[data-game="${id}"] [data-col="color"]`), 'White');
  assert.equal(await a.textContent(`#playing tr[data-game="${id}"] [data-col="opponent"]`), 'Anonymous');
  await b.goto(server.url + '/my-games');
  await b.waitForSelector(`#playing tr[data-game="${id}"]`);
  assert.equal(await b.textContent(`#playing tr[data-game="${id}"] [data-col="status"]`), 'Your turn');
  assert.equal(await b.textContent(`#playing tr[data-game="${id}"] [data-col="color"]`), 'Black');
  assert.equal(await b.locator('tr.your-turn').count(), 1);

  for (const p of [a, b, c]) assert.deepEqual(p.errors, []);
  for (const p of [a, b, c]) await p.context().close();
});

test('a rematch of a game by invitation: each player follows its own link to its own seat of the new game', async () => {
  const a = await newPage(browser);
  const b = await newPage(browser);
  await friendGame(a, b);
  const id = gameIdOf(a);
  await a.click('#resign');
  await a.click('#resign');
  await b.waitForSelector('#banner:not([hidden])');
  await a.waitForSelector('#rematch:not([hidden])');
  await a.click('#rematch');
  await b.waitForSelector('#accept-rematch');
  await b.click('#accept-rematch');
  for (const [who, p] of [['the offering player', a], ['the accepting player', b]]) {
    await p.waitForURL((u) => u.pathname.startsWith('/game/') && !u.pathname.includes(id)).catch(async (e) => {
      throw new Error(`${who} stayed at ${p.url()}: ${(await p.textContent('body')).slice(0, 300)} (${e.message.split('\n')[0]})`);
    });
    await p.waitForSelector('svg.board [data-square]');
  }
  assert.equal(gameIdOf(a), gameIdOf(b));
  // the colours are swapped, and each browser holds its own seat only
  assert.equal((await stateOf(a)).you, 'black');
  assert.equal((await stateOf(b)).you, 'white');
  await play(b, 'e2e4');
  await waitForMoves(a, 1);
  for (const p of [a, b]) assert.deepEqual(p.errors, []);
  for (const p of [a, b]) await p.context().close();
});

test('a logged-in player finds a game started in one browser from a second one, and plays it there', async () => {
  const a = await newPage(browser);
  await account(a, 'signup', 'carol');
  await startFromHome(a, { opponent: 'engine', color: 'white', level: 1 });
  const id = gameIdOf(a);
  assert.equal((await stateOf(a)).you, 'white');
  await waitUntil(a, () => document.querySelector('#player-bottom .name').textContent === 'White · carol (you)');
  assert.equal(await a.textContent('#player-top .name'), 'Black · Engine level 1');
  await play(a, 'd2d4');
  await waitForMoves(a, 2); // the engine answers

  const b = await newPage(browser);
  // before logging in, the second browser has no games and no seat in this one
  await b.goto(server.url + '/my-games');
  await b.waitForSelector('#no-games');
  await b.waitForSelector('#login-link');
  assert.equal((await b.evaluate(async (g) => (await fetch(`/api/games/${g}`)).json(), id)).you, 'spectator');
  await account(b, 'login', 'carol');
  await b.goto(server.url + '/my-games');
  const row = `#playing tr[data-game="${id}"]`;
  await b.waitForSelector(row);
  assert.equal(await b.textContent(`${row} [data-col="status"]`), 'Your turn');
  assert.equal(await b.textContent(`${row} [data-col="color"]`), 'White');
  assert.equal(await b.textContent(`${row} [data-col="opponent"]`), 'Engine level 1');
  assert.equal(await b.textContent(`${row} [data-col="turns"]`), '2');
  const chess = (await call(server.url, 'GET', '/api/variants')).data.find((v) => v.id === 'chess');
  assert.equal(await b.textContent(`${row} [data-col="game"]`), chess.name);
  await b.click(`${row} [data-col="game"] a`);
  await b.waitForURL(/\/game\//);
  await b.waitForSelector('svg.board [data-square]');
  assert.equal(gameIdOf(b), id);
  await waitUntil(b, () => document.querySelector('#status').textContent.startsWith('Your turn'));
  assert.equal((await stateOf(b)).you, 'white');
  await play(b, 'c2c4');
  // the first browser sees the turn played from the second, and the engine's answer
  await waitForMoves(a, 4);
  await waitForMoves(b, 4);
  assert.equal((await stateOf(a)).moves[2].canonical, 'c2c4');
  for (const p of [a, b]) assert.deepEqual(p.errors, []);
  for (const p of [a, b]) await p.context().close();
});

test('the profile and games pages: local start times, names, turns, results and how games ended; filters, the PGN download', async () => {
  const a = await newPage(browser, READER);
  const b = await newPage(browser, READER);
  await account(a, 'signup', 'dora');
  await account(b, 'signup', 'eve');
  await friendGame(a, b);
  const id = gameIdOf(a);
  await a.waitForSelector('#joined-note');
  assert.equal(await a.textContent('#joined-note'), 'Your friend has joined as eve.');
  await waitUntil(a, () => document.querySelector('#player-top .name').textContent === 'Black · eve');
  assert.equal(await b.textContent('#player-top .name'), 'White · dora');
  assert.equal(await b.textContent('#player-bottom .name'), 'Black · eve (you)');
  for (const [i, t] of ['e2e4', 'e7e5', 'd1h5', 'b8c6', 'f1c4', 'g8f6', 'h5f7'].entries()) {
    await play(i % 2 === 0 ? a : b, t);
    await waitForMoves(a, i + 1);
    await waitForMoves(b, i + 1);
  }
  // a second game that dora resigns at once, and one she is still playing
  await friendGame(a, b);
  const resigned = gameIdOf(a);
  await a.click('#resign');
  await a.click('#resign');
  await a.waitForSelector('#banner:not([hidden])');
  await friendGame(a, b);
  const running = gameIdOf(a);
  await play(a, 'e2e4');
  await waitForMoves(b, 1);

  const all = await call(server.url, 'GET', '/api/games?player=dora');
  assert.equal(all.status, 200);
  const byId = Object.fromEntries(all.data.map((g) => [g.id, g]));
  assert.deepEqual(all.data.map((g) => g.id), [running, resigned, id], 'newest first');
  assert.equal(byId[id].result, '1-0');
  assert.equal(byId[id].turns, 7);
  assert.equal(byId[resigned].result, '0-1');

  // the games page, as a reader in Auckland sees it
  await a.goto(server.url + '/games?player=dora');
  await a.waitForSelector('table.games');
  assert.deepEqual(await a.$$eval('table.games tbody tr', (rs) => rs.map((r) => r.dataset.game)), [running, resigned, id]);
  for (const g of all.data) {
    const row = `table.games tr[data-game="${g.id}"]`;
    assert.equal(typeof g.created_at, 'number');
    assert.equal(await a.textContent(`${row} [data-col="started"]`), localTime(g.created_at));
    assert.equal(await a.getAttribute(`${row} [data-col="started"] time`, 'datetime'), new Date(g.created_at).toISOString());
    assert.equal(await a.textContent(`${row} [data-seat="white"]`), 'dora');
    assert.equal(await a.textContent(`${row} [data-seat="black"]`), 'eve');
    assert.equal(await a.getAttribute(`${row} [data-seat="white"] a`, 'href'), '/@/dora');
    assert.equal(await a.textContent(`${row} [data-col="turns"]`), String(g.turns));
    assert.equal(await a.textContent(`${row} [data-col="result"]`), g.finished ? `${g.result} · ${g.outcome}` : 'playing');
  }
  assert.equal(await a.textContent(`tr[data-game="${id}"] [data-col="turns"]`), '7');
  assert.match(await a.textContent(`tr[data-game="${id}"] [data-col="result"]`), /^1-0 · .*checkmate/i);
  assert.match(await a.textContent(`tr[data-game="${resigned}"] [data-col="result"]`), /^0-1 · .*resign/i);
  assert.equal(await a.textContent(`tr[data-game="${running}"] [data-col="result"]`), 'playing');
  // filtered by another game: none
  await a.selectOption('#filter-variant', 'cypher');
  await a.waitForURL(/variant=cypher/);
  await a.waitForSelector('#no-games');
  assert.equal(await a.inputValue('#filter-player'), 'dora');

  // dora's profile
  await a.goto(server.url + '/@/dora');
  await a.waitForSelector('#counts');
  assert.equal(await a.textContent('#profile-name'), 'dora');
  const counts = await a.$$eval('#counts tr[data-variant="chess"] td[data-col]', (tds) => Object.fromEntries(tds.map((t) => [t.dataset.col, t.textContent])));
  // played counts the game in progress too
  assert.deepEqual(counts, { games: '3', wins: '1', draws: '0', losses: '1' });
  assert.deepEqual(await a.$$eval('#playing tbody tr', (rs) => rs.map((r) => r.dataset.game)), [running]);
  assert.deepEqual(await a.$$eval('#history tbody tr', (rs) => rs.map((r) => r.dataset.game)), [running, resigned, id]);
  assert.equal(await a.textContent(`#history tr[data-game="${id}"] [data-col="started"]`), localTime(byId[id].created_at));
  assert.equal(await a.textContent(`#history tr[data-game="${id}"] [data-col="turns"]`), '7');
  assert.equal(await a.textContent(`#history tr[data-game="${id}"] [data-col="result"]`), `1-0 · ${byId[id].outcome}`);
  assert.equal(await a.getAttribute(`#history tr[data-game="${id}"] [data-seat="black"] a`, 'href'), '/@/eve');
  // filtered by result
  await a.selectOption('#filter-result', 'lost');
  await a.waitForURL(/result=lost/);
  await a.waitForSelector('#history');
  assert.deepEqual(await a.$$eval('#history tbody tr', (rs) => rs.map((r) => r.dataset.game)), [resigned]);
  await a.goto(server.url + '/@/dora?result=drawn');
  await a.waitForSelector('#no-games');
  // the PGN of all her games
  const href = await a.getAttribute('#pgn-link', 'href');
  assert.equal(href, '/api/users/dora/games.pgn');
  const pgn = await a.evaluate(async (h) => (await fetch(h)).text(), href);
  assert.equal(pgn.match(/\[White "dora"\]/g).length, 3);
  assert.equal(pgn.match(/\[Black "eve"\]/g).length, 3);
  assert.match(pgn, /\[Result "1-0"\]/);
  assert.match(pgn, /\[Result "0-1"\]/);
  // eve's profile counts the same games the other way round
  await b.goto(server.url + '/@/eve');
  await b.waitForSelector('#counts');
  const eve = await b.$$eval('#counts tr[data-variant="chess"] td[data-col]', (tds) => Object.fromEntries(tds.map((t) => [t.dataset.col, t.textContent])));
  assert.deepEqual(eve, { games: '3', wins: '1', draws: '0', losses: '1' });
  // a 360-pixel phone scrolls none of these pages sideways (a wide table scrolls in its own box)
  const phone = await newPage(browser, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  for (const path of ['/login', '/account', '/my-games', '/@/dora', '/games?player=dora']) {
    await phone.goto(server.url + path);
    await phone.waitForSelector('#account-nav a');
    await phone.waitForSelector('main > :not(.loading)');
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 360, `${path} is ${width} pixels wide`);
  }
  assert.deepEqual(phone.errors, []);
  await phone.context().close();
  // an unknown name is one sentence
  await b.goto(server.url + '/@/nobody-here');
  await b.waitForSelector('#profile-error');
  assert.ok((await b.textContent('#profile-error')).length > 0);
  for (const p of [a, b]) assert.deepEqual(p.errors, []);
  for (const p of [a, b]) await p.context().close();
});

test('a profile pages its games 20 at a time, newest first', async () => {
  const a = await newPage(browser);
  await account(a, 'signup', 'fay');
  const ids = await a.evaluate(async () => {
    const out = [];
    for (let i = 0; i < 21; i++) {
      const r = await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ variant: 'chess', white: 'human', black: 'human', as: 'white' }) });
      out.push((await r.json()).id);
    }
    return out;
  });
  await a.goto(server.url + '/@/fay');
  await a.waitForSelector('#history');
  assert.equal(await a.textContent('#games-total'), '(21)');
  assert.equal(await a.textContent('#page-of'), 'Page 1 of 2');
  assert.deepEqual(await a.$$eval('#history tbody tr', (rs) => rs.map((r) => r.dataset.game)), ids.slice(1).reverse());
  assert.equal(await a.locator('#page-prev').count(), 0);
  await a.click('#page-next');
  await a.waitForURL(/page=2/);
  await a.waitForSelector('#history');
  assert.equal(await a.textContent('#page-of'), 'Page 2 of 2');
  assert.deepEqual(await a.$$eval('#history tbody tr', (rs) => rs.map((r) => r.dataset.game)), [ids[0]]);
  assert.equal(await a.locator('#page-next').count(), 0);
  assert.deepEqual(a.errors, []);
  await a.context().close();
});

test('a game created for an umpire: both players are told that an umpire holds the key', async () => {
  const g = await call(server.url, 'POST', '/api/games', { variant: 'little-cheops-imperial', white: 'human', black: 'human', as: 'none' });
  assert.equal(g.status, 201, JSON.stringify(g.data));
  assert.deepEqual(g.data.seats, {});
  const w = await openGame(browser, server.url, g.data.invites.white.url);
  const b = await openGame(browser, server.url, g.data.invites.black.url);
  for (const [p, c] of [
    [w, 'white'],
    [b, 'black'],
  ]) {
    assert.equal((await stateOf(p)).you, c);
    await p.waitForSelector('#umpire-note');
    assert.equal(await p.textContent('#umpire-note'), "An umpire holds the key to this game: the umpire sees both sides' secrets.");
  }
  // a spectator is not a player: no note
  const s = await openGame(browser, server.url, `/game/${g.data.id}`);
  await waitUntil(s, () => /^You are watching/.test(document.querySelector('#status').textContent));
  assert.equal(await s.locator('#umpire-note').count(), 0);
  for (const p of [w, b, s]) assert.deepEqual(p.errors, []);
  for (const p of [w, b, s]) await p.context().close();
});

test('log in and sign up show the server\'s sentence; the account page changes the password, logs out everywhere and deletes the account, whose games stay', async () => {
  const a = await newPage(browser);
  await account(a, 'signup', 'gus');
  // a name taken (ignoring case) is refused with the server's sentence
  const other = await newPage(browser);
  await other.goto(server.url + '/login');
  await other.fill('#signup input[name="name"]', 'GUS');
  await other.fill('#signup input[name="password"]', PASSWORD);
  const [taken] = await Promise.all([other.waitForResponse((r) => r.url().endsWith('/api/account/signup')), other.click('#signup button[type="submit"]')]);
  assert.equal(taken.status(), 409);
  await waitUntil(other, () => document.querySelector('#signup-error').textContent !== '');
  assert.equal(await other.textContent('#signup-error'), (await taken.json()).error);
  // a wrong password
  await other.fill('#login input[name="name"]', 'gus');
  await other.fill('#login input[name="password"]', 'not the password');
  const [wrong] = await Promise.all([other.waitForResponse((r) => r.url().endsWith('/api/account/login')), other.click('#login button[type="submit"]')]);
  assert.equal(wrong.status(), 401);
  await waitUntil(other, () => document.querySelector('#login-error').textContent !== '');
  assert.equal(await other.textContent('#login-error'), (await wrong.json()).error);
  await account(other, 'login', 'gus');

  // a game gus plays against the engine stays after the account goes
  await startFromHome(a, { opponent: 'engine', color: 'white', level: 1 });
  const id = gameIdOf(a);
  await play(a, 'e2e4');
  await waitForMoves(a, 2);

  // change the password: the other browser is logged out, the new password works
  await a.goto(server.url + '/account');
  await a.waitForSelector('#password-form');
  await a.fill('#password-form input[name="password"]', PASSWORD);
  await a.fill('#password-form input[name="new_password"]', 'a new long password');
  await a.click('#password-form button[type="submit"]');
  await waitUntil(a, () => document.querySelector('#account-notice').textContent !== '');
  assert.equal(await a.textContent('#account-notice'), 'The password is changed; your other devices are logged out.');
  await other.goto(server.url + '/my-games');
  await other.waitForSelector('#login-link');
  await account(other, 'login', 'gus', 'a new long password');
  // log out everywhere from the other browser: the first one is logged out too
  await other.goto(server.url + '/account');
  await other.click('#logout-everywhere');
  await other.waitForURL((u) => u.pathname === '/');
  await other.waitForSelector('#login-link');
  await a.goto(server.url + '/account');
  await a.waitForSelector('#not-logged-in');
  // delete the account (a wrong password first is refused with the server's sentence)
  await account(a, 'login', 'gus', 'a new long password');
  await a.goto(server.url + '/account');
  await a.fill('#delete-form input[name="password"]', 'not the password');
  await a.click('#delete');
  assert.equal(await a.textContent('#delete'), 'Really delete? Press again');
  const [refused] = await Promise.all([a.waitForResponse((r) => r.url().endsWith('/api/account') && r.request().method() === 'DELETE'), a.click('#delete')]);
  assert.notEqual(refused.status(), 200);
  await waitUntil(a, () => document.querySelector('#delete-error').textContent !== '');
  assert.equal(await a.textContent('#delete-error'), (await refused.json()).error);
  await a.fill('#delete-form input[name="password"]', 'a new long password');
  await a.click('#delete');
  await a.waitForURL((u) => u.pathname === '/');
  await a.waitForSelector('#login-link');
  // the game is still there, its White player now "deleted"
  const st = (await call(server.url, 'GET', `/api/games/${id}`)).data;
  assert.equal(st.moves.length, 2);
  assert.equal(st.seats.white.name, 'deleted');
  const watcher = await openGame(browser, server.url, `/game/${id}`);
  await waitUntil(watcher, () => document.querySelector('#player-bottom .name').textContent === 'White · deleted');
  for (const p of [a, other, watcher]) assert.deepEqual(p.errors, []);
  for (const p of [a, other, watcher]) await p.context().close();
});

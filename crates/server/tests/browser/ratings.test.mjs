// Ratings (issue 33) in Chromium against the real `menagerie serve`: a rated game started
// from the home page ends and both players' pages show the change and the new provisional
// rating ("?" with its tooltip); the levels' list shows each engine level's rating; the
// leaderboard page (from the header) lists a qualified player and the engine apart; the
// profile draws the rating history as an SVG chart.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, waitUntil } from './browser.mjs';
import { startServer } from './server.mjs';
import { stateOf, playByPointing, waitForMoves } from './pages.mjs';

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

const PASSWORD = 'correct horse battery';

/** Signs up on the /login page and waits until the header names the account. */
async function signUp(page, name) {
  await page.goto(server.url + '/login');
  await page.waitForSelector('#signup');
  await page.fill('#signup input[name="name"]', name);
  await page.fill('#signup input[name="password"]', PASSWORD);
  await page.click('#signup button[type="submit"]');
  await page.waitForURL((u) => u.pathname === '/');
  await page.waitForSelector('#account-name');
}

/** Plays a legal turn, given by its canonical text, by pointing on `page`. */
async function play(page, canonical) {
  const st = await stateOf(page);
  await playByPointing(page, st.legal.find((t) => t.canonical === canonical));
}

test('a rated friend game from the home page: at its end both pages show each change and the new provisional rating with its tooltip', async () => {
  const a = await newPage(browser);
  const b = await newPage(browser);
  await signUp(a, 'rita');
  await signUp(b, 'sam');
  // the levels' list shows each engine level's rating in the chosen game
  await a.click('.variant-card[data-variant="chess"]');
  await waitUntil(a, () => /rated/.test(document.querySelector('#level option[value="1"]').textContent));
  assert.equal(await a.textContent('#level option[value="1"]'), '1 (rated 1260?)');
  assert.equal(await a.textContent('#level option[value="8"]'), '8 (rated 2200?)');
  await a.check('input[name="opponent"][value="friend"]');
  await a.check('input[name="color"][value="white"]');
  await a.waitForSelector('#rated-choice:not([hidden])');
  await a.check('#rated');
  await a.click('#start');
  await a.waitForURL(/\/game\//);
  await a.waitForSelector('#friend:not([hidden])');
  assert.equal((await stateOf(a)).rated, true);
  await b.goto(await a.inputValue('#friend-link'));
  await b.waitForURL(/\/game\//);
  await b.waitForSelector('svg.board [data-square]');
  assert.equal((await stateOf(b)).you, 'black');
  for (const p of [a, b]) await p.waitForSelector('#rated-note:not([hidden])');
  const turns = ['e2e4', 'e7e5', 'g1f3', 'b8c6'];
  for (const [i, t] of turns.entries()) {
    const p = i % 2 === 0 ? a : b;
    await waitUntil(p, () => document.querySelector('#status').textContent.startsWith('Your turn'));
    await play(p, t);
    await waitForMoves(a, i + 1);
    await waitForMoves(b, i + 1);
  }
  // Black resigns (the button asks twice)
  await b.click('#resign');
  await b.click('#resign');
  for (const p of [a, b]) {
    await p.waitForSelector('#rating-change [data-color="black"]');
    // two new players, White wins: 1741.62 and 1258.38, RD 396.81 each (Glicko-2, issue 33)
    assert.equal(await p.textContent('#rating-change [data-color="white"] .diff'), '+242');
    assert.equal(await p.textContent('#rating-change [data-color="white"] .rating'), '1742?');
    assert.equal(await p.textContent('#rating-change [data-color="black"] .diff'), '−242');
    assert.equal(await p.textContent('#rating-change [data-color="black"] .rating'), '1258?');
    const tip = await p.getAttribute('#rating-change [data-color="white"] .rating', 'title');
    assert.match(tip, /^Provisional: the rating deviation \(RD\) is 110 or more/);
    assert.match(tip, /RD 397\.$/);
    assert.equal(await p.isHidden('#rated-note'), true);
  }
  assert.match(await a.textContent('#rating-change [data-color="white"]'), /^White · rita \(you\): \+242 → 1742\?$/);
  assert.match(await b.textContent('#rating-change [data-color="white"]'), /^White · rita: \+242 → 1742\?$/);
  // the home page now shows the player's own rating beside the rated choice
  await a.goto(server.url + '/?variant=chess');
  await waitUntil(a, () => !!document.querySelector('#my-rating') && document.querySelector('#my-rating').textContent !== '');
  assert.equal(await a.textContent('#my-rating'), '(your rating here: 1742?)');
  for (const p of [a, b]) assert.deepEqual(p.errors, []);
  for (const p of [a, b]) await p.context().close();
});

/** An account made through the API: its session cookie. */
async function apiAccount(name) {
  const res = await fetch(`${server.url}/api/account/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, password: PASSWORD }),
  });
  assert.equal(res.status, 201);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('menagerie-session='));
  assert.ok(cookie, 'a session cookie');
  return cookie.split(';')[0];
}

/** A JSON request as the account whose session is `cookie`. */
async function as(cookie, method, path, body) {
  const res = await fetch(server.url + path, {
    method,
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, data: await res.json() };
}

test('the leaderboard page (from the header) lists a player once qualified, best first, with the engine levels apart; the profile draws the rating history', async () => {
  const [tia, uma] = [await apiAccount('tia'), await apiAccount('uma')];
  let games = 0;
  for (;;) {
    const g = await as(tia, 'POST', '/api/games', { variant: 'chess', as: 'white', rated: true });
    assert.equal(g.status, 201, JSON.stringify(g.data));
    const code = g.data.invite.url.replace('/join/', '');
    assert.equal((await as(uma, 'POST', `/api/join/${code}`, {})).status, 201);
    for (const [i, t] of ['e2e4', 'e7e5', 'g1f3', 'b8c6'].entries()) {
      const r = await as(i % 2 === 0 ? tia : uma, 'POST', `/api/games/${g.data.id}/move`, { move: t });
      assert.equal(r.status, 200, JSON.stringify(r.data));
    }
    // Tia wins two games of three
    games += 1;
    assert.equal((await as(games % 3 === 0 ? tia : uma, 'POST', `/api/games/${g.data.id}/resign`, {})).status, 200);
    const board = await as(tia, 'GET', '/api/leaderboard/chess');
    if (board.data.players.some((p) => p.name === 'tia')) break;
    assert.ok(games < 40, 'Tia qualifies within 40 games');
  }
  const me = (await as(tia, 'GET', '/api/users/tia')).data.ratings.chess;
  assert.equal(me.games, games);

  const page = await newPage(browser);
  await page.goto(server.url + '/');
  await page.click('header nav a[href="/leaderboard"]');
  await page.waitForURL((u) => u.pathname === '/leaderboard');
  await page.waitForSelector('#variants');
  await page.click('#variants a[href="/leaderboard/chess"]');
  await page.waitForURL((u) => u.pathname === '/leaderboard/chess');
  await page.waitForSelector('#leaderboard');
  assert.match(await page.textContent('#thresholds'), /at least 10 rated games, one in the last 30 days, and a rating deviation \(RD\) below 110/);
  assert.equal(await page.textContent('#leaderboard tbody tr:first-child [data-col="rank"]'), '1');
  assert.equal(await page.getAttribute('#leaderboard tbody tr:first-child', 'data-name'), 'tia');
  assert.equal(await page.textContent('#leaderboard tr[data-name="tia"] [data-col="rating"]'), String(Math.round(me.rating)));
  assert.equal(await page.textContent('#leaderboard tr[data-name="tia"] [data-col="games"]'), String(games));
  // the engine's eight levels, apart, none of them among the people
  assert.equal(await page.locator('#bots tbody tr').count(), 8);
  assert.equal(await page.textContent('#bots tr[data-level="8"] [data-col="rating"]'), '2200?');
  assert.equal(await page.locator('#leaderboard tr[data-name^="Engine"]').count(), 0);
  // an unknown game says so
  await page.goto(server.url + '/leaderboard/nosuchgame');
  await page.waitForSelector('#leaderboard-error');

  // the profile: the ratings table and one SVG point per rated game
  await page.goto(server.url + '/@/tia');
  await page.waitForSelector('svg.rating-chart[data-variant="chess"]');
  assert.equal(await page.textContent('#ratings tr[data-variant="chess"] [data-col="games"]'), String(games));
  assert.equal(await page.textContent('#ratings tr[data-variant="chess"] [data-col="rating"]'), String(Math.round(me.rating)));
  assert.equal(await page.textContent('#ratings tr[data-variant="chess"] [data-col="best"]'), String(Math.round(me.best)));
  assert.equal(await page.locator('svg.rating-chart[data-variant="chess"] circle').count(), games);
  const points = await page.getAttribute('svg.rating-chart[data-variant="chess"] polyline', 'points');
  assert.equal(points.split(' ').length, games);
  // the last point is the highest or lowest on the chart only as the ratings say: compare its
  // height with the first point's (Tia's first game was a win from 1500)
  const ys = points.split(' ').map((p) => Number(p.split(',')[1]));
  const history = (await as(tia, 'GET', '/api/users/tia/rating-history')).data.chess;
  assert.equal(history.length, games);
  assert.equal(Math.sign(ys[0] - ys[games - 1]), Math.sign(history[games - 1].rating - history[0].rating));
  assert.match(await page.textContent('svg.rating-chart[data-variant="chess"] circle:first-of-type title'), /^Game 1, .*: 1742\? \(\+242\)$/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The lobby (issue 32) in Chromium against the real `menagerie serve`: two accounts in two
// browser contexts meet through a seek and through quick pairing (two sets of games that
// overlap in one: they are paired in that one) and play a few turns; a challenge from a
// profile accepted, and one declined with a reason; a game against a bot started from the
// lobby; a correspondence turn reaching the other player's open page (notice bar, browser
// notification, "my games").

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, waitUntil } from './browser.mjs';
import { startServer } from './server.mjs';
import { gameIdOf, stateOf, playByPointing, waitForMoves } from './pages.mjs';

let server;
let browser;
const PASSWORD = 'correct horse battery';

before(async () => {
  // no bot answers a seek here: the people must meet each other
  server = await startServer({ args: ['--bot-wait-ms', '0'] });
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

/** Signs up on the /login page; the page ends on the home page with the lobby. */
async function signup(page, name) {
  await page.goto(server.url + '/login');
  await page.waitForSelector('#signup');
  await page.fill('#signup input[name="name"]', name);
  await page.fill('#signup input[name="password"]', PASSWORD);
  await page.click('#signup button[type="submit"]');
  await page.waitForURL((u) => u.pathname === '/');
  await page.waitForSelector('#account-name');
  await page.waitForSelector('#seek-form');
}

/** Two signed-up players, each in its own browser context. */
async function two(nameA, nameB) {
  const a = await newPage(browser);
  const b = await newPage(browser);
  await signup(a, nameA);
  await signup(b, nameB);
  return [a, b];
}

/** Waits until both pages show the same game; returns its id. */
async function bothInGame(a, b) {
  for (const p of [a, b]) {
    await p.waitForURL(/\/game\//);
    await p.waitForSelector('svg.board [data-square]');
  }
  assert.equal(gameIdOf(a), gameIdOf(b));
  return gameIdOf(a);
}

/** Plays `n` turns, each the first legal turn of the side to move, by pointing on its page. */
async function playTurns(a, b, n) {
  const byColor = { [(await stateOf(a)).you]: a, [(await stateOf(b)).you]: b };
  assert.deepEqual(Object.keys(byColor).sort(), ['black', 'white']);
  for (let i = 0; i < n; i++) {
    const st = await stateOf(a);
    const mover = byColor[st.turn];
    await waitUntil(mover, () => document.querySelector('#status').textContent.startsWith('Your turn'));
    const mine = await stateOf(mover);
    await playByPointing(mover, mine.legal.find((t) => t.kind !== 'claim') || mine.legal[0]);
    await waitForMoves(a, i + 1);
    await waitForMoves(b, i + 1);
  }
}

test('two accounts meet through a seek: the seek appears live for the other, who takes it; both pages go to the game, they play and chat', async () => {
  const [a, b] = await two('alice', 'bob');
  await a.selectOption('#seek-variant', 'chess');
  await a.check('input[name="seek-kind"][value="clock"]');
  await a.fill('#seek-minutes', '10');
  await a.fill('#seek-increment', '5');
  await a.selectOption('#seek-color', 'white');
  await a.click('#create-seek');
  await a.waitForSelector('#seeks tr.mine .cancel-seek');
  const id = await a.getAttribute('#seeks tr.mine', 'data-seek');
  const row = `#seeks tr[data-seek="${id}"]`;
  await b.waitForSelector(`${row} .accept-seek`);
  assert.equal(await b.textContent(`${row} [data-col="player"]`), 'alice');
  assert.equal(await b.textContent(`${row} [data-col="rating"]`), '1500?');
  assert.equal(await b.textContent(`${row} [data-col="time"]`), '10+5');
  assert.equal(await b.textContent(`${row} [data-col="mode"]`), 'casual');
  assert.equal(await b.textContent(`${row} [data-col="color"]`), 'White');
  await waitUntil(b, () => /^\d+ online, \d+ playing$/.test((document.querySelector('#lobby-counts') || {}).textContent || ''));
  await b.click(`${row} .accept-seek`);
  const game = await bothInGame(a, b);
  const [sa, sb] = [await stateOf(a), await stateOf(b)];
  assert.equal(sa.you, 'white');
  assert.equal(sb.you, 'black');
  assert.equal(sa.variant, 'chess');
  assert.equal(sa.clock.initial_ms, 600000);
  assert.equal(sa.clock.increment_ms, 5000);
  assert.equal(sa.seats.black.name, 'bob');
  await waitUntil(a, () => document.querySelector('#player-bottom .name').textContent === 'White · alice (you)');
  await playTurns(a, b, 4);
  assert.equal((await stateOf(b)).moves.length, 4);
  // and they chat at the table
  await a.waitForSelector('#chat:not([hidden])');
  await a.fill('#chat-input', 'good luck, bob');
  await a.press('#chat-input', 'Enter');
  await waitUntil(b, () => document.querySelectorAll('#chat-list .chat-message').length === 1);
  assert.equal(await b.textContent('#chat-list .chat-message .chat-text'), 'good luck, bob');
  await b.fill('#chat-input', 'thanks, alice');
  await b.press('#chat-input', 'Enter');
  await waitUntil(a, () => document.querySelectorAll('#chat-list .chat-message').length === 2);
  assert.deepEqual(await a.$$eval('#chat-list .chat-message .chat-text', (xs) => xs.map((x) => x.textContent)), ['good luck, bob', 'thanks, alice']);
  // the seek is gone from every list
  const c = await newPage(browser);
  await c.goto(server.url + '/');
  await waitUntil(c, () => /online/.test((document.querySelector('#lobby-counts') || {}).textContent || ''));
  await c.waitForSelector('#no-seeks:not([hidden])');
  assert.equal(await c.locator(row).count(), 0);
  assert.ok(game);
  for (const p of [a, b, c]) assert.deepEqual(p.errors, []);
  for (const p of [a, b, c]) await p.context().close();
});

test('quick pairing: two players tick sets of games that overlap in one and are paired in that one', async () => {
  const [a, b] = await two('carol', 'dave');
  await a.check('input[name="pair-variant"][value="chess"]');
  await a.check('input[name="pair-variant"][value="vyrt"]');
  await a.check('input[name="pair-clock"][value="10+5"]');
  await a.click('#start-pairing');
  await a.waitForSelector('#cancel-pairing');
  assert.equal(await a.textContent('#pairing-status'), 'Waiting for an opponent… Cancel');
  await b.check('input[name="pair-variant"][value="vyrt"]');
  await b.check('input[name="pair-variant"][value="cypher"]');
  await b.check('input[name="pair-clock"][value="10+5"]');
  await b.check('input[name="pair-clock"][value="3+2"]');
  await b.click('#start-pairing');
  await bothInGame(a, b);
  const st = await stateOf(a);
  assert.equal(st.variant, 'vyrt');
  assert.equal(st.clock.initial_ms, 600000);
  await playTurns(a, b, 3);
  for (const p of [a, b]) assert.deepEqual(p.errors, []);
  for (const p of [a, b]) await p.context().close();
});

test('challenges from a profile: one accepted (both go to the game), one declined with a reason the challenger reads', async () => {
  const [a, b] = await two('erin', 'frank');
  await a.goto(server.url + '/@/frank');
  await a.waitForSelector('#challenge-form');
  await a.selectOption('#challenge-variant', 'cypher');
  await a.fill('#challenge-minutes', '3');
  await a.fill('#challenge-increment', '2');
  await a.selectOption('#challenge-color', 'black');
  await a.click('#send-challenge');
  await waitUntil(a, () => document.querySelector('#challenge-status').textContent === 'Challenge sent to frank: waiting for an answer…');
  // frank, on the home page, sees it at once in the header's notices
  await b.waitForSelector('#notice-bar .challenge-in');
  const text = await b.textContent('#notice-bar .challenge-in span');
  assert.match(text, /^erin \(1500\?\) challenges you: .+, 3\+2, casual, you play White\.$/);
  await b.click('#notice-bar .challenge-in .accept-challenge');
  await bothInGame(a, b);
  assert.equal((await stateOf(a)).you, 'black');
  assert.equal((await stateOf(b)).you, 'white');
  assert.equal((await stateOf(a)).variant, 'cypher');
  await playTurns(a, b, 2);

  // the second is declined: too fast
  await a.goto(server.url + '/@/frank');
  await a.waitForSelector('#challenge-form');
  await a.fill('#challenge-minutes', '1');
  await a.fill('#challenge-increment', '0');
  await a.click('#send-challenge');
  await b.goto(server.url + '/my-games');
  await b.waitForSelector('#notice-bar .challenge-in');
  await b.selectOption('#notice-bar .challenge-in .decline-reason', 'too-fast');
  await b.click('#notice-bar .challenge-in .decline-challenge');
  await b.waitForSelector('#notice-bar .challenge-in', { state: 'detached' });
  await waitUntil(a, () => document.querySelector('#challenge-status').textContent === 'frank declined: this time control is too fast for them.');
  await a.waitForSelector('#notice-bar .notice-message');
  assert.equal(await a.textContent('#notice-bar .notice-message'), 'frank declined: this time control is too fast for them.');
  for (const p of [a, b]) assert.deepEqual(p.errors, []);
  for (const p of [a, b]) await p.context().close();
});

test('a game against a bot started from the lobby: the engine level answers at once and plays', async () => {
  const a = await newPage(browser);
  await a.goto(server.url + '/');
  await a.waitForSelector('#bots li[data-level="1"] .challenge-bot');
  assert.equal(await a.textContent('#bots li[data-level="1"] .bot-name'), 'Engine level 1');
  await a.selectOption('#seek-variant', 'chess');
  await a.selectOption('#seek-color', 'white');
  await a.click('#bots li[data-level="1"] .challenge-bot');
  await a.waitForURL(/\/game\//);
  await a.waitForSelector('svg.board [data-square]');
  const st = await stateOf(a);
  assert.equal(st.you, 'white');
  assert.equal(st.players.black, 'engine:1');
  assert.equal(st.clock.initial_ms, 600000);
  await waitUntil(a, () => document.querySelector('#status').textContent.startsWith('Your turn'));
  await playByPointing(a, st.legal.find((t) => t.canonical === 'e2e4'));
  await waitForMoves(a, 2);
  assert.equal(await a.textContent('#player-top .name'), 'Black · Engine level 1');
  assert.deepEqual(a.errors, []);
  await a.context().close();
});

test('correspondence: a turn played reaches the other player on another page, in the notice bar and through the browser\'s notifications, and "my games" lists it first', async () => {
  const a = await newPage(browser);
  const b = await newPage(browser, { permissions: ['notifications'] });
  // Records what the page asks the browser to show (the notification itself is the browser's).
  await b.context().addInitScript(() => {
    window.__notified = [];
    const Native = window.Notification;
    if (!Native) return;
    window.Notification = class extends Native {
      constructor(title, options) {
        window.__notified.push((options && options.body) || title);
        super(title, options);
      }
    };
  });
  await signup(a, 'gwen');
  await signup(b, 'hugo');
  await a.selectOption('#seek-variant', 'chess');
  await a.check('input[name="seek-kind"][value="days"]');
  await a.selectOption('#seek-days', '2');
  await a.selectOption('#seek-color', 'white');
  await a.click('#create-seek');
  await a.waitForSelector('#seeks tr.mine .cancel-seek');
  const id = await a.getAttribute('#seeks tr.mine', 'data-seek');
  await b.click(`#seeks tr[data-seek="${id}"] .accept-seek`);
  const game = await bothInGame(a, b);
  const sa = await stateOf(a);
  assert.equal(sa.you, 'white');
  assert.equal(sa.correspondence.days_per_turn, 2);
  // Black waits on the home page; its lobby socket is open once the counts show.
  await b.goto(server.url + '/');
  await waitUntil(b, () => /online/.test((document.querySelector('#lobby-counts') || {}).textContent || ''));
  assert.equal(await b.locator(`.your-turn-notice[data-game="${game}"]`).count(), 0);
  await waitUntil(a, () => document.querySelector('#status').textContent.startsWith('Your turn'));
  await playByPointing(a, sa.legal.find((t) => t.canonical === 'e2e4'));
  await waitForMoves(a, 1);
  const notice = `.your-turn-notice[data-game="${game}"] a`;
  await b.waitForSelector(notice);
  assert.equal(await b.textContent(notice), 'Your turn against gwen in Orthodox chess');
  assert.equal(await b.getAttribute(notice, 'href'), `/game/${game}`);
  assert.deepEqual(await b.evaluate(() => window.__notified), ['Your turn against gwen in Orthodox chess.']);
  // "My games": the game waiting for this player comes first.
  await b.goto(server.url + '/my-games');
  await b.waitForSelector('#playing tbody tr');
  assert.equal(await b.getAttribute('#playing tbody tr:first-child', 'data-game'), game);
  assert.equal(await b.textContent('#playing tbody tr:first-child [data-col="status"]'), 'Your turn');
  // The notice is still there on a page opened after the turn; it leads to the game.
  await b.waitForSelector(notice);
  await b.click(notice);
  await b.waitForURL(new RegExp(`/game/${game}$`));
  await waitUntil(b, () => document.querySelector('#status').textContent.startsWith('Your turn'));
  for (const p of [a, b]) assert.deepEqual(p.errors, []);
  for (const p of [a, b]) await p.context().close();
});

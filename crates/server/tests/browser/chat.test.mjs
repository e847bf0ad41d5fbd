// The people at the table (issue 32 items 5 and 6), in Chromium against the real `menagerie
// serve`: two players chat in a friend game, a logged-in spectator's room is separate, a
// message holding `<img onerror>` is shown as text, a player mutes the opponent; the presence
// dot goes away when the opponent closes the page and the claim on absence follows (the
// server runs with `--absence-seconds 2`); an abort ends a game without a result for both.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, waitUntil } from './browser.mjs';
import { startServer } from './server.mjs';
import { gameIdOf, stateOf, waitForMoves } from './pages.mjs';

let server;
let browser;

before(async () => {
  server = await startServer({ args: ['--absence-seconds', '2'] });
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

/** A friend game: `a` creates it as White from the home page, `b` takes the invitation. */
async function friendGame(a, b) {
  await a.goto(server.url + '/');
  await a.click('.variant-card[data-variant="chess"]');
  await a.check('input[name="opponent"][value="friend"]');
  await a.check('input[name="color"][value="white"]');
  await a.click('#start');
  await a.waitForURL(/\/game\//);
  await a.waitForSelector('#friend:not([hidden])');
  const invite = await a.inputValue('#friend-link');
  await b.goto(invite);
  await b.waitForURL(/\/game\//);
  await b.waitForSelector('svg.board [data-square]');
  return gameIdOf(a);
}

/** Plays `text` through the move form once it is `page`'s turn. */
async function move(page, text, n) {
  await waitUntil(page, () => document.querySelector('#status').textContent.startsWith('Your turn'));
  await page.fill('#move-input', text);
  await page.press('#move-input', 'Enter');
  await waitForMoves(page, n);
}

/** The chat as the page shows it: `[who, text]` per message. */
function chatOf(page) {
  return page.evaluate(() => [...document.querySelectorAll('#chat-list .chat-message')].map((li) => [li.querySelector('.chat-who').textContent, li.querySelector('.chat-text').textContent]));
}

async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
}

const presenceOf = (page, color) => page.evaluate((c) => {
  const dot = document.querySelector(`[data-presence="${c}"]`);
  return dot ? dot.className : null;
}, color);

test('two players chat, a spectator has a room of its own, markup stays text, and a player mutes the opponent', async () => {
  const a = await newPage(browser);
  const b = await newPage(browser);
  const id = await friendGame(a, b);
  await a.waitForSelector('#chat:not([hidden])');
  await b.waitForSelector('#chat:not([hidden])');
  assert.equal(await a.textContent('#chat-title'), 'Chat with your opponent');
  // a message that would run a script if it were HTML
  const evil = '<img src=x onerror="window.__pwned = 1">hi';
  await say(a, evil);
  await waitUntil(b, () => document.querySelectorAll('#chat-list .chat-message').length === 1);
  assert.deepEqual(await chatOf(b), [['White', evil]]);
  assert.deepEqual(await chatOf(a), [['You', evil]]);
  for (const p of [a, b]) {
    assert.equal(await p.locator('#chat-list img').count(), 0, 'no element made of the text');
    assert.equal(await p.evaluate(() => window.__pwned), undefined);
  }
  await say(b, 'hello White');
  await waitUntil(a, () => document.querySelectorAll('#chat-list .chat-message').length === 2);
  assert.deepEqual(await chatOf(a), [['You', evil], ['Black', 'hello White']]);

  // a spectator with an account: its own room, empty of the players' words
  const c = await newPage(browser);
  await c.goto(server.url + '/login');
  await c.waitForSelector('#signup');
  await c.fill('#signup input[name="name"]', 'Railbird');
  await c.fill('#signup input[name="password"]', 'correct horse battery');
  await c.click('#signup button[type="submit"]');
  await c.waitForSelector('#account-name');
  await c.goto(`${server.url}/game/${id}`);
  await c.waitForSelector('#chat:not([hidden])');
  assert.equal(await c.textContent('#chat-title'), "Spectators' chat");
  assert.equal(await c.locator('#chat-mute-label').isHidden(), true);
  await say(c, 'go Black!');
  await waitUntil(c, () => document.querySelectorAll('#chat-list .chat-message').length === 1);
  assert.deepEqual(await chatOf(c), [['Railbird', 'go Black!']]);
  // the players' next message reaches the players only
  await say(b, 'good luck');
  await waitUntil(a, () => document.querySelectorAll('#chat-list .chat-message').length === 3);
  await new Promise((r) => setTimeout(r, 500));
  assert.deepEqual(await chatOf(c), [['Railbird', 'go Black!']]);
  assert.deepEqual((await chatOf(a)).map((m) => m[1]), [evil, 'hello White', 'good luck']);

  // Black mutes White: White's messages are hidden, Black's own stay; a reload remembers it
  await b.check('#chat-mute');
  assert.deepEqual(await chatOf(b), [['You', 'hello White'], ['You', 'good luck']]);
  assert.equal(await b.locator('#chat-muted-note').isVisible(), true);
  await say(a, 'are you there?');
  await waitUntil(a, () => document.querySelectorAll('#chat-list .chat-message').length === 4);
  await b.reload();
  await b.waitForSelector('#chat:not([hidden])');
  await waitUntil(b, () => document.querySelectorAll('#chat-list .chat-message').length === 2);
  assert.equal(await b.isChecked('#chat-mute'), true);
  assert.deepEqual((await chatOf(b)).map((m) => m[1]), ['hello White', 'good luck']);
  await b.uncheck('#chat-mute');
  assert.deepEqual((await chatOf(b)).map((m) => m[1]), [evil, 'hello White', 'good luck', 'are you there?']);
  // the limit is told in a sentence
  await b.evaluate(() => {
    document.querySelector('#chat-input').removeAttribute('maxlength');
  });
  await say(b, 'x'.repeat(141));
  await waitUntil(b, () => document.querySelector('#chat-error').textContent !== '');
  assert.equal(await b.textContent('#chat-error'), 'a chat message is at most 140 characters; this one has 141');
  for (const p of [a, b, c]) assert.deepEqual(p.errors, []);
  await Promise.all([a, b, c].map((p) => p.context().close()));
});

test('the opponent closing the page turns its dot off; after the absence the player claims the win', async () => {
  const a = await newPage(browser);
  const b = await newPage(browser);
  await friendGame(a, b);
  await waitUntil(a, () => document.querySelector('[data-presence="black"]')?.classList.contains('on'));
  await waitUntil(b, () => document.querySelector('[data-presence="white"]')?.classList.contains('on'));
  assert.equal(await presenceOf(a, 'white'), 'presence on');
  await move(a, 'e4', 1);
  await move(b, 'e5', 2);
  await move(a, 'Nf3', 3);
  assert.equal(await a.locator('#absence').isHidden(), true);
  // Black leaves on its own turn
  await b.context().close();
  await waitUntil(a, () => document.querySelector('[data-presence="black"]')?.classList.contains('off'));
  assert.equal(await a.getAttribute('[data-presence="black"]', 'aria-label'), 'not connected');
  await a.waitForSelector('#absence:not([hidden]) #absence-count');
  assert.match(await a.textContent('#absence-note'), /^Your opponent has left the game\. You may claim victory in [12] s\.$/);
  await a.waitForSelector('#claim-absence-win', { timeout: 5000 });
  assert.equal(await a.textContent('#claim-absence-draw'), 'Call it a draw');
  await a.click('#claim-absence-win');
  await waitUntil(a, () => !document.querySelector('#banner').hidden);
  assert.equal(await a.textContent('#banner-head'), 'White wins (1-0)');
  assert.equal(await a.textContent('#banner-rule'), 'White wins: Black left the game.');
  assert.equal(await a.locator('#absence').isHidden(), true);
  assert.deepEqual(a.errors, []);
  await a.context().close();
});

test('an abort before both have moved: both pages show the game aborted, without a result', async () => {
  const a = await newPage(browser);
  const b = await newPage(browser);
  await friendGame(a, b);
  await a.waitForSelector('#abort:not([hidden])');
  await b.waitForSelector('#abort:not([hidden])');
  await move(a, 'd4', 1);
  await waitForMoves(b, 1);
  // Black has not moved: either may still abort; Black does
  assert.equal(await a.locator('#abort').isVisible(), true);
  await b.click('#abort');
  for (const p of [a, b]) {
    await waitUntil(p, () => !document.querySelector('#banner').hidden);
    assert.equal(await p.textContent('#banner-head'), 'Game aborted');
    assert.equal(await p.textContent('#banner-rule'), 'No result: the game was aborted before both players had moved.');
    assert.equal(await p.locator('#abort').isHidden(), true);
    const st = await stateOf(p);
    assert.equal(st.outcome.result, '*');
  }
  // in a game where both have moved there is no Abort button
  const c = await newPage(browser);
  const d = await newPage(browser);
  await friendGame(c, d);
  await move(c, 'e4', 1);
  await move(d, 'c5', 2);
  await waitForMoves(c, 2);
  await c.waitForSelector('#abort', { state: 'hidden' });
  assert.equal(await d.locator('#abort').isHidden(), true);
  for (const p of [a, b, c, d]) assert.deepEqual(p.errors, []);
});

// The board widget and the game page against fixture games (mock-server.mjs): entering
// every kind of turn by pointing, choosers, the torus view, reasons for illegal attempts,
// the phone layout.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMock } from './mock-server.mjs';
import { listedGames } from './fixtures.mjs';
import { launch, newPage, clickSquare, dragSquare, pieceOn } from './browser.mjs';

let mock;
let browser;

before(async () => {
  mock = await startMock();
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (mock) await mock.close();
});

async function open(path, options) {
  const page = await newPage(browser, options);
  await page.goto(mock.url + path);
  await page.waitForSelector('svg.board [data-square]');
  return page;
}

const lastMove = () => (mock.log.length ? mock.log[mock.log.length - 1].move : null);

test('squares carry the game\'s own names and the edges its coordinates', async () => {
  const page = await open('/game/cypher-start');
  assert.equal(await page.locator('svg.board [data-square]').count(), 110);
  assert.equal(await pieceOn(page, 'd0'), 'white:spy');
  assert.equal(await pieceOn(page, 'e8'), 'black:king');
  const files = await page.locator('svg.board .coord.file').allTextContents();
  assert.deepEqual(files, ['z', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
  const ranks = await page.locator('svg.board .coord.rank').allTextContents();
  assert.deepEqual(ranks, ['10', '9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
  // sectors are shaded
  assert.equal(await page.locator('[data-square="z5"].m-court').count(), 1);
  assert.equal(await page.locator('[data-square="a5"].m-border').count(), 1);
  assert.equal(await page.locator('[data-square="a4"].m-field').count(), 1);
  // flip puts rank 0 on top and file i on the left
  await page.click('#flip');
  assert.equal((await page.locator('svg.board .coord.file').allTextContents())[0], 'i');
  assert.equal((await page.locator('svg.board .coord.rank').allTextContents())[0], '0');
  // a name on every square on request
  await page.check('#square-names');
  assert.equal(await page.locator('svg.board .sqname').count(), 110);
  await page.context().close();
});

test('Cypher: a combined move (the Spy, then the Court-bound piece) entered by pointing', async () => {
  const page = await open('/game/cypher-start');
  await clickSquare(page, 'd0');
  // the Spy's destinations are shown
  assert.equal(await page.locator('[data-square="d4"] .dest').count(), 1);
  await clickSquare(page, 'd4');
  // preview: the Spy stands on d4; the Spy move alone is offered; the pieces that may enter Court are marked
  assert.equal(await pieceOn(page, 'd4'), 'white:spy');
  assert.equal(await pieceOn(page, 'd0'), null);
  await page.waitForSelector('.board-actions .turn-option[data-canonical="d0-d4"]');
  assert.equal(await page.locator('[data-square="b1"] .dest').count(), 1);
  assert.equal(await page.locator('[data-square="g1"] .dest').count(), 1);
  await clickSquare(page, 'b1');
  assert.equal(await page.locator('[data-square="b0"] .dest').count(), 1);
  await clickSquare(page, 'b0');
  await page.waitForFunction(() => document.querySelector('#moves').textContent.includes('Sd4/Rb0'));
  assert.equal(lastMove(), 'd0-d4/b1-b0');
  await page.context().close();
});

test('Cypher: the Spy move alone from the action bar; a release by pointing at a Border square', async () => {
  const page = await open('/game/cypher-start');
  await clickSquare(page, 'd0');
  await clickSquare(page, 'd4');
  await page.click('.board-actions .turn-option[data-canonical="d0-d4"]');
  await page.waitForFunction(() => document.querySelector('#moves').textContent.includes('Sd4'));
  assert.equal(lastMove(), 'd0-d4');
  await page.reload();
  await page.waitForSelector('svg.board [data-square]');
  await clickSquare(page, 'b5');
  await page.waitForSelector('.chooser .choice[data-canonical="P@b5"]');
  await page.click('.chooser .choice[data-canonical="P@b5"]');
  await page.waitForFunction(() => document.querySelector('#moves').textContent.includes('PRb5'));
  assert.equal(lastMove(), 'P@b5');
  await page.context().close();
});

test('an illegal attempt shows the server\'s one-sentence reason', async () => {
  const page = await open('/game/cypher-start');
  await clickSquare(page, 'c2');
  await clickSquare(page, 'c8');
  await page.waitForFunction(() => document.querySelector('#reason').textContent.length > 0);
  assert.equal(lastMove(), 'c2-c8');
  assert.match(await page.textContent('#reason'), /cannot capture a Field major piece/);
  await page.context().close();
});

test('promotion chooser lists the choices in human text with pictures', async () => {
  const page = await open('/game/chess-promo');
  await clickSquare(page, 'a7');
  await clickSquare(page, 'a8');
  await page.waitForSelector('.chooser');
  const choices = (await page.locator('.chooser .choice').allTextContents()).map((s) => s.trim());
  assert.deepEqual(choices, ['a8=Q', 'a8=R', 'a8=B', 'a8=N']);
  assert.equal(await page.locator('.chooser .choice svg .piece[data-kind="knight"]').count(), 1);
  await page.click('.chooser .choice[data-canonical="a7a8n"]');
  await page.waitForFunction(() => document.querySelector('#moves').textContent.includes('a8=N'));
  assert.equal(lastMove(), 'a7a8n');
  await page.context().close();
});

test('a piece may be dragged to its destination', async () => {
  const page = await open('/game/chess-promo');
  await dragSquare(page, 'e1', 'd1');
  await page.waitForFunction(() => document.querySelector('#moves').textContent.includes('Kd1'));
  assert.equal(lastMove(), 'e1d1');
  await page.context().close();
});

test('Vyrt: recentring the torus keeps every piece on its square; a rook crosses the seam by pointing', async () => {
  const page = await open('/game/vyrt-seam');
  const files = async () => page.locator('svg.board .coord.file').allTextContents();
  assert.deepEqual(await files(), ['K', 'L', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J']);
  assert.deepEqual((await page.locator('svg.board .coord.rank').allTextContents()).reverse(), ['11', '12', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  assert.ok((await page.locator('svg.board [data-ghost]').count()) > 0, 'ghost rows and columns show the wrap');
  const before = await page.locator('[data-square="K5"]').boundingBox();
  // arrow keys
  await page.focus('svg.board');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual((await files()).slice(0, 3), ['I', 'J', 'K']);
  assert.equal(await pieceOn(page, 'K5'), 'white:rook');
  assert.equal(await pieceOn(page, 'E1'), 'white:king');
  assert.equal(await pieceOn(page, 'E8'), 'black:king');
  const moved = await page.locator('[data-square="K5"]').boundingBox();
  assert.ok(moved.x > before.x + 20, 'the view moved');
  await page.keyboard.press('ArrowUp');
  assert.equal(await pieceOn(page, 'K5'), 'white:rook');
  // dragging an empty square pans too
  const a = await page.locator('[data-square="C3"]').boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 - a.width * 3, a.y + a.height / 2, { steps: 6 });
  await page.mouse.up();
  assert.deepEqual((await files()).slice(0, 2), ['L', 'A']);
  assert.equal(await pieceOn(page, 'K5'), 'white:rook');
  assert.equal(await pieceOn(page, 'E1'), 'white:king');
  // the standard view again
  await page.click('#reset-view');
  assert.deepEqual(await files(), ['K', 'L', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J']);
  // recentre so that the seam between J and K is in the middle, then move the rook across it
  await page.focus('svg.board');
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowLeft');
  await clickSquare(page, 'K5');
  assert.equal(await page.locator('[data-square="J5"] .dest').count(), 1);
  await clickSquare(page, 'J5');
  await page.waitForFunction(() => document.querySelector('#moves').textContent.includes('K5-J5'));
  assert.equal(lastMove(), 'K5-J5');
  await page.context().close();
});

test('Little Cheops Imperial: an appointment and an arrest with its room entered by pointing', async () => {
  const page = await open('/game/imperial-appoint');
  await clickSquare(page, 'd4');
  // the Civilian's steps are shown, and the appointment is offered
  assert.equal(await page.locator('[data-square="d5"] .dest').count(), 1);
  await page.waitForSelector('.board-actions .turn-option[data-canonical="appoint:d4"]');
  await page.click('.board-actions .turn-option[data-canonical="appoint:d4"]');
  await page.waitForFunction(() => document.querySelector('#moves').textContent.includes('appoints'));
  assert.equal(lastMove(), 'appoint:d4');
  await page.reload();
  await page.waitForSelector('svg.board [data-square]');
  await clickSquare(page, 'j4');
  await clickSquare(page, 'j6');
  // the hop alone is offered; the rooms are marked
  await page.waitForSelector('.board-actions .turn-option[data-canonical="j4:j6"]');
  assert.equal(await page.locator('[data-square="c10"] .dest').count(), 1);
  assert.equal(await page.locator('[data-square="d11"] .dest').count(), 1);
  await clickSquare(page, 'c10');
  await page.waitForFunction(() => document.querySelector('#moves').textContent.includes('P(c10)'));
  assert.equal(lastMove(), 'j4:j6@c10');
  // a turn with no square (the repetition claim) is a button
  assert.equal(await page.locator('.board-actions .turn-option[data-canonical="draw"]').count(), 0, 'after a turn nothing is left to play');
  await page.context().close();
});

test('the move box takes canonical or human text', async () => {
  const page = await open('/game/chess-promo');
  await page.fill('#move-input', 'Ke2');
  await page.press('#move-input', 'Enter');
  await page.waitForFunction(() => document.querySelector('#moves').textContent.includes('Ke2'));
  assert.equal(lastMove(), 'Ke2');
  await page.context().close();
});

test('a 360-pixel phone: no horizontal scrolling on any page', async () => {
  for (const path of ['/', '/game/imperial-appoint', '/game/vyrt-seam', '/game/cypher-start', '/analysis', '/games', '/rules/cypher', '/login', '/account', '/my-games', '/@/alice']) {
    const page = await newPage(browser, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await page.goto(mock.url + path);
    await page.waitForTimeout(300);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 360, `${path} is ${width} pixels wide`);
    await page.context().close();
  }
});

test('touch: tapping enters a move, with confirmation when asked for', async () => {
  const page = await open('/game/chess-promo', { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  await page.check('#confirm-moves');
  const n = mock.log.length;
  await page.locator('[data-square="e1"]').tap();
  await page.locator('[data-square="e2"]').tap();
  await page.waitForSelector('#confirm-bar:not([hidden])');
  assert.equal((await page.textContent('#confirm-bar span')).trim(), 'Play Ke2?');
  assert.equal(mock.log.length, n, 'nothing is sent before the confirmation');
  await page.locator('#confirm-yes').tap();
  await page.waitForFunction(() => document.querySelector('#moves').textContent.includes('Ke2'));
  assert.equal(lastMove(), 'e1e2');
  await page.evaluate(() => localStorage.removeItem('menagerie:confirm'));
  await page.context().close();
});

test('keyboard: arrows move a cursor on the board, Enter points', async () => {
  const page = await open('/game/chess-promo');
  await page.focus('svg.board');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.locator('[data-square="e1"] .hl-cursor').count(), 1);
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#moves').textContent.includes('Ke2'));
  assert.equal(lastMove(), 'e1e2');
  await page.context().close();
});

test('clocks: the running side counts down, the other stands; a fallen flag is shown', async () => {
  const page = await open('/game/chess-clock');
  const text = (c) => page.textContent(`[data-clock="${c}"]`);
  assert.equal(await text('white'), '5:00');
  assert.match(await text('black'), /^(1:0[01]|0:59)$/);
  assert.equal(await page.locator('[data-clock="black"].running').count(), 1);
  assert.equal(await page.locator('[data-clock="white"].running').count(), 0);
  await page.waitForFunction(() => document.querySelector('[data-clock="black"]').textContent === '0:58');
  assert.equal(await text('white'), '5:00');
  await page.goto(mock.url + '/game/chess-flag');
  await page.waitForSelector('#banner:not([hidden])');
  assert.equal(await page.textContent('#banner-head'), 'Black wins on time (0-1)');
  assert.equal(await page.textContent('#banner-rule'), "White's flag fell: time forfeit.");
  assert.equal(await page.textContent('[data-clock="white"]'), '⚑ 0:00.0');
  assert.equal(await page.textContent('[data-clock="black"]'), '0:09.5');
  assert.equal(await page.locator('.clock.running').count(), 0);
  await page.context().close();
});

test('the lists (issue 29): start times in the reader\'s zone, names, turns, results; the header names the account', async () => {
  const zone = 'Pacific/Auckland';
  const local = (ms) => new Date(ms).toLocaleString('en-GB', { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' });
  const [running, mate, anon] = listedGames();
  const page = await newPage(browser, { timezoneId: zone, locale: 'en-GB' });
  await page.goto(mock.url + '/games');
  await page.waitForSelector('table.games');
  assert.equal(await page.textContent('#account-name'), 'alice');
  assert.equal(await page.getAttribute('#account-name', 'href'), '/@/alice');
  const cells = (id) => page.$$eval(`tr[data-game="${id}"] td`, (tds) => tds.map((t) => t.textContent));
  assert.deepEqual(await cells('g-mate'), [local(mate.created_at), 'Chess', 'alice', 'a-name-of-twenty-ch', '7', '1-0 · White wins by checkmate.']);
  assert.equal(local(mate.created_at), '28 Nov 2026, 12:30', 'the moment in Auckland, not in UTC');
  assert.deepEqual(await cells('g-anon'), [local(anon.created_at), 'Chess', 'Anonymous', 'Anonymous', '30', '1/2-1/2 · Drawn by agreement.']);
  assert.deepEqual(await cells('g-running'), [local(running.created_at), 'Little Cheops Imperial', 'alice', 'Engine level 3', '12', 'playing']);
  assert.equal(await page.getAttribute('tr[data-game="g-mate"] [data-seat="black"] a', 'href'), '/@/a-name-of-twenty-ch');
  assert.equal(await page.getAttribute('tr[data-game="g-mate"] time', 'datetime'), '2026-11-27T23:30:00.000Z');

  await page.goto(mock.url + '/my-games');
  await page.waitForSelector('#playing');
  assert.deepEqual(await page.$$eval('#playing tbody tr', (rs) => rs.map((r) => r.dataset.game)), ['g-running']);
  assert.equal(await page.textContent('#playing tr[data-game="g-running"] [data-col="status"]'), 'Your turn');
  assert.equal(await page.textContent('#playing tr[data-game="g-running"] [data-col="opponent"]'), 'Engine level 3');
  assert.deepEqual(await page.$$eval('#finished tbody tr', (rs) => rs.map((r) => r.dataset.game)), ['g-mate', 'g-anon']);
  assert.equal(await page.textContent('#finished tr[data-game="g-anon"] [data-col="status"]'), '1/2-1/2 · Drawn by agreement.');

  await page.goto(mock.url + '/@/alice');
  await page.waitForSelector('#counts');
  assert.deepEqual(await page.$$eval('#counts tr[data-variant="chess"] td', (tds) => tds.map((t) => t.textContent)), ['Chess', '2', '1', '1', '0']);
  assert.equal(await page.textContent('#games-total'), '(43)');
  assert.equal(await page.textContent('#page-of'), 'Page 1 of 3');
  assert.equal(await page.getAttribute('#page-next', 'href'), '/@/alice?page=2');
  assert.equal(await page.getAttribute('#pgn-link', 'href'), '/api/users/alice/games.pgn');
  assert.equal(await page.textContent('#member-since'), `Playing here since ${local(anon.created_at)}.`);
  await page.goto(mock.url + '/@/nobody');
  await page.waitForSelector('#profile-error');
  assert.equal(await page.textContent('#profile-error'), 'there is no player with this name');
  // the mock has no lobby websocket (the header's notices)
  assert.deepEqual(page.errors.filter((e) => !/^WebSocket connection to .* 404$/.test(e)), []);
  await page.context().close();
});

test('the game page (issue 29): the players\' names, the umpire\'s note, the invitation until taken, a used invitation\'s sentence', async () => {
  const page = await newPage(browser);
  await page.goto(mock.url + '/');
  await page.evaluate(() => localStorage.setItem('menagerie:game:people', JSON.stringify({ mode: 'friend', me: 'white', tokens: {}, friend: 'http://x/join/abc' })));
  await page.goto(mock.url + '/game/people');
  await page.waitForSelector('#umpire-note');
  assert.equal(await page.textContent('#player-bottom .name'), 'White · alice (you)');
  assert.equal(await page.textContent('#player-top .name'), 'Black · Opponent');
  assert.equal(await page.textContent('#umpire-note'), "An umpire holds the key to this game: the umpire sees both sides' secrets.");
  assert.equal(await page.locator('#friend').isHidden(), false, 'the invitation is shown while the seat is free');
  assert.equal(await page.inputValue('#friend-link'), 'http://x/join/abc');
  assert.equal(await page.locator('#invite-taken').count(), 0);
  await page.goto(mock.url + '/game/people-watch?invite=taken');
  await page.waitForSelector('#invite-taken');
  assert.equal(await page.textContent('#invite-taken'), 'This invitation has already been used: the seat is taken; you are watching.');
  assert.equal(await page.locator('#umpire-note').count(), 0, 'a spectator is not told about the key');
  assert.equal(await page.textContent('#player-bottom .name'), 'White · alice');
  // the mock has no websocket (the page retries); anything else is an error
  assert.deepEqual(page.errors.filter((e) => !/^WebSocket connection to .* 404$/.test(e)), []);
  await page.context().close();
});

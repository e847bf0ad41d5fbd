// The pages against the real `menagerie serve` (issue 11's browser tests): a game against the
// engine in each variant by clicking, a friend game in two browsers, Vyrt's torus, Cypher's
// combined move and an illegal capture's reason, a Little Cheops Imperial appointment that
// leaves no trace on the opponent's page, the phone layout, and the README's screenshots.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, newPage, clickSquare, dragSquare, pieceOn, waitUntil } from './browser.mjs';
import fsp from 'node:fs';
import { startServer, call, pointsOf, ROOT } from './server.mjs';

let server;
let browser;
const SHOTS = path.join(ROOT, 'docs/screenshots');

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

const gameIdOf = (page) => decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);

/** The game as this page's seat sees it (the seat cookie goes with the request). */
function stateOf(page) {
  return page.evaluate(async (id) => (await fetch(`/api/games/${encodeURIComponent(id)}`)).json(), gameIdOf(page));
}

/** Enters a legal turn by pointing at its squares, then picks it from a chooser if one asks. */
async function playByPointing(page, turn) {
  for (const sq of pointsOf(turn)) await clickSquare(page, sq);
  const sel = `.chooser .choice[data-canonical="${turn.canonical}"], .board-actions .turn-option[data-canonical="${turn.canonical}"]`;
  if (await page.locator(sel).count()) await page.locator(sel).first().click();
}

async function waitForMoves(page, n, timeout = 60000) {
  await waitUntil(page, (k) => document.querySelectorAll('#moves .mv').length >= k || !document.querySelector('#banner').hidden, n, { timeout });
}

/** Every square of the page's board shows what the server's snapshot says. */
async function assertBoardMatches(page, state) {
  const dom = await page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('svg.board [data-square]')].map((g) => {
        const p = g.querySelector('.piece');
        return [g.dataset.square, p ? `${p.dataset.owner}:${p.dataset.kind}` : null];
      }),
    ),
  );
  assert.equal(Object.keys(dom).length, state.board.squares.length);
  for (const sq of state.board.squares) {
    assert.equal(dom[sq.name], sq.piece ? `${sq.piece.owner}:${sq.piece.kind}` : null, `square ${sq.name}`);
  }
}

async function openSeat(url, options) {
  const page = await newPage(browser, options);
  await page.goto(server.url + url);
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('svg.board [data-square]');
  return page;
}

async function noHorizontalScroll(page) {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.waitForTimeout(200);
  const w = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(w <= 360, `the page is ${w} pixels wide at 360`);
}

const VARIANTS = ['chess', 'vyrt', 'cypher', 'little-cheops', 'little-cheops-imperial'];

for (const variant of VARIANTS) {
  test(`${variant}: a game against the engine, turns entered by clicking`, async () => {
    const page = await newPage(browser);
    await page.goto(server.url + '/');
    await page.click(`.variant-card[data-variant="${variant}"]`);
    await page.selectOption('#level', '1');
    await page.click('#start');
    await page.waitForURL(/\/game\//);
    await page.waitForSelector('svg.board [data-square]');
    for (let i = 0; i < 3; i++) {
      await waitUntil(page, () => /^Your turn|^The game is over/.test(document.querySelector('#status').textContent), null, { timeout: 60000 });
      const st = await stateOf(page);
      if (st.outcome) break;
      await assertBoardMatches(page, st);
      const simple = st.legal.filter((t) => pointsOf(t).length === 2 && t.parts.length === 1);
      assert.ok(simple.length > 0, 'there is a plain move to play');
      const turn = simple[(i * 7 + 3) % simple.length];
      await playByPointing(page, turn);
      await waitForMoves(page, st.moves.length + 2);
      const after = await stateOf(page);
      assert.equal(after.moves[st.moves.length].canonical, turn.canonical, 'the turn pointed at was played');
    }
    await waitUntil(page, () => /^Your turn|^The game is over/.test(document.querySelector('#status').textContent), null, { timeout: 60000 });
    await assertBoardMatches(page, await stateOf(page));
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `${variant}.png`) });
    await noHorizontalScroll(page);
    assert.deepEqual(page.errors, [], 'no console errors');
    await page.context().close();
  });
}

test('a friend game in two browsers: each sees the other\'s turns live; Black cannot move White\'s pieces', async () => {
  const a = await newPage(browser);
  await a.goto(server.url + '/');
  await a.click('.variant-card[data-variant="chess"]');
  await a.check('input[name="opponent"][value="friend"]');
  await a.check('input[name="color"][value="white"]');
  await a.click('#start');
  await a.waitForURL(/\/game\//);
  await a.waitForSelector('#friend:not([hidden])');
  const link = await a.inputValue('#friend-link');
  assert.match(link, /\/join\//);
  const b = await newPage(browser);
  const sockets = [];
  b.on('websocket', (ws) => sockets.push(ws));
  await b.goto(link);
  await b.waitForURL(/\/game\//);
  await b.waitForSelector('svg.board [data-square]');
  assert.equal(gameIdOf(a), gameIdOf(b));
  assert.equal(await b.getAttribute('svg.board', 'data-orientation'), 'black');
  await waitUntil(b, () => /^Waiting/.test(document.querySelector('#status').textContent));
  await b.waitForTimeout(300);
  // White plays e4 by pointing; Black sees it without reloading
  const st = await stateOf(a);
  await playByPointing(a, st.legal.find((t) => t.canonical === 'e2e4'));
  await waitUntil(b, () => document.querySelector('#moves').textContent.includes('e4'), null, { timeout: 10000 });
  assert.equal(await pieceOn(b, 'e4'), 'white:pawn');
  // Black tries to move White's pawn: by dragging, by clicking, and through the API with its cookie
  await dragSquare(b, 'd2', 'd4');
  await clickSquare(b, 'd2');
  await clickSquare(b, 'd4');
  const forced = await b.evaluate(async (id) => {
    const r = await fetch(`/api/games/${id}/move`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ move: 'd2d4' }) });
    return r.status;
  }, gameIdOf(b));
  assert.ok(forced === 400 || forced === 403 || forced === 409, `moving White's pawn for Black is refused (${forced})`);
  const mid = await stateOf(a);
  assert.equal(mid.moves.length, 1, 'nothing was played for White');
  assert.equal(await pieceOn(b, 'd2'), 'white:pawn');
  // Black plays e5; White sees it
  const stb = await stateOf(b);
  await playByPointing(b, stb.legal.find((t) => t.canonical === 'e7e5'));
  await waitUntil(a, () => document.querySelector('#moves').textContent.includes('e5'), null, { timeout: 10000 });
  assert.equal(await pieceOn(a, 'e5'), 'black:pawn');
  assert.ok(sockets.length >= 1, 'the page listens on a websocket');
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await a.context().close();
  await b.context().close();
});

test('Vyrt: recentring keeps the pieces on their squares; a rook crosses the seam by pointing', async () => {
  // (King and Rook against King is a dead position on the torus, so each side has more)
  const fen = '12/12/2r3k5/12/12/R11/12/12/12/5QK5/12/12 w - - - 0 1';
  const g = await call(server.url, 'POST', '/api/games', { variant: 'vyrt', fen, white: 'human', black: 'human' });
  assert.equal(g.status, 201, JSON.stringify(g.data));
  const page = await openSeat(g.data.seats.white.url);
  const st = await stateOf(page);
  await assertBoardMatches(page, st);
  await page.focus('svg.board');
  for (const key of ['ArrowLeft', 'ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowLeft', 'ArrowLeft']) {
    await page.keyboard.press(key);
    await assertBoardMatches(page, st);
  }
  const files = await page.locator('svg.board .coord.file').allTextContents();
  assert.deepEqual(files.slice(0, 3), ['H', 'I', 'J'], 'the view turned round the torus');
  // the seam between J and K now runs through the middle of the view
  await clickSquare(page, 'K5');
  assert.equal(await page.locator('[data-square="J5"] .dest').count(), 1);
  await clickSquare(page, 'J5');
  await waitUntil(page, () => document.querySelectorAll('#moves .mv').length >= 1);
  const after = await stateOf(page);
  assert.equal(after.moves[0].canonical.toUpperCase(), 'K5-J5');
  assert.equal(await pieceOn(page, 'J5'), 'white:rook');
  await page.click('#reset-view');
  assert.deepEqual((await page.locator('svg.board .coord.file').allTextContents()).slice(0, 2), ['K', 'L']);
  await assertBoardMatches(page, after);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// White's Spy may leave Court to d4 and let the b1 Rook into Court; a black Knight stands in the Field on e4.
const CYPHER = '4s5/2r3nr2/3bqkb3/1pppppppp1/10/10/5n4/1PPP1PPPP1/3B1KB3/2RN2NR2/4S5 w - Ii 0+0 0/0 0 1';

test('Cypher: a combined move entered by pointing (the Spy, then the piece that enters Court)', async () => {
  const g = await call(server.url, 'POST', '/api/games', { variant: 'cypher', fen: CYPHER, white: 'human', black: 'human' });
  assert.equal(g.status, 201, JSON.stringify(g.data));
  const page = await openSeat(g.data.seats.white.url);
  const st = await stateOf(page);
  const combined = st.legal.find((t) => t.canonical === 'd0-d4/b1-b0');
  assert.ok(combined, 'd0-d4/b1-b0 is legal');
  assert.equal(combined.kind, 'combined-move');
  assert.deepEqual(pointsOf(combined), ['d0', 'd4', 'b1', 'b0'], 'the turn has two parts: the Spy, then the Rook');
  await clickSquare(page, 'd0');
  await clickSquare(page, 'd4');
  await page.waitForSelector('.board-actions .turn-option[data-canonical="d0-d4"]');
  assert.equal(await pieceOn(page, 'd4'), 'white:spy');
  await clickSquare(page, 'b1');
  await clickSquare(page, 'b0');
  await waitUntil(page, () => document.querySelectorAll('#moves .mv').length >= 1);
  const after = await stateOf(page);
  assert.equal(after.moves[0].canonical, 'd0-d4/b1-b0');
  await assertBoardMatches(page, after);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Cypher: an illegal capture in the Field shows the rule\'s reason', async () => {
  const g = await call(server.url, 'POST', '/api/games', { variant: 'cypher', fen: CYPHER, white: 'human', black: 'human' });
  assert.equal(g.status, 201, JSON.stringify(g.data));
  const page = await openSeat(g.data.seats.white.url);
  // the Field Bishop on c2 may not take the Field Knight on e4
  const direct = await call(server.url, 'POST', `/api/games/${g.data.id}/move`, { move: 'c2-e4' }, g.data.seats.white.token);
  assert.equal(direct.status, 400);
  await clickSquare(page, 'c2');
  await clickSquare(page, 'e4');
  await waitUntil(page, () => document.querySelector('#reason').textContent.trim().length > 0);
  assert.equal((await page.textContent('#reason')).trim(), direct.data.error);
  const st = await stateOf(page);
  assert.equal(st.moves.length, 0);
  assert.equal(await pieceOn(page, 'e4'), 'black:knight');
  await page.context().close();
});

// Rulebook T15a: White's King sits on the chair of a Castle built from Black pieces; either Civilian may be appointed.
const IMPERIAL = 'k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 w d10:w@d10 - 0 1 -';

async function appointmentSeenByBlack(square) {
  const g = await call(server.url, 'POST', '/api/games', { variant: 'little-cheops-imperial', fen: IMPERIAL, white: 'human', black: 'human' });
  assert.equal(g.status, 201, JSON.stringify(g.data));
  const id = g.data.id;
  const traffic = [];
  // recording stops before the pages close: White's page leaving sends Black a presence frame
  // whose arrival before or after Black's own close is a race, not a secret
  let recording = true;
  const b = await newPage(browser);
  b.on('response', async (r) => {
    if (!recording || !r.url().includes('/api/')) return;
    try {
      traffic.push(`${new URL(r.url()).pathname} ${await r.text()}`);
    } catch {
      /* a body that cannot be read (a redirect) */
    }
  });
  // the game's socket only: the lobby's (every page's notices) counts people online, which differ
  b.on('websocket', (ws) => { if (ws.url().includes('/api/games/')) ws.on('framereceived', (f) => { if (recording) traffic.push(`ws ${f.payload}`); }); });
  await b.goto(server.url + g.data.seats.black.url);
  await b.waitForURL(/\/game\//);
  await b.waitForSelector('svg.board [data-square]');
  await b.waitForTimeout(500);
  const a = await openSeat(g.data.seats.white.url);
  await clickSquare(a, square);
  await a.waitForSelector(`.board-actions .turn-option[data-canonical="appoint:${square}"]`);
  await a.click(`.board-actions .turn-option[data-canonical="appoint:${square}"]`);
  await waitUntil(a, () => document.querySelectorAll('#moves .mv').length >= 1);
  // White alone sees the sealed Deputy
  assert.equal(await a.locator(`[data-square="${square}"].m-deputy-sealed`).count(), 1, 'White sees its sealed Deputy');
  await waitUntil(b, () => document.querySelectorAll('#moves .mv').length >= 1, null, { timeout: 10000 });
  await b.waitForTimeout(500);
  const dom = await b.evaluate(() => document.getElementById('app').innerHTML);
  const errors = [...a.errors, ...b.errors];
  recording = false;
  await b.context().close();
  await a.context().close();
  const norm = (s) => s.split(id).join('GAME');
  return { dom: norm(dom), traffic: traffic.map(norm).sort(), errors };
}

test('Little Cheops Imperial: an appointment by pointing leaves no trace of the Civilian on the opponent\'s page', async () => {
  const g5 = await appointmentSeenByBlack('g5');
  const h5 = await appointmentSeenByBlack('h5');
  assert.ok(!g5.dom.includes('deputy-sealed') && !h5.dom.includes('deputy-sealed'));
  assert.ok(!g5.traffic.join('\n').includes('appoint:g5'));
  assert.equal(g5.dom, h5.dom, "Black's page is the same whichever Civilian was appointed");
  assert.deepEqual(g5.traffic, h5.traffic, 'Black received the same bytes whichever Civilian was appointed');
  assert.ok(g5.traffic.length >= 2);
  assert.deepEqual([...g5.errors, ...h5.errors], []);
});

test('pages: home, recent games, analysis with engine lines, rules', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '/games');
  await page.waitForSelector('table.games a[href^="/game/"]');
  await page.goto(server.url + '/analysis?variant=chess');
  await page.waitForSelector('svg.board [data-square]');
  await clickSquare(page, 'e2');
  await clickSquare(page, 'e4');
  await waitUntil(page, () => document.querySelector('#fen').value.includes(' b '));
  await page.fill('#depth', '3');
  await page.click('#go');
  await page.waitForSelector('#lines .line[data-depth]', { timeout: 30000 });
  await page.waitForSelector('#lines .line.best', { timeout: 30000 });
  await noHorizontalScroll(page);
  await page.setViewportSize({ width: 1200, height: 900 });
  await page.goto(server.url + '/rules/cypher');
  await page.waitForSelector('article.rules h1, article.rules h2');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a spectator watches without moving; pages reconnect after the server restarts and catch up by version', async () => {
  const own = await startServer({ keep: true, proxy: false });
  const port = Number(new URL(own.url).port);
  const g = await call(own.url, 'POST', '/api/games', { variant: 'chess', white: 'human', black: 'human' });
  assert.equal(g.status, 201);
  const open = async (url) => {
    const p = await newPage(browser);
    await p.goto(own.url + url);
    await p.waitForSelector('svg.board [data-square]');
    return p;
  };
  const a = await open(g.data.seats.white.url);
  const b = await open(g.data.seats.black.url);
  const watcher = await open(`/game/${g.data.id}`);
  await waitUntil(watcher, () => /^You are watching/.test(document.querySelector('#status').textContent));
  assert.equal(await watcher.locator('#move-form').isHidden(), true);
  await clickSquare(watcher, 'e2');
  assert.equal(await watcher.locator('[data-square="e4"] .dest').count(), 0, 'a spectator gets no destinations');
  // the server goes away and comes back on the same port with the same database
  await own.stop();
  await waitUntil(b, () => document.body.classList.contains('offline'), null, { timeout: 10000 });
  const again = await startServer({ port, data: own.data, proxy: false });
  try {
    await waitUntil(a, () => !document.body.classList.contains('offline'), null, { timeout: 40000 });
    await waitUntil(b, () => !document.body.classList.contains('offline'), null, { timeout: 40000 });
    await waitUntil(watcher, () => !document.body.classList.contains('offline'), null, { timeout: 40000 });
    const st = await stateOf(a);
    await playByPointing(a, st.legal.find((t) => t.canonical === 'd2d4'));
    await waitUntil(b, () => document.querySelector('#moves').textContent.includes('d4'), null, { timeout: 10000 });
    await waitUntil(watcher, () => document.querySelector('#moves').textContent.includes('d4'), null, { timeout: 10000 });
    assert.equal(await pieceOn(watcher, 'd4'), 'white:pawn');
  } finally {
    for (const p of [a, b, watcher]) await p.context().close();
    await again.stop();
    fsp.rmSync(own.data, { recursive: true, force: true });
  }
});

test('takeback, draw offer and the record between two players', async () => {
  const g = await call(server.url, 'POST', '/api/games', { variant: 'chess', white: 'human', black: 'human' });
  assert.equal(g.status, 201);
  const a = await openSeat(g.data.seats.white.url);
  const b = await openSeat(g.data.seats.black.url);
  await playByPointing(a, (await stateOf(a)).legal.find((t) => t.canonical === 'e2e4'));
  await waitUntil(b, () => document.querySelector('#moves').textContent.includes('e4'));
  // White asks to take e4 back; Black agrees
  await a.click('#takeback');
  await b.waitForSelector('#accept-takeback');
  await b.click('#accept-takeback');
  await waitUntil(a, () => document.querySelectorAll('#moves .mv').length === 0);
  assert.equal(await pieceOn(a, 'e2'), 'white:pawn');
  // a draw offered and declined, then offered and accepted
  await a.click('#offer-draw');
  await b.waitForSelector('#decline-draw');
  await b.click('#decline-draw');
  await waitUntil(b, () => !document.querySelector('#decline-draw'));
  await b.click('#offer-draw');
  await a.waitForSelector('#accept-draw');
  await a.click('#accept-draw');
  await waitUntil(b, () => !document.querySelector('#banner').hidden);
  for (const p of [a, b]) {
    await waitUntil(p, () => !document.querySelector('#banner').hidden);
    assert.equal(await p.textContent('#banner-head'), 'Draw (1/2-1/2)');
    assert.equal(await p.textContent('#banner-rule'), 'Draw by agreement.');
  }
  // the record downloads
  const [download] = await Promise.all([a.waitForEvent('download'), a.click('#record-link')]);
  assert.ok(download.suggestedFilename().startsWith('menagerie-'));
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context().close();
  await b.context().close();
});

test('two players at one screen: both sides move on the same page', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '/');
  await page.click('.variant-card[data-variant="little-cheops"]');
  await page.check('input[name="opponent"][value="local"]');
  await page.click('#start');
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('svg.board [data-square]');
  await waitUntil(page, () => /^White to move/.test(document.querySelector('#status').textContent));
  await clickSquare(page, 'e2');
  await clickSquare(page, 'e3');
  await waitUntil(page, () => /^Black to move/.test(document.querySelector('#status').textContent));
  await clickSquare(page, 'e8');
  await clickSquare(page, 'e7');
  await waitUntil(page, () => document.querySelectorAll('#moves .mv').length === 2);
  // (a one-letter kind is the board letter: the server's snapshot before Contract 1's names)
  assert.match(await pieceOn(page, 'e3'), /^white:(pawn|p)$/);
  assert.match(await pieceOn(page, 'e7'), /^black:(pawn|p)$/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

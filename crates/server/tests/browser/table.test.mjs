// The table's feel (issue 31) against the real `menagerie serve`: the guides' links, the
// pieces' names and legend, the off-board state and material, sounds, notices, premoves,
// keyboard play and contrast.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, clickSquare, waitUntil } from './browser.mjs';
import { startServer, call } from './server.mjs';
import { stateOf, openGame, waitForMoves } from './pages.mjs';

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

const create = async (body) => {
  const g = await call(server.url, 'POST', '/api/games', body);
  assert.equal(g.status, 201, JSON.stringify(g.data));
  return g.data;
};
const open = (url, options) => openGame(browser, server.url, url, options);

// Records every sound the page plays (the file's name), before any script of the page runs.
async function recordSounds(page) {
  await page.addInitScript(() => {
    window.__sounds = [];
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function () {
      window.__sounds.push(String(this.src).split('/').pop());
      return play.call(this).catch(() => {});
    };
  });
}

test('rules: the Imperial guide\'s contents lead to the sections of the Little Cheops guide', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '/rules/little-cheops-imperial');
  await page.waitForSelector('article.rules h1');
  const hrefs = await page.$$eval('article.rules a', (as) => as.map((a) => a.getAttribute('href')));
  assert.equal(hrefs.length, 23);
  assert.ok(!hrefs.includes('#'), 'no dead link');
  // the first link is the Little Cheops guide itself, then the contents, section 1 first
  assert.equal(hrefs[0], '/rules/little-cheops');
  assert.equal(hrefs[16], '/rules/little-cheops#16-deputies-and-sealed-papers-appointment-imperial');
  await page.click('article.rules a >> nth=16');
  await page.waitForURL(/\/rules\/little-cheops#16-/);
  const target = page.locator('[id="16-deputies-and-sealed-papers-appointment-imperial"]');
  assert.equal(await target.textContent(), '16. Deputies and sealed papers: appointment (Imperial)');
  assert.ok(await target.isVisible());
  const box = await target.boundingBox();
  assert.ok(box.y >= -2 && box.y < 900, `the section is in view (y ${box.y})`);
  assert.equal(await page.title(), 'Little Cheops (Common): rules — Menagerie');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('pieces: names on hover and long press, and a legend of the pieces in play with Little Cheops\' badges', async () => {
  const g = await create({ variant: 'little-cheops-imperial', white: 'human', black: 'human' });
  const page = await open(g.seats.white.url, { hasTouch: true });
  assert.equal(await page.textContent('svg.board [data-square="f1"] > title'), 'White Prime Minister (PM)');
  assert.equal(await page.getAttribute('svg.board [data-square="f1"]', 'aria-label'), 'f1, White Prime Minister (PM)');
  assert.equal(await page.textContent('svg.board [data-square="d1"] > title'), 'White Baron (Ba)');
  assert.equal(await page.locator('svg.board [data-square="e5"] > title').count(), 0, 'an empty square has no name');
  const legend = await page.$$eval('#legend li[data-kind]', (lis) => lis.map((li) => li.querySelector('.what').textContent));
  assert.deepEqual(legend, [
    'K King K', 'Q Queen Q', 'PM Prime Minister BN provisional', 'M Minister B provisional', 'T Tower R provisional', 'Ma Master mRcpR',
    'N Knight N provisional', 'Du Duke K provisional', 'Dc Duchess K provisional', 'Ba Baron K provisional', 'Bs Baroness K provisional',
    'A Assassin K provisional', 'C Civilian mK provisional', 'P Pawn mfWcfF provisional',
  ]);
  assert.equal(await page.textContent('#legend li[data-kind="civilian"] .count'), '2·2');
  // a long press (touch) on the Duchess shows its name over the board
  const box = await page.locator('svg.board [data-square="i1"]').boundingBox();
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: at.x, y: at.y }] });
  await page.waitForSelector('.piece-tip');
  assert.equal(await page.textContent('.piece-tip'), 'White Duchess (Dc)');
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await waitUntil(page, () => !document.querySelector('.piece-tip'), null, { timeout: 5000 });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('off the board: Cypher\'s pools, checks, re-take and infiltration; the material difference', async () => {
  const fen = '1s8/7k2/6b3/2N7/4r5/4Q5/10/10/10/8K1/4S5 w - - 0+0 0/0 0 1';
  const g = await create({ variant: 'cypher', fen, white: 'human', black: 'human' });
  const page = await open(g.seats.white.url);
  const lines = () => page.$$eval('#off-board [data-off]', (ds) => ds.map((d) => `${d.dataset.off}: ${d.querySelector('dd').textContent}`));
  assert.deepEqual(await lines(), [
    'pools: White 0 pawns, Black 0 pawns',
    'checks: White 0, Black 0 (the fourth draws)',
    're-take: none',
    'infiltration: White has used it, Black has used it',
  ]);
  // White: Queen, Knight; Black: Rook, Bishop: White is up a Queen+Knight against a Rook+Bishop (+4)
  assert.equal(await page.textContent('.mat-side[data-side="white"] .mat-points'), '+4');
  await clickSquare(page, 'd5');
  await clickSquare(page, 'd6');
  await waitForMoves(page, 1);
  await waitUntil(page, () => document.querySelector('#off-board [data-off="re-take"] dd').textContent === 'the man on d6 may be re-taken this turn');
  assert.equal(await page.textContent('.mat-side[data-side="white"] .mat-points'), '+9');
  assert.equal(await page.$$eval('.mat-side[data-side="white"] .mat-piece', (s) => s.map((x) => x.title).join(' ')), 'Queen Knight');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('sounds: a move, a capture and the end are heard; the mute switch is remembered', async () => {
  const g = await create({ variant: 'chess', white: 'human', black: 'human' });
  const page = await newPage(browser);
  await recordSounds(page);
  await page.goto(server.url + g.seats.white.url);
  await page.waitForSelector('svg.board [data-square]');
  const wav = await page.evaluate(async () => {
    const r = await fetch('/static/sounds/move.wav');
    return [r.status, r.headers.get('content-type'), (await r.arrayBuffer()).byteLength];
  });
  assert.deepEqual(wav, [200, 'audio/wav', 3130]);
  await clickSquare(page, 'e2');
  await clickSquare(page, 'e4');
  await waitForMoves(page, 1);
  await call(server.url, 'POST', `/api/games/${g.id}/move`, { move: 'd5' }, g.seats.black.token);
  await waitForMoves(page, 2);
  await clickSquare(page, 'e4');
  await clickSquare(page, 'd5');
  await waitForMoves(page, 3);
  await waitUntil(page, () => window.__sounds.length >= 3);
  assert.deepEqual(await page.evaluate(() => window.__sounds), ['move.wav', 'move.wav', 'capture.wav']);
  assert.equal(await page.textContent('#mute'), 'Sound on');
  await page.click('#mute');
  assert.equal(await page.getAttribute('#mute', 'aria-pressed'), 'true');
  await call(server.url, 'POST', `/api/games/${g.id}/move`, { move: 'Qxd5' }, g.seats.black.token);
  await waitForMoves(page, 4);
  assert.equal(await page.evaluate(() => window.__sounds.length), 3, 'muted: nothing more');
  await page.reload();
  await page.waitForSelector('#mute');
  assert.equal(await page.textContent('#mute'), 'Sound off', 'remembered by the browser');
  await page.click('#mute');
  await call(server.url, 'POST', `/api/games/${g.id}/resign`, {}, g.seats.black.token);
  await waitUntil(page, () => window.__sounds.includes('end.wav'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('notices: a declined draw offer and a refused takeback tell the asker; an engine game offers its seat link', async () => {
  const g = await create({ variant: 'chess', white: 'human', black: 'human' });
  const a = await open(g.seats.white.url);
  await clickSquare(a, 'e2');
  await clickSquare(a, 'e4');
  await waitForMoves(a, 1);
  await a.click('#offer-draw');
  await waitUntil(a, () => document.querySelector('#offers').textContent.includes('Draw offered'));
  assert.equal((await call(server.url, 'POST', `/api/games/${g.id}/decline-draw`, {}, g.seats.black.token)).status, 200);
  await waitUntil(a, () => !document.querySelector('#notice').hidden);
  assert.equal(await a.textContent('#notice'), 'Black declined your draw offer.');
  await a.click('#takeback');
  const refused = await call(server.url, 'POST', `/api/games/${g.id}/takeback`, { action: 'decline' }, g.seats.black.token);
  assert.equal(refused.status, 200, JSON.stringify(refused.data));
  await waitUntil(a, () => document.querySelector('#notice').textContent === 'Black refused your takeback.');
  assert.deepEqual(a.errors, []);
  await a.context().close();

  const page = await newPage(browser);
  await page.goto(server.url + '/');
  await page.click('.variant-card[data-variant="chess"]');
  await page.check('input[name="opponent"][value="engine"]');
  await page.check('input[name="color"][value="white"]');
  await page.click('#start');
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('#seat-link');
  await page.click('#seat-link summary');
  const link = await page.inputValue('#seat-url');
  assert.match(link, /\/play\/[^/]+$/);
  // the link opens the same seat in another browser
  const other = await openGame(browser, '', link);
  const st = await stateOf(other);
  assert.equal(st.you, 'white');
  assert.deepEqual(page.errors, []);
  await other.context().close();
  await page.context().close();
});

test('premoves: queued on the opponent\'s turn, played when legal, cancelled by Escape; none in Imperial', async () => {
  const g = await create({ variant: 'chess', white: 'human', black: 'human' });
  const b = await open(g.seats.black.url);
  await clickSquare(b, 'e7');
  await clickSquare(b, 'e5');
  assert.equal(await b.locator('.hl-premove').count(), 2);
  await call(server.url, 'POST', `/api/games/${g.id}/move`, { move: 'e4' }, g.seats.white.token);
  await waitForMoves(b, 2);
  const st = await stateOf(b);
  assert.deepEqual(st.moves.map((m) => m.canonical), ['e2e4', 'e7e5']);
  // a premove that is not legal when the turn comes is dropped
  await clickSquare(b, 'd8');
  await clickSquare(b, 'h4');
  assert.equal(await b.locator('.hl-premove').count(), 2);
  await b.focus('svg.board');
  await b.keyboard.press('Escape');
  assert.equal(await b.locator('.hl-premove').count(), 0, 'Escape cancels');
  // the Pawn on e5 cannot go forward into White's e4 Pawn
  await clickSquare(b, 'e5');
  await clickSquare(b, 'e4');
  await call(server.url, 'POST', `/api/games/${g.id}/move`, { move: 'd4' }, g.seats.white.token);
  await waitUntil(b, () => document.querySelector('#reason').textContent === 'Premove e5 to e4 cancelled: it is not legal now.');
  assert.equal((await stateOf(b)).moves.length, 3);
  assert.deepEqual(b.errors, []);
  await b.context().close();

  const imp = await create({ variant: 'little-cheops-imperial', white: 'human', black: 'human' });
  const p = await open(imp.seats.black.url);
  await clickSquare(p, 'a12');
  await clickSquare(p, 'a11');
  assert.equal(await p.locator('.hl-premove').count(), 0, 'no premove in Imperial');
  await p.context().close();
});

test('the inspection chooser opens beside the board, not over the pieces, with one Cancel', async () => {
  // White's King a1 beside Black's Civilian b2: pointing at b2 offers the inspection
  const g = await create({ variant: 'little-cheops-imperial', fen: 'k11q/13/13/13/13/13/13/13/13/13/13/1c11/K5Q6 w - - 0 1 -', white: 'human', black: 'human' });
  const p = await open(g.seats.white.url);
  const st = await stateOf(p);
  const inspect = st.legal.find((t) => t.kind === 'inspection');
  assert.ok(inspect, 'an inspection is legal');
  assert.deepEqual(inspect.parts.map((x) => x.to), ['b2']);
  await clickSquare(p, 'b2');
  await p.waitForSelector('.chooser');
  const chooser = await p.locator('.chooser').boundingBox();
  const boardBox = await p.locator('svg.board').boundingBox();
  for (const sq of ['a1', 'b2']) {
    const box = await p.locator(`svg.board [data-square="${sq}"]`).boundingBox();
    const overlaps = chooser.x < box.x + box.width && box.x < chooser.x + chooser.width && chooser.y < box.y + box.height && box.y < chooser.y + chooser.height;
    assert.ok(!overlaps, `the chooser is not over ${sq}`);
  }
  assert.ok(chooser.y >= boardBox.y + boardBox.height - 1 || chooser.x >= boardBox.x + boardBox.width - 1, 'beside or under the board');
  assert.equal(await p.locator('button.cancel:visible').count(), 1, 'one Cancel');
  assert.ok(await p.locator(`.chooser .choice[data-canonical="${inspect.canonical}"]`).count() === 1);
  // Cancel closes it and plays nothing
  await p.click('.chooser button.cancel');
  assert.equal(await p.locator('.chooser').count(), 0);
  assert.equal((await stateOf(p)).moves.length, 0);
  await clickSquare(p, 'b2');
  await p.click(`.chooser .choice[data-canonical="${inspect.canonical}"]`);
  await waitForMoves(p, 1);
  assert.match((await stateOf(p)).moves[0].canonical, /^inspect:b2=[A-Z]$/);
  assert.deepEqual(p.errors, []);
  await p.context().close();
});

test('premoves of every kind of turn the page points at: a promotion, a Cypher combined move, a new premove replacing the first', async () => {
  // chess: Black premoves a promotion (the strongest is played) while White moves its King
  const c = await create({ variant: 'chess', fen: '7K/8/8/8/8/8/p7/7k w - - 0 1', white: 'human', black: 'human' });
  const b = await open(c.seats.black.url);
  await clickSquare(b, 'a2');
  await clickSquare(b, 'a1');
  assert.equal(await b.locator('.hl-premove').count(), 2);
  await call(server.url, 'POST', `/api/games/${c.id}/move`, { move: 'Kg8' }, c.seats.white.token);
  await waitForMoves(b, 2);
  assert.equal((await stateOf(b)).moves[1].canonical, 'a2a1q');
  // a second premove replaces the first: the squares after the last piece of one's own count
  await clickSquare(b, 'h1');
  await clickSquare(b, 'h2');
  await clickSquare(b, 'a1');
  await clickSquare(b, 'a8');
  assert.equal(await b.locator('.hl-premove').count(), 4);
  await call(server.url, 'POST', `/api/games/${c.id}/move`, { move: 'Kf8' }, c.seats.white.token);
  await waitForMoves(b, 4);
  assert.equal((await stateOf(b)).moves[3].canonical, 'a1a8');
  assert.deepEqual(b.errors, []);
  await b.context().close();

  // Cypher: a combined move of four squares, queued on the opponent's turn
  const fen = '4k5/2rn3r2/5qb3/1pp2ppn2/3ps2p2/1Pp1PPpPQ1/10/1P3P4/1B3KBR2/S1bN2N3/10 w - Ii 0+0 2/0 0 21';
  const y = await create({ variant: 'cypher', fen, white: 'human', black: 'human' });
  const w = await open(y.seats.white.url);
  const legal = (await stateOf(w)).legal;
  const combined = legal.find((t) => t.canonical === 'z1-a1/c1-a0');
  assert.ok(combined, 'the combined move is legal now');
  // White plays something else first, so that it is Black's turn
  const other = legal.find((t) => t.kind === 'move' && t.parts.length === 1 && !['z1', 'c1', 'a1', 'a0'].includes(t.parts[0].from) && !['z1', 'c1', 'a1', 'a0'].includes(t.parts[0].to));
  await call(server.url, 'POST', `/api/games/${y.id}/move`, { move: other.canonical }, y.seats.white.token);
  await waitForMoves(w, 1);
  for (const sq of ['z1', 'a1', 'c1', 'a0']) await clickSquare(w, sq);
  assert.equal(await w.locator('.hl-premove').count(), 4);
  assert.equal(await w.textContent('#reason'), 'Premove z1, a1, c1 then a0: played when your turn comes if it is legal then (right-click or Escape cancels).');
  const reply = (await call(server.url, 'GET', `/api/games/${y.id}`, undefined, y.seats.black.token)).data.legal.find((t) => t.kind === 'move' && t.parts.length === 1 && !['z1', 'c1', 'a1', 'a0', 'b1', 'b0'].includes(t.parts[0].to));
  await call(server.url, 'POST', `/api/games/${y.id}/move`, { move: reply.canonical }, y.seats.black.token);
  await waitForMoves(w, 3);
  const after = await stateOf(w);
  assert.equal(after.moves[2].canonical, 'z1-a1/c1-a0');
  assert.deepEqual(w.errors, []);
  await w.context().close();
});

// Moves the board's square cursor to `target` by arrow keys and presses Enter.
async function keyTo(page, target) {
  const where = () => page.evaluate(() => {
    const r = document.querySelector('svg.board .hl-cursor');
    return r ? r.closest('[data-square]').dataset.square : null;
  });
  if (!(await where())) await page.keyboard.press('ArrowUp');
  const files = 'abcdefgh';
  for (let i = 0; i < 20; i++) {
    const cur = await where();
    if (cur === target) break;
    const df = files.indexOf(target[0]) - files.indexOf(cur[0]);
    const dr = Number(target.slice(1)) - Number(cur.slice(1));
    if (df) await page.keyboard.press(df > 0 ? 'ArrowRight' : 'ArrowLeft');
    else await page.keyboard.press(dr > 0 ? 'ArrowUp' : 'ArrowDown');
  }
  assert.equal(await where(), target);
  await page.keyboard.press('Enter');
}

test('keyboard: a whole game at one screen played with the arrows and Enter alone, the cursor spoken', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '/');
  await page.click('.variant-card[data-variant="chess"]');
  await page.check('input[name="opponent"][value="local"]');
  await page.click('#start');
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('svg.board [data-square]');
  // Tab from the top of the page reaches the board
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement && document.activeElement.matches('svg.board'))) break;
  }
  assert.ok(await page.evaluate(() => document.activeElement.matches('svg.board')), 'the board takes the focus');
  const turns = [['f2', 'f3'], ['e7', 'e5'], ['g2', 'g4'], ['d8', 'h4']];
  for (let i = 0; i < turns.length; i++) {
    await keyTo(page, turns[i][0]);
    assert.match(await page.textContent('.board-live'), new RegExp(`^${turns[i][0]}, (White|Black) (Pawn|Queen)\\. Picked: ${turns[i][0]}\\.$`));
    await keyTo(page, turns[i][1]);
    await waitForMoves(page, i + 1);
  }
  await page.waitForSelector('#banner:not([hidden])');
  assert.equal(await page.textContent('#banner-head'), 'Black wins (0-1)');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('contrast: every text of the pages passes WCAG AA (4.5:1, 3:1 for large text)', async () => {
  const g = await create({ variant: 'cypher', white: 'human', black: 'human' });
  const page = await newPage(browser);
  const failures = [];
  for (const path of ['/', '/analysis', '/games', '/rules/cypher', g.seats.white.url]) {
    await page.goto(server.url + path);
    await page.waitForSelector(path.startsWith('/play') ? 'svg.board [data-square]' : 'header#top a');
    await page.waitForTimeout(300);
    const bad = await page.evaluate(() => {
      const parse = (c) => {
        const m = /rgba?\(([^)]+)\)/.exec(c);
        if (!m) return null;
        const [r, g, b, a = 1] = m[1].split(',').map(Number);
        return { r, g, b, a };
      };
      const lum = ({ r, g, b }) => {
        const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const over = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
      const background = (el) => {
        const layers = [];
        for (let e = el; e; e = e.parentElement) {
          const c = parse(getComputedStyle(e).backgroundColor);
          if (c && c.a > 0) layers.push(c);
          if (c && c.a === 1) break;
        }
        let bg = { r: 255, g: 255, b: 255, a: 1 };
        for (const c of layers.reverse()) bg = over(c, bg);
        return bg;
      };
      const out = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!n.textContent.trim() || !el || el.closest('svg') || el.closest('[hidden]') || el.closest('.sr-only')) continue;
        const st = getComputedStyle(el);
        if (st.visibility === 'hidden' || st.display === 'none' || !el.getClientRects().length) continue;
        if (el.closest('button:disabled')) continue; // WCAG exempts inactive controls
        const fg0 = parse(st.color);
        const bg = background(el);
        const fg = over(fg0, bg);
        const [l1, l2] = [lum(fg), lum(bg)].sort((x, y) => y - x);
        const ratio = (l1 + 0.05) / (l2 + 0.05);
        const size = parseFloat(st.fontSize);
        const large = size >= 24 || (size >= 18.66 && Number(st.fontWeight) >= 700);
        if (ratio < (large ? 3 : 4.5)) out.push(`${n.textContent.trim().slice(0, 30)} (${ratio.toFixed(2)}: ${st.color} on rgb(${Math.round(bg.r)},${Math.round(bg.g)},${Math.round(bg.b)}))`);
      }
      return out;
    });
    for (const b of bad) failures.push(`${path}: ${b}`);
  }
  assert.deepEqual(failures, []);
  await page.context().close();
});

test('at the board: the last move stays marked while picking, dots on the torus\'s ghosts, promotions strongest first under the board with one Cancel', async () => {
  const g = await create({ variant: 'chess', white: 'human', black: 'human' });
  await call(server.url, 'POST', `/api/games/${g.id}/move`, { move: 'e4' }, g.seats.white.token);
  const b = await open(g.seats.black.url);
  await clickSquare(b, 'e7');
  assert.equal(await b.locator('.hl-last').count(), 2, 'e2 and e4 stay marked');
  assert.equal(await b.locator('.hl-selected').count(), 1);
  await b.context().close();

  const v = await create({ variant: 'vyrt', white: 'human', black: 'human' });
  const p = await open(v.seats.white.url);
  const st = await stateOf(p);
  const ghosts = new Set(await p.$$eval('svg.board [data-ghost]', (gs) => gs.map((x) => x.dataset.ghost)));
  const turn = st.legal.find((t) => t.parts && t.parts.length === 1 && ghosts.has(t.parts[0].to));
  assert.ok(turn, 'a turn to a square the ghost rows show');
  await clickSquare(p, turn.parts[0].from);
  assert.ok((await p.locator(`svg.board [data-ghost="${turn.parts[0].to}"] .dest`).count()) >= 1, `a dot on the ghost of ${turn.parts[0].to}`);
  await p.context().close();

  const c = await create({ variant: 'chess', fen: '8/P7/8/8/8/8/8/k6K w - - 0 1', white: 'human', black: 'human' });
  const q = await open(c.seats.white.url);
  await clickSquare(q, 'a7');
  await clickSquare(q, 'a8');
  await q.waitForSelector('.chooser');
  assert.deepEqual(await q.$$eval('.chooser .choice span', (bs) => bs.map((x) => x.textContent)), ['a8=Q+', 'a8=R+', 'a8=B', 'a8=N']);
  const chooser = await q.locator('.chooser').boundingBox();
  const square = await q.locator('svg.board [data-square="a8"]').boundingBox();
  const boardBox = await q.locator('svg.board').boundingBox();
  assert.ok(chooser.y >= boardBox.y + boardBox.height - 1, `the chooser is under the board (${chooser.y} vs ${boardBox.y + boardBox.height})`);
  assert.ok(chooser.y > square.y + square.height, 'not over the piece');
  assert.equal(await q.locator('button.cancel:visible').count(), 1, 'one Cancel');
  await q.click('.chooser .choice >> nth=0');
  await waitForMoves(q, 1);
  assert.equal((await stateOf(q)).moves[0].human, 'a8=Q+');
  assert.deepEqual(q.errors, []);
  await q.context().close();
});

test('the board\'s tools are in view at 1280x900; on a phone the 12x12 board can be shown larger', async () => {
  for (const variant of ['chess', 'little-cheops-imperial']) {
    const g = await create({ variant, white: 'human', black: 'human' });
    const page = await open(g.seats.white.url, { viewport: { width: 1280, height: 900 } });
    for (const id of ['#flip', '#square-names', '#confirm-moves']) {
      const box = await page.locator(id).boundingBox();
      assert.ok(box && box.y + box.height <= 900, `${variant}: ${id} ends at ${box && box.y + box.height}`);
    }
    await page.context().close();
  }
  const v = await create({ variant: 'vyrt', white: 'human', black: 'human' });
  const phone = await open(v.seats.white.url, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const width = async () => (await phone.locator('svg.board [data-square] .base').first().boundingBox()).width;
  const before = await width();
  assert.ok(before < 30, `small squares at first (${before})`);
  await phone.click('#zoom');
  const after = await width();
  assert.ok(after >= 50, `larger squares (${after})`);
  assert.equal(await phone.textContent('#zoom'), 'Smaller board');
  await phone.context().close();
});

test('analysis: the evaluation bar, the best line as an arrow, a pasted record stepped through, and play from here', async () => {
  const g = await create({ variant: 'chess', white: 'human', black: 'human' });
  for (const [m, who] of [['e4', 'white'], ['e5', 'black'], ['Nf3', 'white']]) {
    await call(server.url, 'POST', `/api/games/${g.id}/move`, { move: m }, g.seats[who].token);
  }
  const record = (await call(server.url, 'GET', `/api/games/${g.id}/record`)).data;
  const page = await newPage(browser);
  await page.goto(server.url + '/analysis?variant=chess');
  await page.waitForSelector('svg.board [data-square]');
  await page.click('#record-paste summary');
  await page.fill('#record-text', record);
  await page.click('#record-open');
  await waitUntil(page, () => document.querySelector('#record-at').textContent === 'turn 3 of 3');
  const after3 = (await call(server.url, 'POST', '/api/position', { variant: 'chess', moves: ['e4', 'e5', 'Nf3'] })).data;
  assert.equal(await page.inputValue('#fen'), after3.fen);
  await page.click('[data-rec="prev"]');
  const after2 = (await call(server.url, 'POST', '/api/position', { variant: 'chess', moves: ['e4', 'e5'] })).data;
  await waitUntil(page, (f) => document.querySelector('#fen').value === f, after2.fen);
  assert.equal(await page.textContent('#record-at'), 'turn 2 of 3');
  await page.click('[data-rec="last"]');
  await waitUntil(page, (f) => document.querySelector('#fen').value === f, after3.fen);
  // the engine's best line: a bar and an arrow from a legal turn's first square to its last
  await page.fill('#depth', '5');
  await page.click('#go');
  await page.waitForSelector('#eval-bar:not([hidden])');
  await page.waitForSelector('svg.board .best-arrow');
  await waitUntil(page, () => document.querySelector('#stop').disabled, null, { timeout: 60000 });
  const arrow = await page.$eval('svg.board .best-arrow', (a) => [a.dataset.from, a.dataset.to]);
  const line = await page.textContent('#lines .line[data-multipv="1"]');
  const best = after3.legal.find((t) => t.parts[0].from === arrow[0] && t.parts[t.parts.length - 1].to === arrow[1]);
  assert.ok(best, `the arrow ${arrow} is a legal turn`);
  assert.ok(line.includes(` ${best.human}`), `the arrow's turn ${best.human} begins the best line: ${line}`);
  assert.match(await page.getAttribute('#eval-bar', 'data-score'), /^[+-]\d+\.\d\d$|^#-?\d+$/);
  // play from here: the home page with the position filled in; a game at one screen from it
  const href = await page.getAttribute('#play-from-here', 'href');
  await page.goto(server.url + href);
  await page.waitForSelector('#start-fen');
  assert.equal(await page.inputValue('#start-fen'), after3.fen);
  await page.check('input[name="opponent"][value="local"]');
  await page.click('#start');
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('svg.board [data-square]');
  const st = await stateOf(page);
  assert.equal(st.fen, after3.fen);
  assert.equal(st.moves.length, 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the home page refuses an impossible position string with the library\'s sentence', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '/?variant=chess');
  await page.waitForSelector('#start-fen');
  const bad = '8/8/8/8/8/8/8/8 w - - 0 1';
  await page.fill('#start-fen', bad);
  await page.check('input[name="opponent"][value="local"]');
  await page.click('#start');
  const expected = (await call(server.url, 'POST', '/api/games', { variant: 'chess', fen: bad })).data.error;
  assert.ok(expected && expected.length > 10, expected);
  await waitUntil(page, () => document.querySelector('#start-error').textContent.length > 0);
  assert.equal(await page.textContent('#start-error'), expected);
  await page.context().close();
});

test('the board editor: every geometry, the side and fields, an impossible position refused with the library\'s sentence', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '/analysis?variant=chess&edit=1');
  await page.waitForSelector('#editor svg.board [data-square]');
  await page.click('#editor-clear');
  await page.click('#editor .swatch[data-letter="K"]');
  await page.click('#editor svg.board [data-square="e1"]');
  await page.click('#editor .swatch[data-letter="R"]');
  await page.click('#editor svg.board [data-square="a1"]');
  await page.check('input[name="editor-side"][value="b"]');
  // no Black King: impossible
  const fen = '8/8/8/8/8/8/8/R3K3 b KQkq - 0 1';
  assert.equal(await page.textContent('#editor-fen'), fen);
  await page.click('#editor-use');
  const expected = (await call(server.url, 'POST', '/api/position', { variant: 'chess', fen })).data.error;
  assert.ok(expected, 'the server refuses it');
  await waitUntil(page, () => document.querySelector('#editor-error').textContent.length > 0);
  assert.equal(await page.textContent('#editor-error'), expected);
  await page.click('#editor .swatch[data-letter="k"]');
  await page.click('#editor svg.board [data-square="e8"]');
  await page.fill('#editor [data-field="0"]', 'Q');
  await page.click('#editor-use');
  await page.waitForSelector('#editor', { state: 'detached' });
  await waitUntil(page, () => document.querySelector('#fen').value === '4k3/8/8/8/8/8/8/R3K3 b Q - 0 1');
  assert.equal(await page.textContent('#status'), 'Black to move.');
  for (const variant of ['vyrt', 'cypher', 'little-cheops', 'little-cheops-imperial']) {
    await page.goto(server.url + `/analysis?variant=${variant}&edit=1`);
    await page.waitForSelector('#editor svg.board [data-square]');
    // a White Knight moves to an empty square near the middle: erased, then placed (the
    // library checks the counts: Vyrt allows at most 30 units, and no more promoted pieces
    // than missing pawns)
    const [from, target] = await page.evaluate(() => {
      const all = [...document.querySelectorAll('#editor svg.board [data-square]')];
      const knight = all.find((x) => {
        const p = x.querySelector('.piece');
        return p && p.dataset.owner === 'white' && p.dataset.kind === 'knight';
      });
      const empty = all.filter((g) => !g.querySelector('.piece'));
      return [knight.dataset.square, empty[Math.floor(empty.length / 2)].dataset.square];
    });
    await page.click('#editor .swatch.eraser');
    await page.click(`#editor svg.board [data-square="${from}"]`);
    await page.click('#editor .swatch[data-letter="N"]');
    await page.click(`#editor svg.board [data-square="${target}"]`);
    await page.click('#editor-use');
    await waitUntil(page, () => !document.querySelector('#editor') || document.querySelector('#editor-error').textContent);
    assert.equal(await page.locator('#editor-error').count() && (await page.textContent('#editor-error')), 0, `${variant}: the position is accepted`);
    await waitUntil(page, (t) => {
      const p = document.querySelector(`.analysis-layout svg.board [data-square="${t}"] .piece`);
      return p && p.dataset.owner === 'white' && p.dataset.kind === 'knight';
    }, target);
    assert.equal(await page.locator(`.analysis-layout svg.board [data-square="${from}"] .piece`).count(), 0, `${variant}: ${from} is empty`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

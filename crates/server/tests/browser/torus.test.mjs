// The 3D torus view of Vyrt (issue 35) against the real `menagerie serve`: it draws (a pixel
// check of the canvas), turns entered by pointing in 3D cross both seams and are played, the
// view keeps in step with the flat board after the engine's reply, the analysis board has it
// too, Flip turns the 3D view with the flat board (Black points at squares there), and a
// browser without WebGL gets the one sentence and keeps the flat board.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, launch, newPage, waitUntil } from './browser.mjs';
import { startServer, call, ROOT, pointsOf } from './server.mjs';
import { stateOf, waitForMoves, playByPointing } from './pages.mjs';

const SHOTS = path.join(ROOT, 'docs/screenshots');
const LIGHT = [0xee, 0xe3, 0xc8];
const DARK = [0xb5, 0x8a, 0x5c];
const NO_WEBGL = 'This browser cannot draw the 3D torus (WebGL is missing or turned off), so the flat board stays.';
// White: King F3, Rooks J5 and E10; Black: King B7. J5-K5 crosses the file seam (J|K),
// E10-E11 the rank seam (10|11).
const SEAMS = '6R5/12/12/3k8/12/11R/12/7K4/12/12/12/12 w - - - 0 1';

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

/** Opens a seat's page, turns the 3D view on and waits until it has drawn its pieces. */
async function openIn3d(url) {
  const page = await newPage(browser);
  await page.goto(server.url + url);
  await page.waitForSelector('svg.board [data-square]');
  await page.waitForSelector('.torus-toggle:not([hidden])');
  if (!(await page.isChecked('#torus-3d'))) await page.check('#torus-3d');
  await waitFor3d(page);
  return page;
}

/** Waits until the 3D view is shown and has drawn a frame. */
async function waitFor3d(page) {
  await waitUntil(page, () => {
    const v = document.querySelector('.torus3d');
    return !!(v && !v.hidden && Number(v.dataset.frames) > 0 && v.dataset.pieces);
  });
}

/** Where a square is on the screen in the 3D view now (null when it cannot be pointed at). */
const pointOf = (page, name) => page.evaluate((n) => document.querySelector('.torus3d').torusView.screenPoint(n), name);

/** Drags across the 3D view by (dx, dy) pixels from its centre, turning the torus. */
async function dragView(page, dx, dy) {
  const box = await page.locator('.torus3d canvas').boundingBox();
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 5 });
  await page.mouse.up();
}

/**
 * Clicks a square in the 3D view with the mouse, first turning the torus (by dragging, as a
 * player would) until the square faces the viewer. Returns how many drags it took.
 */
async function click3d(page, name) {
  for (let drags = 0; drags < 40; drags++) {
    const p = await pointOf(page, name);
    if (p) {
      await page.mouse.click(p.x, p.y);
      return drags;
    }
    // sweep the tilt; every eighth step also spin the ring a little
    if (drags % 8 === 7) await dragView(page, 60, 0);
    else await dragView(page, 0, -40);
  }
  throw new Error(`square ${name} never came into view`);
}

/** The pieces the 3D view stands on the board, and those the flat board shows, as `SQUARE:owner:kind` lists. */
function piecesBoth(page) {
  return page.evaluate(() => {
    const flat = [...document.querySelectorAll('svg.board [data-square]')]
      .map((g) => {
        const p = g.querySelector('.piece');
        return p ? `${g.dataset.square}:${p.dataset.owner}:${p.dataset.kind}` : null;
      })
      .filter((s) => s)
      .sort()
      .join(' ');
    return { flat, torus: document.querySelector('.torus3d').dataset.pieces };
  });
}

/** How many pixels of the 3D canvas are (within a tolerance) each board colour. */
function colourCounts(page, light, dark) {
  return page.evaluate(
    ([l, d]) => {
      const c = document.querySelector('.torus3d canvas');
      const t = document.createElement('canvas');
      t.width = c.width;
      t.height = c.height;
      const ctx = t.getContext('2d');
      ctx.drawImage(c, 0, 0);
      const px = ctx.getImageData(0, 0, t.width, t.height).data;
      const near = (i, rgb) => Math.max(Math.abs(px[i] - rgb[0]), Math.abs(px[i + 1] - rgb[1]), Math.abs(px[i + 2] - rgb[2])) <= 14;
      let nl = 0;
      let nd = 0;
      for (let i = 0; i < px.length; i += 4) {
        if (px[i + 3] < 250) continue;
        if (near(i, l)) nl++;
        else if (near(i, d)) nd++;
      }
      return { light: nl, dark: nd, total: px.length / 4 };
    },
    [light, dark],
  );
}

test('torus: the 3D view draws the board\'s two colours and every piece, and the toggle is remembered', async () => {
  const g = await call(server.url, 'POST', '/api/games', { variant: 'vyrt', white: 'human', black: 'human' });
  assert.equal(g.status, 201, JSON.stringify(g.data));
  const page = await openIn3d(g.data.seats.white.url);
  assert.equal(await page.locator('svg.board').isVisible(), false, 'the 3D view takes the flat board\'s place');
  assert.equal(await page.locator('#torus-start-view').isVisible(), true);
  const both = await piecesBoth(page);
  assert.equal(both.torus.split(' ').length, 2 * (8 + 22), 'both sides\' 30 units stand on the torus');
  assert.equal(both.torus, both.flat);
  const counts = await colourCounts(page, LIGHT, DARK);
  assert.ok(counts.light > counts.total * 0.01, `light squares drawn: ${JSON.stringify(counts)}`);
  assert.ok(counts.dark > counts.total * 0.01, `dark squares drawn: ${JSON.stringify(counts)}`);
  console.log(`# canvas pixels: ${JSON.stringify(counts)}`);
  assert.match(both.torus, /(^| )A1:white:rook( |$)/);
  assert.match(both.torus, /(^| )E8:black:king( |$)/);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.locator('.board-col').screenshot({ path: path.join(SHOTS, 'vyrt-3d.png') });
  // the choice is kept: a reload opens the 3D view again; turning it off brings the flat board back
  await page.reload();
  // the flat board is drawn, then hidden behind the 3D view as soon as it mounts
  await page.waitForSelector('svg.board [data-square]', { state: 'attached' });
  await waitFor3d(page);
  assert.equal(await page.isChecked('#torus-3d'), true);
  await page.uncheck('#torus-3d');
  assert.equal(await page.locator('svg.board').isVisible(), true);
  assert.equal(await page.locator('.torus3d').isVisible(), false);
  assert.equal(await page.evaluate(() => localStorage.getItem('menagerie:torus3d')), '0');
  assert.deepEqual(page.errors, [], 'no console errors (the import map passes the Content-Security-Policy)');
  await page.context().close();
});

test('torus: turns pointed at in 3D cross the file seam and the rank seam; the view keeps in step with the engine', async () => {
  const g = await call(server.url, 'POST', '/api/games', { variant: 'vyrt', fen: SEAMS, white: 'human', black: 'engine:1' });
  assert.equal(g.status, 201, JSON.stringify(g.data));
  const page = await openIn3d(g.data.seats.white.url);
  // J5-K5 across the file seam: the selection and its targets show in 3D as on the flat board
  await click3d(page, 'J5');
  await waitUntil(page, () => document.querySelector('.torus3d').dataset.selected === 'J5');
  const targets = await page.evaluate(() => document.querySelector('.torus3d').dataset.targets.split(' '));
  assert.ok(targets.includes('K5') && targets.includes('I5') && targets.includes('J4'), `the Rook's targets: ${targets}`);
  assert.equal(targets.length, 22, 'a Rook on an open rank and file has 22 moves');
  await click3d(page, 'K5');
  await waitForMoves(page, 2);
  const st1 = await stateOf(page);
  assert.equal(st1.moves[0].canonical, 'J5-K5');
  // after the engine's reply the 3D view shows what the flat board shows, its last move too
  await waitUntil(page, () => document.querySelector('#status').textContent.startsWith('Your turn'));
  const both1 = await piecesBoth(page);
  assert.equal(both1.torus, both1.flat);
  assert.match(both1.torus, /K5:white:rook/);
  const last = await page.evaluate(() => document.querySelector('.torus3d').dataset.last);
  assert.deepEqual(last.split(' ').sort(), [...st1.board.last_turn].sort(), 'the engine\'s move is highlighted in 3D');
  assert.equal(st1.board.last_turn.length, 2);
  // E10-E11 across the rank seam (underneath the ring: the torus is turned to reach it)
  const drags = (await click3d(page, 'E10')) + (await click3d(page, 'E11'));
  assert.ok(drags > 0, 'the rank seam lies underneath the start view');
  await waitForMoves(page, 4);
  const st2 = await stateOf(page);
  assert.equal(st2.moves[2].canonical, 'E10-E11');
  await waitUntil(page, () => document.querySelector('#status').textContent.startsWith('Your turn'));
  const both2 = await piecesBoth(page);
  assert.equal(both2.torus, both2.flat);
  assert.match(both2.torus, /E11:white:rook/);
  // the start view button turns the torus back
  await page.click('#torus-start-view');
  assert.ok(await pointOf(page, 'E2'), 'White\'s side faces the viewer again');
  assert.deepEqual(page.errors, [], 'no console errors');
  await page.context().close();
});

test('torus: Flip turns the 3D view as it turns the flat board; Black\'s side faces Black, who points at squares there', async () => {
  const g = await call(server.url, 'POST', '/api/games', { variant: 'vyrt', white: 'human', black: 'human' });
  assert.equal(g.status, 201, JSON.stringify(g.data));
  const w = await openIn3d(g.data.seats.white.url);
  const b = await openIn3d(g.data.seats.black.url);
  const orientation = (page) => page.evaluate(() => document.querySelector('.torus3d').dataset.orientation);
  assert.equal(await orientation(w), 'white');
  assert.equal(await orientation(b), 'black');
  const near = (p, q) => p && q && Math.abs(p.x - q.x) < 1.5 && Math.abs(p.y - q.y) < 1.5;
  // In the start view each sees its own side in the same place: the square turned half round
  // both ways from White's E2 (on the flat drawing) stands for Black where E2 stands for White.
  const e2 = await pointOf(w, 'E2');
  assert.ok(e2, 'White\'s E2 faces White');
  const turned = await b.evaluate(() => {
    const { squares, geometry: g } = document.querySelector('.torus3d').torusView.board.snapshot;
    const e = squares.find((s) => s.name === 'E2');
    return squares.find((s) => s.file === g.width - 1 - e.file && s.rank === g.height - 1 - e.rank).name;
  });
  assert.notEqual(turned, 'E2');
  const there = await pointOf(b, turned);
  assert.ok(near(there, e2), `Black's ${turned} at ${JSON.stringify(there)}, White's E2 at ${JSON.stringify(e2)}`);
  assert.ok(!near(await pointOf(b, 'E2'), e2), 'Black does not see White\'s side in front');
  // Flip on Black's page: White's view, square for square; again: Black's.
  await b.click('#flip');
  await waitUntil(b, () => document.querySelector('.torus3d').dataset.orientation === 'white');
  assert.ok(near(await pointOf(b, 'E2'), e2));
  assert.equal(await b.getAttribute('svg.board', 'data-orientation'), 'white', 'the flat board turned too');
  await b.click('#flip');
  await waitUntil(b, () => document.querySelector('.torus3d').dataset.orientation === 'black');
  const both = await piecesBoth(b);
  assert.equal(both.torus, both.flat);
  // White plays on the flat board; Black answers by pointing in the flipped 3D view.
  await w.uncheck('#torus-3d');
  const sw = await stateOf(w);
  await playByPointing(w, sw.legal.find((t) => pointsOf(t).length === 2));
  await waitForMoves(b, 1);
  await waitUntil(b, () => document.querySelector('#status').textContent.startsWith('Your turn'));
  const sb = await stateOf(b);
  const reply = sb.legal.find((t) => pointsOf(t).length === 2);
  for (const sq of pointsOf(reply)) await click3d(b, sq);
  await waitForMoves(b, 2);
  assert.equal((await stateOf(b)).moves[1].canonical, reply.canonical);
  for (const p of [w, b]) assert.deepEqual(p.errors, [], 'no console errors');
  for (const p of [w, b]) await p.context().close();
});

test('torus: zooming with the wheel, and the analysis board has the view (for Vyrt only)', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '/analysis?variant=chess');
  await page.waitForSelector('svg.board [data-square]');
  assert.equal(await page.locator('.torus-toggle').isVisible(), false, 'a flat game has no torus to show');
  await page.goto(server.url + '/analysis?variant=vyrt');
  await page.waitForSelector('svg.board [data-square]');
  await page.waitForSelector('.torus-toggle:not([hidden])');
  await page.check('#torus-3d');
  await waitFor3d(page);
  const before = Number(await page.getAttribute('.torus3d', 'data-distance'));
  const box = await page.locator('.torus3d canvas').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -400);
  await waitUntil(page, (b) => Number(document.querySelector('.torus3d').dataset.distance) < b, before);
  await click3d(page, 'E2');
  await click3d(page, 'E4');
  await waitUntil(page, () => document.querySelector('#moves').textContent.includes('E2-E4'));
  const both = await piecesBoth(page);
  assert.equal(both.torus, both.flat);
  assert.match(both.torus, /E4:white:pawn/);
  assert.deepEqual(page.errors, [], 'no console errors');
  await page.context().close();
});

test('torus: without WebGL the toggle says so in one sentence and the flat board stays', async () => {
  const plain = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-webgl'], headless: true });
  try {
    const g = await call(server.url, 'POST', '/api/games', { variant: 'vyrt', white: 'human', black: 'human' });
    const page = await newPage(plain);
    await page.addInitScript(() => localStorage.setItem('menagerie:torus3d', '1'));
    await page.goto(server.url + g.data.seats.white.url);
    await page.waitForSelector('svg.board [data-square]');
    await page.waitForSelector('.torus-toggle:not([hidden])');
    assert.equal(await page.textContent('#torus-note'), NO_WEBGL);
    assert.equal(await page.isVisible('#torus-note'), true);
    assert.equal(await page.isDisabled('#torus-3d'), true);
    assert.equal(await page.isChecked('#torus-3d'), false);
    assert.equal(await page.locator('svg.board').isVisible(), true);
    assert.equal(await page.locator('.torus3d').count(), 0);
    assert.deepEqual(page.errors, [], 'no console errors');
  } finally {
    await plain.close();
  }
});

test('torus: the Vyrt guide shows its picture of the torus, served from the pages\' folder', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '/rules/vyrt');
  await page.waitForSelector('article.rules img');
  const img = await page.evaluate(() => {
    const i = document.querySelector('article.rules img');
    return { src: i.getAttribute('src'), alt: i.alt, width: i.naturalWidth, complete: i.complete };
  });
  assert.equal(img.src, '/static/img/vyrt-torus.png');
  assert.match(img.alt, /^The Vyrt board on a torus/);
  await waitUntil(page, () => document.querySelector('article.rules img').naturalWidth > 0);
  const res = await fetch(server.url + img.src);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.deepEqual(page.errors, [], 'no console errors');
  await page.context().close();
});

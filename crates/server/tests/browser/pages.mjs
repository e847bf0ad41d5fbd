// Helpers shared by the tests that drive the pages against the real server.

import assert from 'node:assert/strict';
import { newPage, clickSquare, waitUntil } from './browser.mjs';
import { pointsOf } from './server.mjs';

/** The game id in a game page's address. */
export const gameIdOf = (page) => decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);

/** The game as this page's seat sees it (the seat cookie goes with the request). */
export function stateOf(page, id = gameIdOf(page)) {
  return page.evaluate(async (g) => (await fetch(`/api/games/${encodeURIComponent(g)}`)).json(), id);
}

/** Enters a legal turn by pointing at its squares, then picks it from a chooser if one asks. */
export async function playByPointing(page, turn) {
  assert.ok(turn, 'the turn to point at is legal');
  for (const sq of pointsOf(turn)) await clickSquare(page, sq);
  const sel = `.chooser .choice[data-canonical="${turn.canonical}"], .board-actions .turn-option[data-canonical="${turn.canonical}"]`;
  if (await page.locator(sel).count()) await page.locator(sel).first().click();
}

/** What every `data-square` of the page's board holds: name -> `owner:kind` or null. */
export function boardOf(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('svg.board [data-square]')].map((g) => {
        const p = g.querySelector('.piece');
        return [g.dataset.square, p ? `${p.dataset.owner}:${p.dataset.kind}` : null];
      }),
    ),
  );
}

/** Every square of the page's board shows what the snapshot `snap` says, and no more. */
export async function assertBoardIs(page, snap) {
  const dom = await boardOf(page);
  assert.equal(Object.keys(dom).length, snap.squares.length);
  for (const sq of snap.squares) {
    assert.equal(dom[sq.name], sq.piece ? `${sq.piece.owner}:${sq.piece.kind}` : null, `square ${sq.name}`);
  }
}

/** Opens a seat link (or any game address) and waits for the board. */
export async function openGame(browser, base, url, options) {
  const page = await newPage(browser, options);
  await page.goto(base + url);
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('svg.board [data-square]');
  return page;
}

/** Waits until the move list has `n` turns. */
export function waitForMoves(page, n, timeout = 30000) {
  return waitUntil(page, (k) => document.querySelectorAll('#moves .mv').length === k, n, { timeout });
}

/** The text of a clock on the page (`white` or `black`), without the flag. */
export function clockText(page, color) {
  return page.evaluate((c) => {
    const el = document.querySelector(`[data-clock="${c}"]`);
    return el ? el.textContent.replace('⚑', '').trim() : null;
  }, color);
}

/** A clock's text as milliseconds ("1:05" or "0:09.4"). */
export function clockMs(text) {
  const m = /^(?:(\d+):)?(\d+):(\d+)(?:\.(\d))?$/.exec(text || '');
  assert.ok(m, `a clock reads like 0:09.4: ${text}`);
  return ((Number(m[1] || 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4] || 0) * 100;
}

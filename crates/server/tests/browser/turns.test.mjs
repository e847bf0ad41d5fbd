// The pointing rules of web/js/turns.js, without a browser.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pointsOf, matchClicks, previewBoard, plainMoveText, pointlessTurns } from '../../web/js/turns.js';
import { fixtureGames } from './fixtures.mjs';

const part = (from, to, extra = {}) => ({ from, to, captures: [], room: null, promotion: null, ...extra });

test('the squares of a turn: from, to and room of each part, repeats once', () => {
  assert.deepEqual(pointsOf({ parts: [part('d0', 'd4'), part('b1', 'b0')] }), ['d0', 'd4', 'b1', 'b0']);
  assert.deepEqual(pointsOf({ parts: [part('d4', 'f4'), part('f4', 'h4')] }), ['d4', 'f4', 'h4']);
  assert.deepEqual(pointsOf({ parts: [part('g5', 'g7', { room: 'c10' })] }), ['g5', 'g7', 'c10']);
  assert.deepEqual(pointsOf({ parts: [part(null, 'b5')] }), ['b5']);
  assert.deepEqual(pointsOf({ parts: [part('c4', 'c4', { promotion: 'Q' })] }), ['c4']);
  assert.deepEqual(pointsOf({ parts: [] }), []);
});

test('clicks narrow the legal turns; complete turns and next squares', () => {
  const legal = fixtureGames()['cypher-start'].legal;
  let m = matchClicks(legal, ['d0']);
  assert.deepEqual([...m.next.keys()], ['d4']);
  assert.equal(m.complete.length, 0);
  m = matchClicks(legal, ['d0', 'd4']);
  assert.deepEqual(m.complete.map((t) => t.canonical), ['d0-d4']);
  assert.deepEqual([...m.next.keys()].sort(), ['b1', 'c1', 'g1']);
  m = matchClicks(legal, ['d0', 'd4', 'b1', 'b0']);
  assert.deepEqual(m.complete.map((t) => t.canonical), ['d0-d4/b1-b0']);
  assert.equal(m.next.size, 0);
  assert.equal(matchClicks(legal, ['e4']).candidates.length, 0);
  assert.deepEqual(pointlessTurns(fixtureGames()['imperial-appoint'].legal).map((t) => t.canonical), ['draw']);
});

test('the preview plays the parts pointed at so far', () => {
  const g = fixtureGames()['cypher-start'];
  const t = g.legal.find((x) => x.canonical === 'd0-d4/b1-b0');
  const piece = (b, n) => b.squares.find((s) => s.name === n).piece;
  const p1 = previewBoard(g.board, t, ['d0', 'd4']);
  assert.equal(piece(p1, 'd4').kind, 'spy');
  assert.equal(piece(p1, 'd0'), null);
  assert.equal(piece(p1, 'b1').kind, 'rook');
  assert.equal(piece(g.board, 'd0').kind, 'spy', 'the snapshot itself is untouched');
  const p2 = previewBoard(g.board, t, ['d0', 'd4', 'b1', 'b0']);
  assert.equal(piece(p2, 'b0').kind, 'rook');
});

test('a plain move in each game\'s own text', () => {
  assert.equal(plainMoveText('chess', 'e2', 'e4'), 'e2e4');
  assert.equal(plainMoveText('vyrt', 'k5', 'j5'), 'K5-J5');
  assert.equal(plainMoveText('cypher', 'c2', 'e4'), 'c2-e4');
  assert.equal(plainMoveText('little-cheops-imperial', 'g5', 'g6'), 'g5g6');
});

// The premove's choice of a turn (web/js/premove.js), without a browser.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chosen, describe, byStrength } from '../../web/js/premove.js';
import { fixtureGames } from './fixtures.mjs';

const part = (from, to, extra = {}) => ({ from, to, captures: [], room: null, promotion: null, ...extra });

test('a premove plays exactly the turn its squares make', () => {
  const legal = fixtureGames()['cypher-start'].legal;
  assert.equal(chosen(legal, ['d0', 'd4']).canonical, 'd0-d4');
  assert.equal(chosen(legal, ['d0', 'd4', 'b1', 'b0']).canonical, 'd0-d4/b1-b0');
  // a turn begun but not finished, or squares no turn has, make nothing
  assert.equal(chosen(legal, ['d0', 'd4', 'b1']), null);
  assert.equal(chosen(legal, ['e4', 'e5']), null);
});

test('promotions: the strongest; turns that differ otherwise: none', () => {
  const promo = (p) => ({ canonical: `e7e8${p}`, parts: [part('e7', 'e8', { promotion: p })] });
  assert.equal(chosen([promo('n'), promo('q'), promo('r')], ['e7', 'e8']).canonical, 'e7e8q');
  assert.deepEqual(byStrength([promo('n'), promo('r'), promo('q')]).map((t) => t.canonical), ['e7e8q', 'e7e8r', 'e7e8n']);
  const takes = (c) => ({ canonical: `x${c}`, parts: [part('c4', 'c5', { captures: [c] })] });
  assert.equal(chosen([takes('c5'), takes('d5')], ['c4', 'c5']), null);
  // a turn in place: the piece pointed at twice
  assert.equal(chosen([{ canonical: 'c4=Q', parts: [part('c4', 'c4', { promotion: 'Q' })] }], ['c4']).canonical, 'c4=Q');
});

test('how a premove reads', () => {
  assert.equal(describe(['e7', 'e5']), 'e7 to e5');
  assert.equal(describe(['d0', 'd4', 'b1', 'b0']), 'd0 to d4, then b1, b0');
  assert.equal(describe(['c4']), 'on c4');
});

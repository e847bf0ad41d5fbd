// What lies off the board, beside it: the snapshot's `off_board` state in the game's words
// (Cypher's prisoner pools, consecutive checks, re-take square and infiltration rights;
// Little Cheops' fifty-round challenge count) and the material difference, as lichess shows
// it: the pieces one side has more of, and the points where the game's pieces have values.

import { pieceIcon, drawingKey } from './pieces.js';
import { kindName } from './legend.js';

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// The usual values of the orthodox pieces (the games with other pieces show no points).
const VALUES = { pawn: 1, knight: 3, bishop: 3, rook: 5, queen: 9 };
const ORDER = ['queen', 'rook', 'bishop', 'knight', 'pawn'];

/** The material difference of a snapshot: `{ white: [{kind, n}], black: [...], points }`. */
export function materialDifference(snapshot) {
  const count = new Map();
  for (const sq of (snapshot && snapshot.squares) || []) {
    const p = sq.piece;
    if (!p) continue;
    const k = String(p.kind).toLowerCase();
    if (drawingKey(k) === 'king') continue;
    count.set(k, (count.get(k) || 0) + (p.owner === 'black' ? -1 : 1));
  }
  const rank = (k) => {
    const i = ORDER.indexOf(drawingKey(k));
    return i < 0 ? -1 : i;
  };
  const kinds = [...count.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const out = { white: [], black: [], points: 0 };
  let valued = true;
  for (const k of kinds) {
    const d = count.get(k);
    if (!d) continue;
    out[d > 0 ? 'white' : 'black'].push({ kind: k, n: Math.abs(d) });
    const v = VALUES[drawingKey(k)];
    if (v === undefined) valued = false;
    else out.points += v * d;
  }
  if (!valued) out.points = null;
  return out;
}

const side = (c) => (c === 'white' ? 'White' : 'Black');

function materialHtml(snapshot, variant) {
  const d = materialDifference(snapshot);
  const row = (c) => {
    const icons = d[c].map((x) => Array.from({ length: Math.min(x.n, 8) }, () => `<span class="mat-piece" title="${esc(kindName(variant, x.kind))}">${pieceIcon({ kind: x.kind, owner: c }, 22)}</span>`).join('')).join('');
    const pts = d.points !== null && ((c === 'white' && d.points > 0) || (c === 'black' && d.points < 0)) ? ` <b class="mat-points">+${Math.abs(d.points)}</b>` : '';
    return `<div class="mat-side" data-side="${c}"><span class="who">${side(c)}</span> ${icons || '<span class="even">—</span>'}${pts}</div>`;
  };
  return `<div class="material" aria-label="Material difference">${row('white')}${row('black')}</div>`;
}

/** The off-board lines of a snapshot's `off_board`, as `[label, text, key]`. */
export function offBoardLines(snapshot, variant, rules = {}) {
  const o = (snapshot && snapshot.off_board) || {};
  const lines = [];
  if (variant === 'cypher' && o.pools) {
    const pawns = (n) => `${n} pawn${n === 1 ? '' : 's'}`;
    lines.push(['Prisoner pools', `White ${pawns(o.pools.white)}, Black ${pawns(o.pools.black)}`, 'pools']);
    lines.push(['Consecutive checks', `White ${o.checks.white}, Black ${o.checks.black} (the fourth draws)`, 'checks']);
    lines.push(['Re-take', o.re_take ? `the man on ${o.re_take} may be re-taken this turn` : 'none', 're-take']);
    const right = (c) => (o.infiltration[c] ? `${side(c)} has it` : `${side(c)} has used it`);
    lines.push(['Infiltration right', `${right('white')}, ${right('black')}`, 'infiltration']);
  }
  if (String(variant).startsWith('little-cheops') && o.halfmove !== undefined) {
    const limit = rules && rules['challenge-count'] === '50-turns' ? 50 : 100;
    if (o.challenge) {
      lines.push(['Fifty-round challenge', `made by ${side(o.challenge.by)}: ${o.challenge.count} of ${limit} turns counted`, 'challenge']);
    } else {
      lines.push(['Fifty-round challenge', 'not made', 'challenge']);
    }
    lines.push(['Since a Pawn move, capture or arrest', `${o.halfmove} turn${o.halfmove === 1 ? '' : 's'}`, 'halfmove']);
  }
  return lines;
}

/** Fills `el` with the off-board state and the material difference of `snapshot`. */
export function renderOffBoard(el, snapshot, variant, rules) {
  if (!snapshot) return;
  const lines = offBoardLines(snapshot, variant, rules);
  const dl = lines.length ? `<dl class="off-board-state">${lines.map(([k, v, key]) => `<div data-off="${key}"><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`).join('')}</dl>` : '';
  const html = `${dl}${materialHtml(snapshot, variant)}`;
  if (el.innerHTML !== html) el.innerHTML = html;
}

/** The element the state goes in. */
export function offBoardElement() {
  const d = document.createElement('section');
  d.className = 'off-board';
  d.id = 'off-board';
  d.setAttribute('aria-label', 'Off the board');
  return d;
}

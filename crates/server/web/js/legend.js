// The pieces' names: on the board (an SVG <title> on hover, a tip on a long press) and in a
// legend of the pieces in play beside it. Names come from the server: each snapshot's piece
// kind, and for games whose pieces are data (Little Cheops) the piece table of /api/variants
// (name, the recorder's abbreviation on the badge, the move in Betza notation).

import { pieceIcon, pieceName, drawingKey } from './pieces.js';

const tables = new Map(); // variant id -> piece table rows

/** Remembers the piece tables of `/api/variants` (call once the list is read). */
export function setPieceTables(list) {
  for (const v of list || []) if (Array.isArray(v.pieces) && v.pieces.length) tables.set(v.id, v.pieces);
}

const kindKey = (s) => String(s || '').toLowerCase().replace(/[\s_]+/g, '-');

/** The table row of a piece kind in `variant`, if the game has a table. */
export function pieceRow(variant, kind) {
  const rows = tables.get(variant) || [];
  const k = kindKey(kind);
  return rows.find((r) => kindKey(r.name) === k) || null;
}

/** A piece's name in the game's words (`Prime Minister`, `Spy`). */
export function kindName(variant, kind) {
  const row = pieceRow(variant, kind);
  return row ? row.name : pieceName(kind);
}

/** What the board says of a piece: `White Prime Minister (PM)`. */
export function pieceTitle(piece, variant) {
  const owner = piece.owner === 'black' ? 'Black' : 'White';
  const row = pieceRow(variant, piece.kind);
  if (row) return `${owner} ${row.name}${row.abbreviation && row.abbreviation !== row.name ? ` (${row.abbreviation})` : ''}`;
  return `${owner} ${pieceName(piece.kind)}`;
}

const ORDER = ['king', 'queen', 'rook', 'bishop', 'knight', 'spy', 'pawn'];

const MARKS = {
  'deputy-known': 'D in a circle: a known Deputy (revealed or compromised)',
  'deputy-sealed': 'D in a dashed circle: your sealed Deputy, which only you see',
  arrestee: 'a padlock: an arrestee',
};

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The legend of the pieces on `snapshot`'s board, as HTML. */
export function legendHtml(snapshot, variant) {
  if (!snapshot) return '';
  const kinds = new Map();
  const marks = new Set();
  for (const sq of snapshot.squares || []) {
    for (const m of sq.marks || []) if (MARKS[m]) marks.add(m);
    if (!sq.piece) continue;
    const k = kindKey(sq.piece.kind);
    if (!kinds.has(k)) kinds.set(k, { kind: sq.piece.kind, white: 0, black: 0 });
    kinds.get(k)[sq.piece.owner === 'black' ? 'black' : 'white']++;
  }
  const rows = tables.get(variant) || [];
  const rank = (k) => {
    const i = rows.findIndex((r) => kindKey(r.name) === k);
    if (i >= 0) return i;
    const j = ORDER.indexOf(drawingKey(k));
    return j >= 0 ? j : 99;
  };
  const list = [...kinds.entries()].sort((a, b) => rank(a[0]) - rank(b[0]));
  const items = list.map(([k, v]) => {
    const row = pieceRow(variant, k);
    const name = row ? row.name : pieceName(v.kind);
    const abbr = row && row.abbreviation ? `<b class="abbr">${esc(row.abbreviation)}</b> ` : '';
    const move = row ? ` <span class="betza" title="its move in Betza notation (guide §4)">${esc(row.betza)}</span>${row.provisional ? ' <span class="provisional">provisional</span>' : ''}` : '';
    return `<li data-kind="${esc(k)}">${pieceIcon({ kind: v.kind, owner: 'white' }, 28)}<span class="what">${abbr}${esc(name)}${move}</span><span class="count" title="White, Black">${v.white}·${v.black}</span></li>`;
  });
  const notes = [...marks].map((m) => `<li class="mark" data-mark="${m}">${esc(MARKS[m])}</li>`);
  return `<ul class="legend-list">${items.join('')}${notes.join('')}</ul>`;
}

/** Fills the legend element `el` (a <details>) for `snapshot`. */
export function renderLegend(el, snapshot, variant) {
  const html = legendHtml(snapshot, variant);
  const body = el.querySelector('.legend-body');
  if (body && body.innerHTML !== html) body.innerHTML = html;
}

/** A <details> for the legend, open on wide screens. */
export function legendElement() {
  const d = document.createElement('details');
  d.className = 'legend';
  d.id = 'legend';
  d.open = !window.matchMedia || window.matchMedia('(min-width: 700px)').matches;
  d.innerHTML = '<summary>Pieces in play</summary><div class="legend-body"></div>';
  return d;
}

/**
 * A long press on a piece (touch or pen) shows its name in a tip over the board; the tip
 * goes when the finger lifts or moves away.
 */
export function longPressNames(board) {
  let timer = null;
  let tip = null;
  const clear = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  const hide = () => {
    clear();
    if (tip) tip.remove();
    tip = null;
  };
  board.svg.addEventListener('pointerdown', (e) => {
    hide();
    if (e.pointerType !== 'touch' && e.pointerType !== 'pen') return;
    const name = board.nameAt(e);
    const sq = name && board.snapshot ? board.snapshot.squares.find((s) => s.name === name) : null;
    if (!sq || !sq.piece) return;
    const rect = board.wrap.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top;
    timer = setTimeout(() => {
      timer = null;
      tip = document.createElement('div');
      tip.className = 'piece-tip';
      tip.setAttribute('role', 'tooltip');
      tip.textContent = pieceTitle(sq.piece, board.variant);
      tip.style.left = `${x}px`;
      tip.style.top = `${Math.max(0, y - 48)}px`;
      board.wrap.appendChild(tip);
    }, 450);
  });
  board.svg.addEventListener('pointermove', (e) => {
    if (timer && e.pointerType !== 'mouse') {
      const name = board.nameAt(e);
      if (!name) clear();
    }
  });
  for (const t of ['pointerup', 'pointercancel', 'pointerleave']) {
    board.svg.addEventListener(t, () => {
      clear();
      if (tip) setTimeout(hide, 1200);
    });
  }
}

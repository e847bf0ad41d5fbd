// A board snapshot (PLAN.md Contract 1 shape) read from a position string's board field,
// for pictures of start positions when the server sends only the string and the geometry.

import { drawingKey } from './pieces.js';

const WORDS = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn', s: 'spy' };

export function kindOf(variant, letter) {
  const l = letter.toLowerCase();
  if (variant && variant.startsWith('little-cheops')) return drawingKey(l);
  return WORDS[l] || l;
}

function marksOf(variant, f, r, g) {
  if (variant !== 'cypher') return [];
  if (f === 0 || r === 0 || f === g.width - 1 || r === g.height - 1) return ['court'];
  if (r === (g.height - 1) / 2) return ['border'];
  return ['field'];
}

/** The snapshot of `fen` (its first field) on `geometry`, or null if the string does not fit. */
export function snapshotFromFen(variant, geometry, fen) {
  if (!geometry || !fen) return null;
  const W = geometry.width;
  const H = geometry.height;
  const rows = String(fen).trim().split(/\s+/)[0].split('/');
  if (rows.length !== H) return null;
  const squares = [];
  for (let r = 0; r < H; r++) for (let f = 0; f < W; f++) {
    squares.push({ name: `${geometry.files[f]}${geometry.ranks[r]}`, file: f, rank: r, piece: null, marks: marksOf(variant, f, r, geometry) });
  }
  for (let i = 0; i < H; i++) {
    const rank = H - 1 - i;
    let f = 0;
    const m = rows[i].match(/\d+|[A-Za-z]|./g) || [];
    for (const tok of m) {
      if (/^\d+$/.test(tok)) f += Number(tok);
      else if (/[A-Za-z]/.test(tok)) {
        if (f < W) {
          squares[rank * W + f].piece = { kind: kindOf(variant, tok), owner: tok === tok.toUpperCase() ? 'white' : 'black', letter: tok };
        }
        f++;
      }
    }
  }
  const side = String(fen).trim().split(/\s+/)[1];
  return { variant, geometry, squares, turn: side === 'b' ? 'black' : 'white', check: false, last_turn: [] };
}

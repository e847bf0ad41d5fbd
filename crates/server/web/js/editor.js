// The board editor, for every geometry: pick a piece from the palette (or the eraser) and
// point at squares, choose the side to move and the game's other fields (castling, Cypher's
// pools and re-take, Little Cheops' Castles and papers, ...), then use the position. The
// server checks it: an impossible position is refused with the library's own sentence.

import { api, esc } from './api.js';
import { Board } from './board.js';
import { snapshotFromFen, kindOf } from './snapshot.js';
import { pieceIcon } from './pieces.js';
import { kindName } from './legend.js';

// the board letters of each game's pieces (Little Cheops' come from its piece table)
const LETTERS = { chess: 'KQRBNP', vyrt: 'KQRBNP', cypher: 'KQRBNPS' };

// the names of the position string's fields after the board and the side to move
const FIELDS = {
  chess: ['castling', 'en passant', 'halfmove', 'fullmove'],
  vyrt: ['castling', 'en passant', 'double-step rights', 'halfmove', 'fullmove'],
  cypher: ['re-take', 'infiltration', 'checks', 'pools', 'halfmove', 'fullmove'],
  'little-cheops': ['halfmove', 'fullmove'],
  'little-cheops-imperial': ['Castles', 'known Deputies', 'halfmove', 'fullmove', 'sealed papers'],
};

/** The board letters the palette offers for `info` (an /api/variants entry). */
export function paletteLetters(info) {
  if (LETTERS[info.id]) return LETTERS[info.id].split('');
  const seen = [];
  for (const p of info.pieces || []) if (p.letter && !seen.includes(p.letter)) seen.push(p.letter);
  return seen;
}

/** The board field of a position string from a snapshot's squares (top rank first). */
export function boardField(snapshot) {
  const { width: W, height: H } = snapshot.geometry;
  const rows = [];
  for (let i = 0; i < H; i++) {
    const rank = H - 1 - i;
    let row = '';
    let empty = 0;
    for (let f = 0; f < W; f++) {
      const p = snapshot.squares[rank * W + f].piece;
      if (!p) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += p.letter;
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  return rows.join('/');
}

/**
 * Opens the editor in `container` for the game `info` at `fen` (its own start if empty).
 * `use(fen)` is called with a position the server accepted; `cancel()` closes without one.
 */
export function openEditor(container, { info, fen, rules, use, cancel }) {
  const start = String(fen || info.start_fen).trim();
  const fields = start.split(/\s+/);
  let snap = snapshotFromFen(info.id, info.geometry, start) || snapshotFromFen(info.id, info.geometry, info.start_fen);
  let tool = null; // a board letter, or '' for the eraser
  const names = FIELDS[info.id] || [];
  const extra = fields.slice(2);
  const box = document.createElement('section');
  box.className = 'editor';
  box.id = 'editor';
  box.setAttribute('aria-label', 'Board editor');
  const letters = paletteLetters(info);
  const swatch = (l) => {
    const owner = l === l.toUpperCase() ? 'white' : 'black';
    const kind = kindOf(info.id, l);
    const name = `${owner === 'white' ? 'White' : 'Black'} ${kindName(info.id, kind)}`;
    return `<button type="button" class="swatch" data-letter="${esc(l)}" aria-pressed="false" title="${esc(name)}" aria-label="${esc(name)}">${pieceIcon({ kind, owner }, 30)}</button>`;
  };
  box.innerHTML = `<h2>Set up a position: ${esc(info.name || info.id)}</h2>
    <div class="palette" role="toolbar" aria-label="Pieces">
      <div class="row">${letters.map((l) => swatch(l.toUpperCase())).join('')}</div>
      <div class="row">${letters.map((l) => swatch(l.toLowerCase())).join('')}</div>
      <div class="row"><button type="button" class="swatch eraser" data-letter="" aria-pressed="false">Eraser</button>
        <button type="button" id="editor-clear">Empty board</button><button type="button" id="editor-start">Start position</button></div>
    </div>
    <div id="editor-board"></div>
    <fieldset class="editor-fields"><legend>Position</legend>
      <label><input type="radio" name="editor-side" value="w"${fields[1] !== 'b' ? ' checked' : ''}> White to move</label>
      <label><input type="radio" name="editor-side" value="b"${fields[1] === 'b' ? ' checked' : ''}> Black to move</label>
      ${extra.map((v, i) => `<label>${esc(names[i] || `field ${i + 3}`)} <input data-field="${i}" value="${esc(v)}" spellcheck="false" autocapitalize="off"></label>`).join('')}
    </fieldset>
    <p class="reason" id="editor-error" role="alert"></p>
    <p><code id="editor-fen"></code></p>
    <div class="row"><button type="button" class="primary" id="editor-use">Use this position</button> <button type="button" id="editor-cancel">Cancel</button></div>`;
  container.prepend(box);
  const $ = (s) => box.querySelector(s);
  const board = new Board($('#editor-board'), {});
  const fenNow = () => {
    const side = box.querySelector('input[name="editor-side"]:checked').value;
    const rest = [...box.querySelectorAll('[data-field]')].map((i) => i.value.trim() || '-');
    return [boardField(snap), side, ...rest].join(' ');
  };
  const draw = () => {
    board.set({ board: snap, variant: info.id });
    $('#editor-fen').textContent = fenNow();
  };
  const place = (name) => {
    if (tool === null) return;
    const sq = snap.squares.find((s) => s.name === name);
    if (!sq) return;
    const same = sq.piece && sq.piece.letter === tool;
    sq.piece = tool && !same ? { kind: kindOf(info.id, tool), owner: tool === tool.toUpperCase() ? 'white' : 'black', letter: tool } : null;
    $('#editor-error').textContent = '';
    draw();
  };
  board.svg.addEventListener('pointerup', (e) => {
    const name = board.nameAt(e);
    if (name) place(name);
  });
  board.svg.addEventListener('keydown', (e) => {
    if ((e.key === 'Enter' || e.key === ' ') && board.cursor) place(board.cursor);
  });
  for (const b of box.querySelectorAll('.swatch')) {
    b.addEventListener('click', () => {
      tool = b.dataset.letter;
      for (const o of box.querySelectorAll('.swatch')) o.setAttribute('aria-pressed', String(o === b));
    });
  }
  $('#editor-clear').addEventListener('click', () => {
    for (const sq of snap.squares) sq.piece = null;
    draw();
  });
  $('#editor-start').addEventListener('click', () => {
    snap = snapshotFromFen(info.id, info.geometry, info.start_fen);
    draw();
  });
  box.addEventListener('input', () => ($('#editor-fen').textContent = fenNow()));
  $('#editor-use').addEventListener('click', async () => {
    const text = fenNow();
    try {
      await api('POST', '/api/position', { variant: info.id, fen: text, rules: rules || {} });
    } catch (e) {
      $('#editor-error').textContent = e.message;
      return;
    }
    box.remove();
    use(text);
  });
  $('#editor-cancel').addEventListener('click', () => {
    box.remove();
    cancel();
  });
  draw();
  return box;
}

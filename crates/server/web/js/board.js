// The board widget: one SVG board for every game, drawn from the server's snapshot
// (PLAN.md Contract 1: geometry, squares with names, pieces and marks).
// Pointing at squares enters turns by matching the `parts` of the legal turns.

import { pieceSvg, pieceIcon, drawingKey, LETTER_KINDS } from './pieces.js';
import { matchClicks, isCaptureStep, previewBoard, plainMoveText, pointsOf } from './turns.js';
import { pieceTitle } from './legend.js';
import { byStrength } from './premove.js';

const S = 100; // one square in SVG units
const LABEL = 40; // the coordinate band
const GHOST = 50; // how much of a ghost row/column shows on a torus
const SVGNS = 'http://www.w3.org/2000/svg';

const mod = (a, n) => ((a % n) + n) % n;
let boards = 0;

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const MARK_TEXT = {
  court: 'Court',
  border: 'Border',
  field: 'Field',
  bastion: 'bastion',
  chair: 'chair',
  room: 'room',
  'castle-active': 'active Castle',
  'castle-inactive': 'inactive Castle',
  'castle-white': "White's Castle",
  'castle-black': "Black's Castle",
  arrestee: 'arrestee',
  'deputy-known': 'known Deputy',
  'deputy-sealed': 'your sealed Deputy',
};

/** The board widget. */
export class Board {
  /**
   * @param {HTMLElement} container where the board goes
   * @param {object} opts `{ onTurn(turn), onAttempt(text), orientation, squareNames }`
   */
  constructor(container, opts = {}) {
    this.container = container;
    this.uid = `b${++boards}`;
    this.opts = opts;
    this.orientation = opts.orientation || 'white';
    this.squareNames = !!opts.squareNames;
    this.offset = { x: 0, y: 0 };
    this.snapshot = null;
    this.legal = [];
    this.mover = null;
    this.variant = null;
    this.interactive = false;
    this.clicks = [];
    this.cursor = null;
    this.chooser = null;
    this.wrap = document.createElement('div');
    this.wrap.className = 'board-wrap';
    this.svg = document.createElementNS(SVGNS, 'svg');
    this.svg.setAttribute('class', 'board');
    this.svg.setAttribute('tabindex', '0');
    this.svg.setAttribute('role', 'application');
    this.svg.setAttribute('aria-label', 'Board');
    this.wrap.appendChild(this.svg);
    this.overlay = document.createElement('div');
    this.overlay.className = 'board-overlay';
    this.wrap.appendChild(this.overlay);
    this.actions = document.createElement('div');
    this.actions.className = 'board-actions';
    container.appendChild(this.wrap);
    container.appendChild(this.actions);
    this.svg.addEventListener('pointerdown', (e) => this.onPointerDown(e));
    this.svg.addEventListener('keydown', (e) => this.onKey(e));
    this.svg.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  /**
   * Show a position: `{ board, legal, mover, variant, interactive }`.
   * `legal` are the TurnInfo objects the viewer may play now; `mover` their side.
   */
  set({ board, legal = [], mover = null, variant = null, interactive = false }) {
    const geomChanged =
      !this.snapshot ||
      this.snapshot.geometry.width !== board.geometry.width ||
      this.snapshot.geometry.height !== board.geometry.height;
    const key = JSON.stringify([board.squares.map((s) => s.piece && `${s.piece.owner}${s.piece.kind}`), board.turn, (legal || []).map((t) => t.canonical), interactive]);
    const same = key === this.key;
    this.key = key;
    this.snapshot = board;
    this.legal = legal || [];
    this.mover = mover;
    this.variant = variant || board.variant;
    this.interactive = interactive;
    if (geomChanged) this.offset = { x: 0, y: 0 };
    if (same && this.chooser) return; // the same position again: leave the open chooser alone
    if (!same) {
      this.clicks = [];
      this.closeChooser();
    }
    this.render();
  }

  /** Turn the board round. */
  flip() {
    this.orientation = this.orientation === 'white' ? 'black' : 'white';
    this.render();
  }

  /** Show the board from `color`'s side. */
  setOrientation(color) {
    this.orientation = color === 'black' ? 'black' : 'white';
    this.render();
  }

  /** Write every square's name on it, or not. */
  setSquareNames(on) {
    this.squareNames = !!on;
    this.render();
  }

  /** Whether the board wraps round (a torus). */
  get wraps() {
    const g = this.snapshot && this.snapshot.geometry;
    return !!(g && (g.wrap_files || g.wrap_ranks));
  }

  /** Move a torus's view by whole squares as the eye sees it (right and down positive). */
  pan(dc, drow) {
    if (!this.wraps) return;
    const g = this.snapshot.geometry;
    const flipped = this.orientation === 'black';
    if (g.wrap_files) this.offset.x = mod(this.offset.x + (flipped ? dc : -dc), g.width);
    if (g.wrap_ranks) this.offset.y = mod(this.offset.y + (flipped ? -drow : drow), g.height);
    this.render();
  }

  /** Back to the standard view of a torus. */
  resetView() {
    this.offset = { x: 0, y: 0 };
    this.render();
  }

  // ----- geometry -----

  shown() {
    return previewBoard(this.snapshot, this.previewTurn(), this.clicks);
  }

  previewTurn() {
    if (this.clicks.length < 2) return null;
    const m = matchClicks(this.legal, this.clicks);
    return m.candidates[0] || null;
  }

  // ----- drawing -----

  render() {
    if (!this.snapshot) return;
    const g = this.snapshot.geometry;
    const W = g.width;
    const H = g.height;
    const gx = g.wrap_files ? GHOST : 0;
    const gy = g.wrap_ranks ? GHOST : 0;
    const x0 = -(LABEL + gx);
    const y0 = -gy;
    const vw = W * S + LABEL + 2 * gx;
    const vh = H * S + LABEL + 2 * gy;
    this.svg.setAttribute('viewBox', `${x0} ${y0} ${vw} ${vh}`);
    this.svg.dataset.variant = this.variant || '';
    this.svg.dataset.orientation = this.orientation;
    this.svg.dataset.offset = `${this.offset.x},${this.offset.y}`;
    const board = this.shown();
    const m = this.interactive ? matchClicks(this.legal, this.clicks) : null;
    // the last turn stays marked while a piece is picked (as lichess keeps it)
    const last = new Set(this.snapshot.last_turn || []);
    const checked = this.checkedKing(board);
    const selected = new Set(this.clicks);
    const parts = [];
    parts.push(`<defs><clipPath id="${this.uid}clip"><rect x="${-gx}" y="${-gy}" width="${W * S + 2 * gx}" height="${H * S + 2 * gy}"/></clipPath></defs>`);
    parts.push(`<g clip-path="url(#${this.uid}clip)">`);
    for (let row = -1; row <= H; row++) {
      for (let c = -1; c <= W; c++) {
        const ghost = row < 0 || row >= H || c < 0 || c >= W;
        if (ghost) {
          const colGhost = c < 0 || c >= W;
          const rowGhost = row < 0 || row >= H;
          if ((colGhost && !g.wrap_files) || (rowGhost && !g.wrap_ranks)) continue;
        }
        const sq = this.squareAtWrapped(board, c, row);
        if (!sq) continue;
        parts.push(this.squareSvg(sq, c, row, ghost, { m, last, checked, selected }));
      }
    }
    parts.push('</g>');
    // coordinates on the left and bottom edges
    for (let row = 0; row < H; row++) {
      const sq = this.squareAtWrapped(board, 0, row);
      parts.push(`<text class="coord rank" x="${-gx - LABEL / 2}" y="${row * S + S / 2 + 9}" text-anchor="middle">${esc(g.ranks[sq.rank])}</text>`);
    }
    for (let c = 0; c < W; c++) {
      const sq = this.squareAtWrapped(board, c, 0);
      parts.push(`<text class="coord file" x="${c * S + S / 2}" y="${H * S + gy + LABEL - 8}" text-anchor="middle">${esc(g.files[sq.file])}</text>`);
    }
    this.svg.innerHTML = parts.join('');
    this.renderActions(m);
  }

  squareAtWrapped(board, c, row) {
    const g = board.geometry;
    const flipped = this.orientation === 'black';
    let f = flipped ? g.width - 1 - c : c;
    let r = flipped ? row : g.height - 1 - row;
    f = g.wrap_files ? mod(f + this.offset.x, g.width) : f;
    r = g.wrap_ranks ? mod(r + this.offset.y, g.height) : r;
    if (f < 0 || f >= g.width || r < 0 || r >= g.height) return null;
    return board.squares[r * g.width + f] || null;
  }

  checkedKing(board) {
    if (!board.check) return null;
    const sq = board.squares.find((s) => s.piece && drawingKey(s.piece.kind) === 'king' && s.piece.owner === board.turn);
    return sq ? sq.name : null;
  }

  squareSvg(sq, c, row, ghost, { m, last, checked, selected }) {
    const marks = sq.marks || [];
    const dark = (sq.file + sq.rank) % 2 === 0;
    const cls = ['sq', dark ? 'dark' : 'light', ...marks.map((k) => `m-${k}`)];
    if (ghost) cls.push('ghost');
    const x = c * S;
    const y = row * S;
    const attr = ghost ? `data-ghost="${esc(sq.name)}"` : `data-square="${esc(sq.name)}"`;
    const label = [sq.name, sq.piece ? pieceTitle(sq.piece, this.variant) : 'empty', ...marks.map((k) => MARK_TEXT[k] || k)].join(', ');
    const out = [`<g class="${cls.join(' ')}" ${attr} transform="translate(${x},${y})"${ghost ? ' aria-hidden="true"' : ` role="img" aria-label="${esc(label)}"`}>`];
    if (sq.piece) out.push(`<title>${esc(pieceTitle(sq.piece, this.variant))}</title>`);
    out.push(`<rect class="base" width="${S}" height="${S}"/>`);
    if (marks.includes('castle-active') || marks.includes('castle-inactive')) out.push(`<rect class="castle" width="${S}" height="${S}"/>`);
    if (marks.includes('room')) out.push(`<rect class="mk-room" x="8" y="8" width="${S - 16}" height="${S - 16}"/>`);
    if (marks.includes('bastion')) out.push(`<rect class="mk-bastion" x="5" y="5" width="${S - 10}" height="${S - 10}"/>`);
    if (marks.includes('chair')) out.push('<path class="mk-chair" d="M6 6h8v18h14v8H24v10h-6V32h-4v10H6z"/>');
    if (!ghost) {
      if (last.has(sq.name)) out.push(`<rect class="hl-last" width="${S}" height="${S}"/>`);
      if (selected.has(sq.name)) out.push(`<rect class="hl-selected" width="${S}" height="${S}"/>`);
      if (checked === sq.name) out.push(`<circle class="hl-check" cx="50" cy="50" r="48"/>`);
      if (this.cursor === sq.name) out.push(`<rect class="hl-cursor" x="3" y="3" width="${S - 6}" height="${S - 6}"/>`);
    }
    if (this.squareNames) out.push(`<text class="sqname" x="4" y="${S - 6}">${esc(sq.name)}</text>`);
    if (sq.piece) out.push(pieceSvg(sq.piece));
    if (marks.includes('arrestee')) out.push('<g class="mk-arrestee"><circle cx="50" cy="50" r="44"/><path d="M78 10h14v12H78z M81 10v-4a4 4 0 0 1 8 0v4"/></g>');
    if (marks.includes('deputy-known')) out.push('<g class="mk-deputy-known"><circle cx="82" cy="18" r="16"/><text x="82" y="25" text-anchor="middle">D</text></g>');
    if (marks.includes('deputy-sealed')) out.push('<g class="mk-deputy-sealed"><circle cx="82" cy="18" r="16"/><text x="82" y="25" text-anchor="middle">D</text><title>your sealed Deputy (only you see this)</title></g>');
    // target dots on the torus's ghost squares too: a click there points at the square they show
    if (m && m.next.has(sq.name) && this.clicks.length > 0) {
      const capture = isCaptureStep(m.next.get(sq.name), sq.name, this.snapshot, this.mover);
      out.push(capture ? '<circle class="dest capture" cx="50" cy="50" r="44"/>' : '<circle class="dest" cx="50" cy="50" r="15"/>');
    } else if (!ghost && m && this.clicks.length === 0 && m.next.has(sq.name) && !sq.piece) {
      out.push('<circle class="dest start" cx="50" cy="50" r="10"/>');
    }
    out.push('</g>');
    return out.join('');
  }

  // ----- the action bar: complete turns while longer ones go on, and turns with no squares -----

  renderActions(m) {
    this.actions.innerHTML = '';
    if (!m) return;
    const buttons = [];
    if (this.clicks.length > 0 && m.next.size > 0 && m.complete.length > 0) {
      for (const t of m.complete) buttons.push(t);
    }
    if (this.clicks.length === 0) {
      for (const t of this.legal) if (pointsOf(t).length === 0) buttons.push(t);
    }
    for (const t of buttons) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'turn-option';
      b.dataset.canonical = t.canonical;
      b.textContent = t.kind === 'claim' ? `Claim: ${t.human}` : `Play ${t.human}`;
      b.addEventListener('click', () => this.emit(t));
      this.actions.appendChild(b);
    }
    if (this.clicks.length > 0) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'cancel';
      b.textContent = 'Cancel';
      b.addEventListener('click', () => this.cancel());
      this.actions.appendChild(b);
    }
  }

  // ----- pointing -----

  cancel() {
    this.clicks = [];
    this.closeChooser();
    this.render();
  }

  isMoverPiece(name) {
    const sq = this.snapshot.squares.find((s) => s.name === name);
    return !!(sq && sq.piece && this.mover && sq.piece.owner === this.mover);
  }

  /** Point at a square (a click, a tap, or the end of a drag). */
  click(name) {
    if (!this.interactive || !this.snapshot) return;
    this.closeChooser();
    const m = matchClicks(this.legal, this.clicks);
    if (m.next.has(name)) {
      this.clicks.push(name);
      this.advance();
      return;
    }
    if (this.clicks.length === 1 && this.clicks[0] === name) {
      this.cancel();
      return;
    }
    const first = matchClicks(this.legal, []);
    const attemptFrom = this.clicks.length === 1 && this.isMoverPiece(this.clicks[0]) ? this.clicks[0] : null;
    if (this.isMoverPiece(name) || (this.clicks.length > 0 && first.next.has(name) && !attemptFrom)) {
      // (re)select: any piece of the side to move may be picked up, even one with no legal turn,
      // so that an attempt with it gets the rule's reason
      this.clicks = [];
      if (first.next.has(name)) {
        this.clicks.push(name);
        this.advance();
      } else {
        this.clicks = [name];
        this.render();
      }
      return;
    }
    if (attemptFrom) {
      this.clicks = [];
      this.render();
      if (this.opts.onAttempt) this.opts.onAttempt(plainMoveText(this.variant, attemptFrom, name), attemptFrom, name);
      return;
    }
    if (this.clicks.length === 0 && first.next.has(name)) {
      this.clicks.push(name);
      this.advance();
      return;
    }
    this.cancel();
  }

  advance() {
    const m = matchClicks(this.legal, this.clicks);
    if (m.next.size === 0) {
      if (m.complete.length === 1 && this.clicks.length > 1) {
        this.emit(m.complete[0]);
      } else if (m.complete.length >= 1) {
        this.render();
        this.openChooser(m.complete);
      } else {
        this.cancel();
      }
      return;
    }
    this.render();
  }

  emit(turn) {
    this.closeChooser();
    this.clicks = [];
    this.render();
    if (this.opts.onTurn) this.opts.onTurn(turn);
  }

  /** A small chooser listing several turns that share the squares pointed at. */
  openChooser(turns) {
    this.closeChooser();
    const box = document.createElement('div');
    box.className = 'chooser';
    box.setAttribute('role', 'dialog');
    box.setAttribute('aria-label', 'Choose a turn');
    const kinds = LETTER_KINDS[this.variant] || {};
    const mover = this.mover || 'white';
    for (const t of byStrength(turns)) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'choice';
      b.dataset.canonical = t.canonical;
      const promo = (t.parts || []).map((p) => p.promotion).find((p) => p);
      const kind = promo ? kinds[String(promo).toUpperCase()] : null;
      b.innerHTML = `${kind ? pieceIcon({ kind, owner: mover }, 34) : ''}<span>${esc(t.human)}</span>`;
      b.addEventListener('click', () => {
        this.clicks = [];
        this.emit(t);
        this.render();
      });
      box.appendChild(b);
    }
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'cancel';
    cancel.textContent = 'Cancel';
    cancel.addEventListener('click', () => this.cancel());
    box.appendChild(cancel);
    this.overlay.appendChild(box);
    this.chooser = box;
    const firstBtn = box.querySelector('button');
    if (firstBtn) firstBtn.focus();
  }

  closeChooser() {
    if (this.chooser) this.chooser.remove();
    this.chooser = null;
  }

  // ----- pointer and keyboard -----

  svgPoint(e) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    return p;
  }

  /** The real square's name under a pointer event (ghost squares count as the square they show). */
  nameAt(e) {
    const p = this.svgPoint(e);
    if (!p || !this.snapshot) return null;
    const g = this.snapshot.geometry;
    const c = Math.floor(p.x / S);
    const row = Math.floor(p.y / S);
    if ((c < 0 || c >= g.width) && !(g.wrap_files && c >= -1 && c <= g.width)) return null;
    if ((row < 0 || row >= g.height) && !(g.wrap_ranks && row >= -1 && row <= g.height)) return null;
    const sq = this.squareAtWrapped(this.snapshot, c, row);
    return sq ? sq.name : null;
  }

  onPointerDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    const name = this.nameAt(e);
    const start = this.svgPoint(e);
    if (!start) return;
    const m = this.interactive ? matchClicks(this.legal, this.clicks) : null;
    const sq = name ? this.snapshot.squares.find((s) => s.name === name) : null;
    const canPick = !!(m && sq && sq.piece && (this.isMoverPiece(name) || m.next.has(name)) && !(this.clicks.length && m.next.has(name) && !this.isMoverPiece(name)));
    const panning = !canPick && this.wraps;
    let dragged = false;
    let floating = null;
    let panned = { c: 0, r: 0 };
    this.svg.setPointerCapture && e.pointerId !== undefined && this.svg.setPointerCapture(e.pointerId);
    const move = (ev) => {
      const p = this.svgPoint(ev);
      if (!p) return;
      const dx = p.x - start.x;
      const dy = p.y - start.y;
      if (!dragged && Math.hypot(dx, dy) < S * 0.2) return;
      dragged = true;
      if (canPick) {
        if (!floating) {
          if (this.clicks[0] !== name) {
            this.click(name);
          }
          const g = document.createElementNS(SVGNS, 'g');
          g.setAttribute('class', 'floating');
          g.innerHTML = pieceSvg(sq.piece);
          this.svg.appendChild(g);
          floating = g;
          const orig = this.svg.querySelector(`[data-square="${CSS.escape(name)}"] .piece`);
          if (orig) orig.classList.add('lifted');
        }
        floating.setAttribute('transform', `translate(${p.x - S / 2},${p.y - S / 2})`);
      } else if (panning) {
        const c = Math.round(dx / S);
        const r = Math.round(dy / S);
        if (c !== panned.c || r !== panned.r) {
          this.pan(c - panned.c, r - panned.r);
          panned = { c, r };
        }
      }
    };
    const up = (ev) => {
      this.svg.removeEventListener('pointermove', move);
      this.svg.removeEventListener('pointerup', up);
      this.svg.removeEventListener('pointercancel', up);
      if (floating) floating.remove();
      if (ev.type === 'pointercancel') {
        this.render();
        return;
      }
      if (!dragged) {
        if (name) this.click(name);
        return;
      }
      if (canPick) {
        const target = this.nameAt(ev);
        if (target && target !== name) this.click(target);
        else this.render();
      }
    };
    this.svg.addEventListener('pointermove', move);
    this.svg.addEventListener('pointerup', up);
    this.svg.addEventListener('pointercancel', up);
    e.preventDefault();
  }

  /** Moves the keyboard cursor by whole squares as the eye sees it. */
  moveCursor(dc, drow) {
    const g = this.snapshot.geometry;
    let pos = { c: Math.floor(g.width / 2), row: g.height - 1 };
    for (let row = 0; row < g.height && this.cursor; row++) {
      for (let c = 0; c < g.width; c++) {
        const sq = this.squareAtWrapped(this.snapshot, c, row);
        if (sq && sq.name === this.cursor) pos = { c, row };
      }
    }
    if (this.cursor) {
      pos.c = Math.max(0, Math.min(g.width - 1, pos.c + dc));
      pos.row = Math.max(0, Math.min(g.height - 1, pos.row + drow));
    }
    const sq = this.squareAtWrapped(this.snapshot, pos.c, pos.row);
    this.cursor = sq ? sq.name : null;
    this.render();
  }

  onKey(e) {
    const keys = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (keys[e.key] && this.wraps && !e.shiftKey) {
      // a torus: the arrows turn the view; with Shift they move the cursor
      this.pan(...keys[e.key]);
      e.preventDefault();
    } else if (steps[e.key]) {
      this.moveCursor(...steps[e.key]);
      e.preventDefault();
    } else if ((e.key === 'Enter' || e.key === ' ') && this.cursor) {
      this.click(this.cursor);
      e.preventDefault();
    } else if (e.key === 'Escape') {
      this.cancel();
    } else if ((e.key === 'Home' || e.key === '0') && this.wraps) {
      this.resetView();
      e.preventDefault();
    }
  }
}

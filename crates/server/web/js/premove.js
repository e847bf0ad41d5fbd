// Premoves: on the opponent's turn a player may queue one turn by pointing at its squares,
// as it would point on its own turn (a piece of its own, then a square; or a drag; and for the
// turns of several parts, their further squares: a Cypher combined move, a hop chain, a
// drop). When its turn comes the queued turn is played at once if it is legal then (the
// strongest promotion first), and dropped otherwise; a right-click, Escape or pointing at the
// last square again cancels it. Never in Little Cheops Imperial, where whether a turn is legal
// may depend on what the player cannot see.

import { matchClicks } from './turns.js';

/** Games where premoves are not offered. */
export const NO_PREMOVES = new Set(['little-cheops-imperial']);

// the promotion choices, strongest first, by board letter (the chooser's order too)
const STRENGTH = 'QEURBTOIDNMSAC';

/** Turns sharing the same squares, the strongest promotion first (the chooser's order). */
export function byStrength(turns) {
  const rank = (t) => {
    const p = (t.parts || []).map((x) => x.promotion).find((x) => x);
    if (!p) return -1;
    const i = STRENGTH.indexOf(String(p).toUpperCase());
    return i < 0 ? STRENGTH.length : i;
  };
  return [...turns].sort((a, b) => rank(a) - rank(b));
}

/** Of several turns sharing the same squares, the one a premove plays: the strongest promotion. */
export function preferred(turns) {
  return byStrength(turns)[0] || null;
}

/** The longest squares a premove keeps (the longest turn pointed at has fewer). */
const MAX_SQUARES = 8;

/** The squares of a premove in words: `e2 to e4`, `z1, a1, c1 then a0`. */
function squaresText(clicks) {
  if (clicks.length <= 2) return clicks.join(' to ');
  return `${clicks.slice(0, -1).join(', ')} then ${clicks[clicks.length - 1]}`;
}

/**
 * The turn a premove's squares enter among `legal`: the turn pointed at by all of them, else
 * by the longest run of them that ends with the last and starts where `mayStart(square)` (a
 * player who pointed again at a piece of its own meant a new premove); squares that begin
 * exactly one legal turn enter that turn. Several turns on the same squares: the strongest promotion if
 * they are promotions, else none (the player chooses on its own turn). Returns
 * `{turn, squares}` or `{turn: null, ambiguous}`.
 */
export function premoveTurn(legal, clicks, mayStart = () => true) {
  for (let i = 0; i < clicks.length; i++) {
    if (i > 0 && !mayStart(clicks[i])) continue;
    const squares = clicks.slice(i);
    const m = matchClicks(legal || [], squares);
    // squares that begin one turn only (a castling pointed at by its King alone) enter it
    const complete = m.complete.length ? m.complete : m.candidates.length === 1 && squares.length >= 2 ? m.candidates : [];
    if (!complete.length) continue;
    const promotions = complete.every((t) => (t.parts || []).some((p) => p.promotion));
    if (complete.length === 1 || promotions) return { turn: preferred(complete), squares };
    return { turn: null, ambiguous: complete, squares };
  }
  return { turn: null };
}

/** The premove of a board. */
export class Premove {
  /**
   * @param {Board} board the board widget
   * @param {object} opts `{ active(): bool, side(): 'white'|'black', send(canonical), say(text) }`
   */
  constructor(board, opts) {
    this.board = board;
    this.opts = opts;
    this.clicks = []; // the squares pointed at so far
    const render = board.render.bind(board);
    board.render = () => {
      render();
      this.mark();
    };
    let down = null;
    board.svg.addEventListener('pointerdown', (e) => {
      down = this.opts.active() && (e.button === undefined || e.button === 0) ? board.nameAt(e) : null;
    });
    board.svg.addEventListener('pointerup', (e) => {
      if (!down || !this.opts.active()) return;
      const up = board.nameAt(e);
      const start = down;
      down = null;
      if (up && up !== start && this.isOwn(start)) {
        // a drag: a piece of one's own to a square
        if (this.clicks[this.clicks.length - 1] !== start) this.add(start, false);
        this.add(up, true);
      } else if (up === start) {
        this.point(up);
      }
    });
    board.svg.addEventListener('contextmenu', () => this.cancel());
    board.svg.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.cancel();
      else if ((e.key === 'Enter' || e.key === ' ') && board.cursor && this.opts.active()) this.point(board.cursor);
    });
  }

  /** The first square pointed at (kept for callers of the earlier two-square premove). */
  get from() {
    return this.clicks.length === 1 ? this.clicks[0] : null;
  }

  /** The queued squares, once there are two or more. */
  get queued() {
    return this.clicks.length >= 2 ? { from: this.clicks[0], to: this.clicks[this.clicks.length - 1], squares: [...this.clicks] } : null;
  }

  isOwn(name) {
    const sq = this.board.snapshot && this.board.snapshot.squares.find((s) => s.name === name);
    return !!(sq && sq.piece && sq.piece.owner === this.opts.side());
  }

  /** A square pointed at on the opponent's turn. */
  point(name) {
    if (this.clicks.length && this.clicks[this.clicks.length - 1] === name) this.cancel();
    else if (!this.clicks.length && this.board.snapshot && !this.isOwn(name) && this.pieceOn(name)) this.cancel();
    else this.add(name, true);
  }

  pieceOn(name) {
    const sq = this.board.snapshot && this.board.snapshot.squares.find((s) => s.name === name);
    return !!(sq && sq.piece);
  }

  add(name, tell) {
    this.clicks.push(name);
    if (this.clicks.length > MAX_SQUARES) this.clicks.shift();
    this.board.render();
    if (!tell) return;
    if (this.clicks.length >= 2) this.opts.say(`Premove ${squaresText(this.clicks)}: played when your turn comes if it is legal then (right-click or Escape cancels).`);
  }

  /** Drops the premove. */
  cancel() {
    if (!this.clicks.length) return;
    this.clicks = [];
    this.board.render();
    this.opts.say('');
  }

  /** Marks the premove's squares on the freshly drawn board. */
  mark() {
    for (const n of new Set(this.clicks)) {
      const g = this.board.svg.querySelector(`[data-square="${CSS.escape(n)}"]`);
      if (!g) continue;
      g.classList.add('premove');
      const r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
      r.setAttribute('class', 'hl-premove');
      r.setAttribute('width', '100');
      r.setAttribute('height', '100');
      const base = g.querySelector('.base');
      if (base) base.after(r);
    }
  }

  /**
   * The player's turn has come with `legal` turns: plays the queued premove if its squares
   * enter one of them; returns whether one was sent.
   */
  onTurn(legal) {
    const clicks = this.clicks;
    if (!clicks.length) return false;
    this.clicks = [];
    const found = premoveTurn(legal, clicks, (sq) => this.isOwn(sq));
    if (!found.turn) {
      this.board.render();
      // a single stray square pointed at is no premove worth a sentence
      if (clicks.length < 2 && !found.ambiguous) return false;
      const why = found.ambiguous ? `several turns use these squares (${found.ambiguous.map((t) => t.human).join(', ')}); choose one now` : 'it is not legal now';
      this.opts.say(`Premove ${squaresText(clicks)} cancelled: ${why}.`);
      return false;
    }
    this.opts.say('');
    this.opts.send(found.turn.canonical);
    return true;
  }
}

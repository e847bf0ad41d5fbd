// Premoves: on the opponent's turn a player may queue one turn by pointing (a piece of its
// own, then the squares of the turn as it would point them on its own turn: a move's square,
// the further parts of a Cypher turn, a hop chain's landings, an arrest's room; or a drag; or
// the piece itself twice for a turn in place). When its turn comes the queued squares are
// played at once if exactly those squares make a legal turn then (the strongest promotion
// first), and dropped otherwise; a right-click or Escape cancels it. Never in Little Cheops
// Imperial, where whether a turn is legal may depend on what the player cannot see.

import { matchClicks } from './turns.js';

/** Games where premoves are not offered. */
export const NO_PREMOVES = new Set(['little-cheops-imperial']);

/**
 * Games where a turn's later part may start on another of the player's own pieces (Cypher's
 * Spy triggers): there, pointing at an own piece goes on with a queued premove; elsewhere it
 * starts a new one, as on lichess.
 */
export const OWN_PIECE_GOES_ON = new Set(['cypher']);

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

/** How a premove's squares read in a sentence: "e7 to e5", "d0 to d4, then b1, b0". */
export function describe(points) {
  if (points.length === 1) return `on ${points[0]}`;
  const head = `${points[0]} to ${points[1]}`;
  return points.length > 2 ? `${head}, then ${points.slice(2).join(', ')}` : head;
}

/** The premove of a board. */
export class Premove {
  /**
   * @param {Board} board the board widget
   * @param {object} opts `{ active(): bool, side(): 'white'|'black', variant(): id, send(canonical), say(text) }`
   */
  constructor(board, opts) {
    this.board = board;
    this.opts = opts;
    this.from = null; // a picked piece, before the second square
    this.queued = null; // the squares pointed at, in order (at least the piece and one more, or the piece twice)
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
        this.queue([start, up]);
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

  isOwn(name) {
    const sq = this.board.snapshot && this.board.snapshot.squares.find((s) => s.name === name);
    return !!(sq && sq.piece && sq.piece.owner === this.opts.side());
  }

  /** A square pointed at on the opponent's turn. */
  point(name) {
    const q = this.queued;
    if (q && this.isOwn(name) && !q.includes(name) && !OWN_PIECE_GOES_ON.has(this.opts.variant && this.opts.variant())) {
      // another piece of one's own: a new premove
      this.queued = null;
      this.from = name;
      this.board.render();
      this.opts.say('');
    } else if (q) {
      // a queued turn goes on (a Cypher turn's next part, a hop); its last square again ends it
      if (q.length === 1 || name === q[q.length - 1]) this.cancel();
      else this.queue([...q, name]);
    } else if (this.from) {
      // the piece itself again: a turn in place (a flip, a promotion where it stands)
      this.queue(name === this.from ? [name] : [this.from, name]);
    } else if (this.isOwn(name)) {
      this.from = name;
      this.board.render();
    } else this.cancel();
  }

  queue(points) {
    this.from = null;
    this.queued = points;
    this.board.render();
    this.opts.say(`Premove ${describe(points)}: played when your turn comes if it is legal then (right-click or Escape cancels).`);
  }

  /** Drops the premove. */
  cancel() {
    if (!this.from && !this.queued) return;
    this.from = null;
    this.queued = null;
    this.board.render();
    this.opts.say('');
  }

  /** Marks the premove's squares on the freshly drawn board. */
  mark() {
    const names = this.queued ? [...new Set(this.queued)] : this.from ? [this.from] : [];
    for (const n of names) {
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
   * The player's turn has come with `legal` turns: plays the queued premove if exactly its
   * squares make one of them (several differing only by promotion: the strongest); returns
   * whether one was sent.
   */
  onTurn(legal) {
    const q = this.queued;
    if (!q) return false;
    this.queued = null;
    this.from = null;
    const turn = chosen(legal, q);
    if (!turn) {
      this.board.render();
      this.opts.say(`Premove ${describe(q)} cancelled: it is not legal now.`);
      return false;
    }
    this.opts.say('');
    this.opts.send(turn.canonical);
    return true;
  }
}

/**
 * The legal turn a premove's squares make: the only one whose squares are exactly these, or
 * of several that differ only by promotion the strongest; `null` when none, or when they
 * differ otherwise (the player could not have meant one of them by pointing alone).
 */
export function chosen(legal, points) {
  const complete = matchClicks(legal || [], points).complete;
  if (complete.length === 0) return null;
  const best = preferred(complete);
  const withoutPromotion = (t) => JSON.stringify((t.parts || []).map((p) => ({ ...p, promotion: null })));
  const shape = withoutPromotion(best);
  return complete.every((t) => withoutPromotion(t) === shape) ? best : null;
}

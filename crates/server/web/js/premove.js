// Premoves: on the opponent's turn a player may queue one turn by pointing (a piece of its
// own, then a square; or a drag). When its turn comes the queued turn is played at once if it
// is legal then (the strongest promotion first), and dropped otherwise; a right-click or
// Escape cancels it. Never in Little Cheops Imperial, where whether a turn is legal may depend
// on what the player cannot see.

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

/** The premove of a board. */
export class Premove {
  /**
   * @param {Board} board the board widget
   * @param {object} opts `{ active(): bool, side(): 'white'|'black', send(canonical), say(text) }`
   */
  constructor(board, opts) {
    this.board = board;
    this.opts = opts;
    this.from = null; // a picked piece, before the second square
    this.queued = null; // `{from, to}`
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
        this.queue(start, up);
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
    if (this.from && name !== this.from) this.queue(this.from, name);
    else if (this.from === name) this.cancel();
    else if (this.isOwn(name)) {
      this.queued = null;
      this.from = name;
      this.board.render();
    } else this.cancel();
  }

  queue(from, to) {
    this.from = null;
    this.queued = { from, to };
    this.board.render();
    this.opts.say(`Premove ${from} to ${to}: played when your turn comes if it is legal then (right-click or Escape cancels).`);
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
    const names = this.queued ? [this.queued.from, this.queued.to] : this.from ? [this.from] : [];
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
   * The player's turn has come with `legal` turns: plays the queued premove if one of them
   * matches its squares; returns whether one was sent.
   */
  onTurn(legal) {
    const q = this.queued;
    if (!q) return false;
    this.queued = null;
    this.from = null;
    const m = matchClicks(legal || [], [q.from, q.to]);
    const turn = preferred(m.complete);
    if (!turn) {
      this.board.render();
      this.opts.say(`Premove ${q.from} to ${q.to} cancelled: it is not legal now.`);
      return false;
    }
    this.opts.say('');
    this.opts.send(turn.canonical);
    return true;
  }
}

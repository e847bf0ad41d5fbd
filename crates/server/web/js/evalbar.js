// The analysis board's evaluation: a bar beside the board (White's share from the best
// line's score, as lichess draws it) and the best line's first turn as an arrow on the board.

import { pointsOf } from './turns.js';

const SVGNS = 'http://www.w3.org/2000/svg';

/** White's share of the bar (0..100) for a score `{cp}` or `{mate}` from the mover's side. */
export function whiteShare(score, turn) {
  if (!score) return 50;
  const sign = turn === 'black' ? -1 : 1;
  if (score.mate !== undefined) return sign * score.mate > 0 ? 100 : 0;
  const cp = sign * Number(score.cp || 0);
  // lichess' winning chances: 2 / (1 + e^(-0.00368208 cp)) - 1, in -1..1
  const chances = 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
  return Math.round(50 + 50 * chances);
}

/** The score from White's side, as text (`+0.35`, `#-3`). */
export function whiteScoreText(score, turn) {
  if (!score) return '';
  const sign = turn === 'black' ? -1 : 1;
  if (score.mate !== undefined) return `#${sign * score.mate}`;
  const cp = sign * Number(score.cp || 0);
  return `${cp >= 0 ? '+' : ''}${(cp / 100).toFixed(2)}`;
}

/** The bar and the arrow of one board. */
export class Evaluation {
  /** @param {Board} board the board widget; the bar goes before its wrap */
  constructor(board) {
    this.board = board;
    this.arrow = null; // `{from, to}`
    this.bar = document.createElement('div');
    this.bar.className = 'eval-bar';
    this.bar.id = 'eval-bar';
    this.bar.setAttribute('role', 'img');
    this.bar.hidden = true;
    this.bar.innerHTML = '<div class="eval-white"></div><span class="eval-text"></span>';
    board.wrap.classList.add('with-eval');
    board.wrap.prepend(this.bar);
    const render = board.render.bind(board);
    board.render = () => {
      render();
      this.draw();
    };
  }

  /** Shows the best line's score and first turn (`legal`: the position's turns). */
  set(line, turn, legal) {
    const share = whiteShare(line.score, turn);
    const text = whiteScoreText(line.score, turn);
    this.bar.hidden = false;
    this.bar.dataset.share = String(share);
    this.bar.dataset.score = text;
    this.bar.setAttribute('aria-label', `Evaluation ${text} (White's side)`);
    this.bar.querySelector('.eval-white').style.height = `${share}%`;
    this.bar.querySelector('.eval-text').textContent = text;
    const first = (line.pv_canonical || [])[0];
    const t = first && (legal || []).find((x) => x.canonical === first);
    const pts = t ? pointsOf(t) : [];
    this.arrow = pts.length >= 2 ? { from: pts[0], to: pts[pts.length - 1] } : null;
    this.draw();
  }

  /** Removes the bar's reading and the arrow (a new position). */
  clear() {
    this.bar.hidden = true;
    this.arrow = null;
    this.draw();
  }

  centre(name) {
    const g = this.board.svg.querySelector(`[data-square="${CSS.escape(name)}"]`);
    const m = g && g.transform && g.transform.baseVal.length ? g.transform.baseVal[0].matrix : null;
    return m ? { x: m.e + 50, y: m.f + 50 } : null;
  }

  draw() {
    const old = this.board.svg.querySelector('.best-arrow');
    if (old) old.remove();
    if (!this.arrow) return;
    const a = this.centre(this.arrow.from);
    const b = this.centre(this.arrow.to);
    if (!a || !b) return;
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const ux = (b.x - a.x) / len;
    const uy = (b.y - a.y) / len;
    const head = 34;
    const ex = b.x - ux * head * 0.8;
    const ey = b.y - uy * head * 0.8;
    const g = document.createElementNS(SVGNS, 'g');
    g.setAttribute('class', 'best-arrow');
    g.dataset.from = this.arrow.from;
    g.dataset.to = this.arrow.to;
    g.innerHTML = `<line x1="${a.x}" y1="${a.y}" x2="${ex}" y2="${ey}"/><path d="M${b.x} ${b.y}L${ex - uy * head * 0.6} ${ey + ux * head * 0.6}L${ex + uy * head * 0.6} ${ey - ux * head * 0.6}z"/>`;
    this.board.svg.appendChild(g);
  }
}

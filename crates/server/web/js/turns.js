// Entering turns by pointing: the squares a player clicks are matched against the
// `parts` of the legal turns (PLAN.md Contract 1). Pure functions, no DOM.

/**
 * The squares a player points at to enter a turn, in order: for every part its
 * `from`, `to` and `room` (when present), with a square repeated back to back
 * written once (a hop chain's landing square is the next hop's start).
 */
export function pointsOf(turn) {
  const pts = [];
  for (const p of turn.parts || []) {
    for (const sq of [p.from, p.to, p.room]) {
      if (sq != null && sq !== '' && pts[pts.length - 1] !== sq) pts.push(sq);
    }
  }
  return pts;
}

/** Whether `prefix` starts `list`. */
function startsWith(list, prefix) {
  if (prefix.length > list.length) return false;
  for (let i = 0; i < prefix.length; i++) if (list[i] !== prefix[i]) return false;
  return true;
}

/**
 * The state of pointing after the squares `clicks`:
 * `candidates` the legal turns the clicks begin, `complete` those the clicks finish,
 * `next` a map from each square that may be clicked next to the turns it continues.
 */
export function matchClicks(legal, clicks) {
  const candidates = [];
  const complete = [];
  const next = new Map();
  for (const turn of legal || []) {
    const pts = pointsOf(turn);
    if (pts.length === 0 || !startsWith(pts, clicks)) continue;
    candidates.push(turn);
    if (pts.length === clicks.length) complete.push(turn);
    else {
      const sq = pts[clicks.length];
      if (!next.has(sq)) next.set(sq, []);
      next.get(sq).push(turn);
    }
  }
  return { candidates, complete, next };
}

/** The legal turns entered without pointing at any square (claims and the like). */
export function pointlessTurns(legal) {
  return (legal || []).filter((t) => pointsOf(t).length === 0);
}

/** The squares that may start a turn (the first click), with the turns each starts. */
export function firstSquares(legal) {
  return matchClicks(legal, []).next;
}

/**
 * Whether landing on `square` as the next click of one of `turns` captures:
 * a part of one of these turns that ends there (or was already pointed at) lists captures,
 * or the square holds a piece of the other side.
 */
export function isCaptureStep(turns, square, board, mover) {
  for (const t of turns) {
    for (const p of t.parts || []) {
      if (p.to === square && p.captures && p.captures.length) return true;
    }
  }
  const sq = board && board.squares ? board.squares.find((s) => s.name === square) : null;
  return !!(sq && sq.piece && mover && sq.piece.owner !== mover);
}

/**
 * The board as the clicks so far would leave it, for a preview: every part whose `from`
 * and `to` were both pointed at is played (the piece moves, its captures go).
 */
export function previewBoard(board, turn, clicks) {
  if (!board || !turn) return board;
  const squares = board.squares.map((s) => ({ ...s }));
  const byName = new Map(squares.map((s) => [s.name, s]));
  let count = 0;
  let last = null;
  let changed = false;
  for (const p of turn.parts || []) {
    for (const sq of [p.from, p.to]) {
      if (sq != null && sq !== last) {
        count++;
        last = sq;
      }
    }
    if (count > clicks.length) break;
    if (p.from && p.to && p.from !== p.to && byName.get(p.from) && byName.get(p.to)) {
      for (const c of p.captures || []) if (byName.get(c)) byName.get(c).piece = null;
      byName.get(p.to).piece = byName.get(p.from).piece;
      byName.get(p.from).piece = null;
      changed = true;
    }
    if (p.room != null && p.room !== last) {
      count++;
      last = p.room;
    }
  }
  return changed ? { ...board, squares } : board;
}

/** A plain move's text as the game writes it, for sending an attempt the client thinks illegal. */
export function plainMoveText(variant, from, to) {
  switch (variant) {
    case 'vyrt':
      return `${from.toUpperCase()}-${to.toUpperCase()}`;
    case 'cypher':
      return `${from.toLowerCase()}-${to.toLowerCase()}`;
    default:
      return `${from.toLowerCase()}${to.toLowerCase()}`;
  }
}

// The board's sounds (our own files, made by crates/server/make_sounds.py): a move, a
// capture, a check, the game's end and low time; a mute switch the browser remembers.

const KEY = 'menagerie:mute';
const cache = new Map();

/** Whether the sounds are muted (remembered in this browser). */
export function muted() {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

/** Mutes or unmutes, and remembers it. */
export function setMuted(on) {
  try {
    localStorage.setItem(KEY, on ? '1' : '0');
  } catch {
    /* private mode: for this page only */
  }
}

/** Plays `name` (`move`, `capture`, `check`, `end`, `low-time`) unless muted. */
export function playSound(name) {
  if (muted()) return;
  try {
    let a = cache.get(name);
    if (!a) {
      a = new Audio(`/static/sounds/${name}.wav`);
      a.preload = 'auto';
      cache.set(name, a);
    }
    const p = a.cloneNode().play();
    // a browser that refuses sound before the first click: silence, no error
    if (p && p.catch) p.catch(() => {});
  } catch {
    /* no audio here */
  }
}

function pieces(board) {
  return ((board && board.squares) || []).filter((s) => s.piece).length;
}

/** The sound of going from state `prev` to `next` (the game page's states), or null. */
export function soundFor(prev, next) {
  if (!prev || !next) return null;
  if (next.outcome && !prev.outcome) return 'end';
  const grew = (next.moves || []).length > (prev.moves || []).length;
  if (!grew) return null;
  if (next.board && next.board.check) return 'check';
  // fewer pieces on the board than before the turn: something was captured (or arrested)
  return pieces(next.board) < pieces(prev.board) ? 'capture' : 'move';
}

/** Plays the sound of a new state, if any. */
export function announce(prev, next) {
  const s = soundFor(prev, next);
  if (s) playSound(s);
}

/**
 * Low time: `msLeft()` is the player's own clock in ms (null without one); the sound plays
 * once when it falls under 10 s, again only after it has been above.
 */
export function watchLowTime(msLeft) {
  let armed = true;
  setInterval(() => {
    const ms = msLeft();
    if (ms == null) return;
    if (ms > 10000) armed = true;
    else if (armed && ms > 0) {
      armed = false;
      playSound('low-time');
    }
  }, 250);
}

/** A mute switch (a button with aria-pressed) for the board's tools. */
export function muteButton() {
  const b = document.createElement('button');
  b.type = 'button';
  b.id = 'mute';
  const show = () => {
    const on = muted();
    b.setAttribute('aria-pressed', String(on));
    b.textContent = on ? 'Sound off' : 'Sound on';
    b.title = on ? 'Sounds are muted: click to hear them' : 'Click to mute the sounds';
  };
  b.addEventListener('click', () => {
    setMuted(!muted());
    show();
  });
  show();
  return b;
}

// Playing without a mouse: the board's own keys move a square cursor (arrows; Shift+arrows
// on the torus, whose plain arrows turn the view) and Enter or Space points at the square.
// This module says where the cursor is, in the game's words, to screen readers (a polite
// live region), and names the board's keys in its label.

/** Adds the spoken cursor to `board` (a Board). */
export function speakCursor(board) {
  const live = document.createElement('p');
  live.className = 'sr-only board-live';
  live.setAttribute('aria-live', 'polite');
  board.wrap.appendChild(live);
  board.svg.setAttribute(
    'aria-label',
    'Board. Arrow keys move the square cursor (with Shift on a board whose edges wrap); Enter picks the square; Escape cancels.',
  );
  const say = () => {
    if (!board.cursor) return;
    const g = board.svg.querySelector(`[data-square="${CSS.escape(board.cursor)}"]`);
    const label = g ? g.getAttribute('aria-label') : board.cursor;
    const picked = board.clicks && board.clicks.length ? ` Picked: ${board.clicks.join(', ')}.` : '';
    live.textContent = `${label}.${picked}`;
  };
  // after the board's own handler (registered first), so the cursor has moved already
  board.svg.addEventListener('keydown', (e) => {
    if (/^Arrow|^(Enter| |Escape)$/.test(e.key)) say();
  });
}

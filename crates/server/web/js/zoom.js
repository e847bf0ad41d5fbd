// A larger board on a phone: the 12x12 and 13x13 boards get a "Larger board" switch that
// doubles the board's width inside a scrolling frame (Vyrt's squares go from 27 px to about
// 54 px at 390 px), remembered by the browser.

const KEY = 'menagerie:zoom';

/** The switch for `board` (shown by CSS on narrow screens only, for boards of 12 files or more). */
export function zoomButton(board, column) {
  const b = document.createElement('button');
  b.type = 'button';
  b.id = 'zoom';
  b.className = 'zoom-switch';
  const apply = (on) => {
    column.classList.toggle('zoomed', on);
    b.setAttribute('aria-pressed', String(on));
    b.textContent = on ? 'Smaller board' : 'Larger board';
  };
  let on = false;
  try {
    on = localStorage.getItem(KEY) === '1';
  } catch {
    on = false;
  }
  apply(on);
  b.addEventListener('click', () => {
    on = !on;
    try {
      localStorage.setItem(KEY, on ? '1' : '0');
    } catch {
      /* for this page only */
    }
    apply(on);
  });
  // only the wide boards need it
  const update = () => {
    const g = board.snapshot && board.snapshot.geometry;
    column.classList.toggle('wide-board', !!(g && g.width >= 12));
  };
  const render = board.render.bind(board);
  board.render = () => {
    render();
    update();
  };
  return b;
}

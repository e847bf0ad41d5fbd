// Piece drawings, all our own: orthodox shapes for the orthodox pieces and
// distinct badges (each with its letters) for every other piece.
// Each drawing is SVG markup in a 100x100 box; `pieceSvg` wraps it in a <g>.

const ORTHODOX = {
  pawn: `<path class="b" d="M50 18a13 13 0 0 1 8 23c7 4 11 11 11 18l-1 6H32l-1-6c0-7 4-14 11-18a13 13 0 0 1 8-23z"/>
    <path class="b" d="M27 82c0-9 6-14 10-17h26c4 3 10 8 10 17z"/>`,
  rook: `<path class="b" d="M26 16h11v8h7v-8h12v8h7v-8h11v18l-8 6v28l7 6v8H26v-8l7-6V40l-8-6z"/>
    <path class="o" d="M33 40h34M33 68h34"/>`,
  knight: `<path class="b" d="M30 84c-1-14 5-22 14-30 4-4 5-9 3-13-6 5-12 7-18 8-4 1-8-3-6-7l10-15c3-5 8-9 14-11l2-8 6 7c14 4 24 17 24 36 0 12-2 22-4 33z"/>
    <circle class="d" cx="44" cy="31" r="2.8"/>`,
  bishop: `<path class="b" d="M50 12a6 6 0 1 1 0 12a6 6 0 1 1 0-12zM50 24c12 9 19 19 19 30 0 8-5 13-11 15H42c-6-2-11-7-11-15 0-11 7-21 19-30z"/>
    <path class="b" d="M28 86c2-8 8-13 14-16h16c6 3 12 8 14 16z"/>
    <path class="o" d="M53 36l-8 14"/>`,
  queen: `<path class="b" d="M22 32l10 30 8-34 10 32 10-32 8 34 10-30 6 40H16z"/>
    <circle class="b" cx="22" cy="29" r="5"/><circle class="b" cx="40" cy="24" r="5"/><circle class="b" cx="60" cy="24" r="5"/><circle class="b" cx="78" cy="29" r="5"/><circle class="b" cx="50" cy="21" r="5"/>
    <path class="b" d="M18 72h64l-4 14H22z"/>`,
  king: `<path class="b" d="M46 8h8v8h8v8h-8v9h-8v-9h-8v-8h8z"/>
    <path class="b" d="M50 34c6 0 10 5 10 11l12-7c9-5 18 4 13 14l-9 18H24l-9-18c-5-10 4-19 13-14l12 7c0-6 4-11 10-11z"/>
    <path class="b" d="M22 72h56l-3 14H25z"/>`,
};

// A badge: an outline shape plus the piece's letters.
function badge(shape, text, extra = '') {
  const size = text.length > 1 ? 30 : 40;
  return `${shape}${extra}<text class="l" x="50" y="${text.length > 1 ? 64 : 66}" font-size="${size}" text-anchor="middle">${text}</text>`;
}

const CIRCLE = '<circle class="b" cx="50" cy="52" r="34"/>';
const SHIELD = '<path class="b" d="M18 18h64v30c0 20-14 32-32 40-18-8-32-20-32-40z"/>';
const ROUND_SHIELD = '<path class="b" d="M50 12c14 8 24 8 32 6v30c0 20-14 32-32 40-18-8-32-20-32-40V18c8 2 18 2 32-6z"/>';
const HEXAGON = '<path class="b" d="M50 14l33 19v38L50 90 17 71V33z"/>';
const OCTAGON = '<path class="b" d="M36 16h28l20 20v28L64 84H36L16 64V36z"/>';
const DIAMOND = '<path class="b" d="M50 10l38 42-38 40-38-40z"/>';
const TRIANGLE = '<path class="b" d="M50 10l38 74H12z"/>';

const OTHER = {
  spy: badge(DIAMOND, 'S', '<path class="o" d="M28 38q22-16 44 0"/>'),
  civilian: badge(CIRCLE, 'C'),
  deputy: badge(CIRCLE, 'D', '<circle class="o" cx="50" cy="52" r="28"/>'),
  'prime-minister': badge(OCTAGON, 'PM'),
  master: badge('<path class="b" d="M24 16h10v8h8v-8h16v8h8v-8h10v18l-8 6v30l8 6v10H24V76l8-6V40l-8-6z"/>', 'Ma'),
  duke: badge(SHIELD, 'Du'),
  duchess: badge(ROUND_SHIELD, 'Dc'),
  baron: badge(HEXAGON, 'Ba'),
  baroness: badge(HEXAGON, 'Bs', '<circle class="o" cx="50" cy="52" r="30"/>'),
  assassin: badge(TRIANGLE, 'A'),
};

// Piece kinds that are drawn with an orthodox shape under another name.
const ALIASES = {
  tower: 'rook',
  minister: 'bishop',
  horse: 'knight',
  elephant: 'bishop',
  pm: 'prime-minister',
  primeminister: 'prime-minister',
  prime_minister: 'prime-minister',
  cypher: 'spy',
};

/** The drawing's key for a piece kind (the game's own word, any case). */
export function drawingKey(kind) {
  const k = String(kind || '').toLowerCase().replace(/\s+/g, '-');
  if (k.length === 1 && CHEOPS_LETTERS[k]) return drawingKey(CHEOPS_LETTERS[k]);
  return ALIASES[k] || k;
}

// A one-letter kind is Little Cheops' board letter (the other games name their pieces).
const CHEOPS_LETTERS = {
  k: 'king', q: 'queen', e: 'prime-minister', i: 'minister', t: 'tower', m: 'master', n: 'knight',
  d: 'duke', u: 'duchess', b: 'baron', o: 'baroness', a: 'assassin', c: 'civilian', p: 'pawn',
};

/** Short human name of a piece kind, for titles and choosers. */
export function pieceName(kind) {
  let k = String(kind || '');
  if (k.length === 1 && CHEOPS_LETTERS[k.toLowerCase()]) k = CHEOPS_LETTERS[k.toLowerCase()];
  k = k.replace(/[-_]/g, ' ');
  return k.charAt(0).toUpperCase() + k.slice(1);
}

/**
 * SVG markup for a piece `{kind, owner, letter}` drawn in a 100x100 box at the origin.
 * Unknown kinds get a round badge with the piece's letter.
 */
export function pieceSvg(piece) {
  const key = drawingKey(piece.kind);
  const body = ORTHODOX[key] || OTHER[key] || badge(CIRCLE, escapeText(piece.letter || '?').toUpperCase());
  const owner = piece.owner === 'black' ? 'black' : 'white';
  return `<g class="piece ${owner}" data-kind="${escapeText(piece.kind)}" data-owner="${owner}">${body}</g>`;
}

/** A standalone <svg> of a piece (for choosers and captured lists). */
export function pieceIcon(piece, size = 36) {
  return `<svg class="piece-icon" viewBox="0 0 100 100" width="${size}" height="${size}" aria-hidden="true">${pieceSvg(piece)}</svg>`;
}

function escapeText(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Which promotion letters name which piece kinds (for the chooser's pictures). */
export const LETTER_KINDS = {
  chess: { Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' },
  vyrt: { Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' },
  cypher: { Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn', S: 'spy' },
  'little-cheops': {
    Q: 'queen', E: 'prime-minister', I: 'minister', T: 'tower', M: 'master', N: 'knight',
    D: 'duke', U: 'duchess', B: 'baron', O: 'baroness', A: 'assassin', C: 'civilian', P: 'pawn', K: 'king',
  },
};
LETTER_KINDS['little-cheops-imperial'] = LETTER_KINDS['little-cheops'];

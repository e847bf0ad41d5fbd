// Fixture games shaped exactly as PLAN.md Contracts 1 and 3, for testing the board widget
// and the pages without the Rust server. Boards come from position strings.

import { snapshotFromFen } from '../../web/js/snapshot.js';

const az = (s) => s.split('');
const nums = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => String(a + i));

export const GEOMETRY = {
  chess: { width: 8, height: 8, wrap_files: false, wrap_ranks: false, files: az('abcdefgh'), ranks: nums(1, 8) },
  vyrt: { width: 12, height: 12, wrap_files: true, wrap_ranks: true, files: az('KLABCDEFGHIJ'), ranks: ['11', '12', ...nums(1, 10)] },
  cypher: { width: 10, height: 11, wrap_files: false, wrap_ranks: false, files: az('zabcdefghi'), ranks: nums(0, 10) },
  'little-cheops': { width: 9, height: 9, wrap_files: false, wrap_ranks: false, files: az('abcdefghi'), ranks: nums(1, 9) },
  'little-cheops-imperial': { width: 13, height: 13, wrap_files: false, wrap_ranks: false, files: az('abcdefghijklm'), ranks: nums(1, 13) },
};

export const START = {
  chess: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  vyrt: 'pppppppppppp/p10p/p1rnbqkbnr1p/p1pppppppp1p/12/12/12/12/P1PPPPPPPP1P/P1RNBQKBNR1P/P10P/PPPPPPPPPPPP w KQkq - 0 1',
  cypher: '4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - Ii 0+0 0/0 0 1',
  'little-cheops': 'tnnqkeiit/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEKQNNT w 0 1',
  'little-cheops-imperial': 'tnnouqkedbiit/ppppppppppppp/2m1a3a1m2/3c5c3/13/13/13/13/13/3C5C3/2M1A3A1M2/PPPPPPPPPPPPP/TIIBDEKQUONNT w - - 0 1',
};

export const VARIANTS = [
  { id: 'chess', name: 'Chess', summary: 'Orthodox chess, for calibration.' },
  { id: 'vyrt', name: 'Vyrt Chess', summary: 'Chess on a 12x12 torus: every edge joins the opposite one.' },
  { id: 'cypher', name: 'Cypher Chess', summary: 'A 10x11 board with Court, Border and Field, and a Spy.' },
  { id: 'little-cheops', name: 'Little Cheops', summary: 'The Common style, 9x9.' },
  { id: 'little-cheops-imperial', name: 'Little Cheops Imperial', summary: 'The Imperial style, 13x13, with Castles and sealed Deputies.' },
].map((v) => ({
  ...v,
  start_fen: START[v.id],
  geometry: GEOMETRY[v.id],
  options: v.id === 'cypher' ? [{ name: 'infiltration-target', values: ['both', 'own', 'far'], default: 'both', help: 'Where infiltration may send a piece.' }] : [],
}));

const part = (from, to, extra = {}) => ({ from, to, captures: [], room: null, promotion: null, ...extra });
const turn = (canonical, human, kind, parts) => ({ canonical, human, kind, parts });

function state(id, variant, fen, legal, extra = {}) {
  const board = snapshotFromFen(variant, GEOMETRY[variant], fen);
  return {
    id,
    variant,
    rules: {},
    fen,
    turn: board.turn,
    moves: [],
    legal,
    board,
    outcome: null,
    version: 0,
    players: { white: 'human', black: 'engine:3' },
    you: 'white',
    draw_offer: null,
    takeback_request: null,
    clock: null,
    ...extra,
  };
}

/** The fixture games by id. */
export function fixtureGames() {
  const games = {};
  games['chess-promo'] = state('chess-promo', 'chess', '4k3/P7/8/8/8/8/8/4K3 w - - 0 1', [
    ...['Q', 'R', 'B', 'N'].map((p) => turn(`a7a8${p.toLowerCase()}`, `a8=${p}`, 'promotion', [part('a7', 'a8', { promotion: p })])),
    turn('e1d1', 'Kd1', 'move', [part('e1', 'd1')]),
    turn('e1e2', 'Ke2', 'move', [part('e1', 'e2')]),
  ]);
  games['vyrt-seam'] = state('vyrt-seam', 'vyrt', '12/12/6k5/12/12/R11/12/12/12/6K5/12/12 w - - 0 1', [
    turn('K5-J5', 'K5-J5', 'move', [part('K5', 'J5')]),
    turn('K5-L5', 'K5-L5', 'move', [part('K5', 'L5')]),
    turn('K5-K6', 'K5-K6', 'move', [part('K5', 'K6')]),
    turn('E1-E2', 'E1-E2', 'move', [part('E1', 'E2')]),
  ]);
  games['cypher-start'] = state('cypher-start', 'cypher', START.cypher, [
    turn('d0-d4', 'Sd4', 'move', [part('d0', 'd4')]),
    turn('d0-d4/b1-b0', 'Sd4/Rb0', 'combined-move', [part('d0', 'd4'), part('b1', 'b0')]),
    turn('d0-d4/g1-g0', 'Sd4/Rg0', 'combined-move', [part('d0', 'd4'), part('g1', 'g0')]),
    turn('d0-d4/c1-b3', 'Sd4/Nb3', 'move', [part('d0', 'd4'), part('c1', 'b3')]),
    turn('d3-d4', 'd4', 'move', [part('d3', 'd4')]),
    turn('c2-b1', 'Bb1', 'move', [part('c2', 'b1')]),
    turn('P@b5', 'PRb5', 'release', [part(null, 'b5')]),
  ]);
  games['imperial-appoint'] = state(
    'imperial-appoint',
    'little-cheops-imperial',
    START['little-cheops-imperial'],
    [
      turn('appoint:d4', 'appoints C d4', 'appointment', [part(null, 'd4')]),
      turn('d4d5', 'C d4-d5', 'move', [part('d4', 'd5')]),
      turn('d4e5', 'C d4-e5', 'move', [part('d4', 'e5')]),
      turn('g2g3', 'P g2-g3', 'move', [part('g2', 'g3')]),
      turn('j4:j6', 'D j4:1:j6', 'hop-chain', [part('j4', 'j6')]),
      turn('j4:j6@c10', 'D j4:1:j6 P(c10)', 'arrest', [part('j4', 'j6', { room: 'c10' })]),
      turn('j4:j6@d11', 'D j4:1:j6 P(d11)', 'arrest', [part('j4', 'j6', { room: 'd11' })]),
      turn('draw', 'draw', 'claim', []),
    ],
    { players: { white: 'human', black: 'human' } },
  );
  // clocks (PLAN.md Contract A): Black's runs; a game White lost on time
  const afterE4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
  games['chess-clock'] = state('chess-clock', 'chess', afterE4, [], {
    moves: [{ canonical: 'e2e4', human: 'e4' }],
    players: { white: 'human', black: 'human' },
    clock: { initial_ms: 300000, increment_ms: 2000, white_ms: 300000, black_ms: 61000, running: 'black' },
  });
  games['chess-flag'] = state('chess-flag', 'chess', afterE4, [], {
    moves: [{ canonical: 'e2e4', human: 'e4' }],
    players: { white: 'human', black: 'human' },
    clock: { initial_ms: 300000, increment_ms: 0, white_ms: 0, black_ms: 9500, running: null },
    outcome: { winner: 'black', code: 'time-forfeit', sentence: 'time forfeit', points: null, result: '0-1' },
  });
  // issue 29: named seats, an umpire holding the key, Black's invitation not yet taken
  const seats = { white: { player: 'human', name: 'alice', taken: true }, black: { player: 'human', name: null, taken: false } };
  games['people'] = state('people', 'chess', START.chess, [], { players: { white: 'human', black: 'human' }, seats, umpire_key: true });
  games['people-watch'] = state('people-watch', 'chess', START.chess, [], { players: { white: 'human', black: 'human' }, seats, umpire_key: true, you: 'spectator' });
  // marks of a Castle, an arrestee and Deputies, for the pictures
  const marks = { c9: ['bastion'], e9: ['bastion'], c11: ['bastion'], e11: ['bastion'], d9: ['room'], c10: ['room'], e10: ['room'], d11: ['room'], d10: ['chair'] };
  for (const sq of games['imperial-appoint'].board.squares) {
    if (marks[sq.name]) sq.marks = [...marks[sq.name], 'castle-active', 'castle-white'];
    if (sq.name === 'e11') sq.marks.push('arrestee');
    if (sq.name === 'd4') sq.marks.push('deputy-sealed');
    if (sq.name === 'j10') sq.marks.push('deputy-known');
  }
  return games;
}

/** Games as the lists answer them (issue 29: `GET /api/games`, a profile's, "My games"). */
export function listedGames() {
  const at = Date.UTC(2026, 10, 27, 23, 30); // 27 Nov 2026 23:30 UTC: 28 Nov in Auckland
  const game = (id, extra) => ({
    id,
    url: `/game/${id}`,
    variant: 'chess',
    white: 'human',
    black: 'human',
    names: { white: 'alice', black: 'a-name-of-twenty-ch' },
    created_at: at,
    updated_at: at + 60000,
    finished: true,
    turns: 7,
    to_move: null,
    result: '1-0',
    winner: 'white',
    termination: 'checkmate',
    outcome: 'White wins by checkmate.',
    ...extra,
  });
  return [
    game('g-running', { variant: 'little-cheops-imperial', black: 'engine:3', names: { white: 'alice', black: null }, finished: false, turns: 12, to_move: 'white', result: '*', winner: null, termination: null, outcome: null, created_at: at + 3600000 }),
    game('g-mate', {}),
    game('g-anon', { names: { white: null, black: null }, result: '1/2-1/2', winner: null, termination: 'agreement', outcome: 'Drawn by agreement.', turns: 30, created_at: at - 86400000 }),
  ];
}

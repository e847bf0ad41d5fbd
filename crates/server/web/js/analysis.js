// The analysis board: any position string, moves entered freely (by pointing or as text),
// engine lines streaming beside it from POST /api/analysis (NDJSON). No game is created: each
// position comes from POST /api/position (the setup string plus the moves played here).

import { api, variants, esc, header, streamNdjson } from './api.js';
import { Board } from './board.js';
import { Evaluation } from './evalbar.js';
import { recordPanel, playFromHereHref } from './recordpaste.js';
import { setPieceTables, legendElement, renderLegend } from './legend.js';
import { offBoardElement, renderOffBoard } from './offboard.js';
import { openEditor } from './editor.js';
import { mountTorusView } from './torus3d.js';

const app = document.getElementById('app');
document.getElementById('top').innerHTML = header('analysis');
const params = new URLSearchParams(location.search);

let list = [];
let setup = { variant: null, fen: '', rules: {} }; // the position set up ('' = the start) and its rule options
let moves = []; // canonical texts of the turns played since
let state = null; // the last answer of POST /api/position
let running = null; // AbortController of the running analysis

app.innerHTML = `
  <div class="analysis-layout">
    <section class="board-col">
      <div id="board"></div>
      <p class="reason" id="reason" role="alert"></p>
      <div class="board-tools">
        <button type="button" id="flip">Flip</button>
        <button type="button" id="reset-view" hidden>Standard view</button>
        <button type="button" id="undo">Take back</button>
        <label><input type="checkbox" id="square-names"> square names</label>
      </div>
    </section>
    <aside class="side-col">
      <form class="pos-form" id="pos-form">
        <div class="row"><label>Game <select name="variant" id="variant"></select></label></div>
        <div class="row" id="rule-options"></div>
        <label>Position string <input name="fen" id="fen" placeholder="empty: the start position" spellcheck="false" autocapitalize="off"></label>
        <div class="row"><button type="submit" class="primary">Set up</button> <button type="button" id="start-pos">Start position</button></div>
      </form>
      <form class="move-form" id="move-form" autocomplete="off">
        <label for="move-input">Move</label><input id="move-input" spellcheck="false" autocapitalize="off"><button type="submit">Play</button>
      </form>
      <p class="status" id="status"></p>
      <div class="row analysis-controls">
        <label>Depth <input type="number" id="depth" min="1" max="30" value="12" style="width:4em"></label>
        <label>Lines <select id="multipv">${[1, 2, 3, 4, 5, 6, 7, 8].map((k) => `<option>${k}</option>`).join('')}</select></label>
        <button type="button" id="go" class="primary">Analyse</button>
        <button type="button" id="stop" disabled>Stop</button>
      </div>
      <div class="lines" id="lines" aria-live="polite"></div>
      <ol class="moves analysis-moves" id="moves"></ol>
    </aside>
  </div>`;
const $ = (s) => app.querySelector(s);

const board = new Board($('#board'), {
  onTurn: (t) => play(t.canonical),
  onAttempt: (text) => play(text),
});
// issue 31: the evaluation bar and best-line arrow, a pasted record, "play from here", and
// the off-board state and legend as on the game page
const evaluation = new Evaluation(board);
const offBoard = offBoardElement();
$('#status').after(offBoard);
const fromHere = document.createElement('p');
fromHere.innerHTML = '<a id="play-from-here" class="button-link" href="/">Play from here</a> <span class="muted">against the engine or a person, from this position</span>';
offBoard.after(fromHere);
$('#pos-form').after(
  recordPanel({
    open: async (r) => {
      if (!list.some((v) => v.id === r.variant)) throw new Error(`The record's game '${r.variant}' is not one of Menagerie's.`);
      $('#variant').value = r.variant;
      showRules(r.variant, r.rules);
      stop();
      setup = { variant: r.variant, fen: r.fen, rules: readRules() };
      $('#lines').innerHTML = '';
      await load(r.moves);
    },
    step: async (r, k) => {
      stop();
      $('#lines').innerHTML = '';
      await load(r.moves.slice(0, k));
    },
  }),
);
const legend = legendElement();
$('#moves').after(legend);
const editButton = document.createElement('button');
editButton.type = 'button';
editButton.id = 'edit-board';
editButton.textContent = 'Edit the board';
$('.board-tools').appendChild(editButton);
function edit() {
  const info = list.find((v) => v.id === (state ? state.variant : $('#variant').value));
  if (!info || document.getElementById('editor')) return;
  stop();
  const layout = app.querySelector('.analysis-layout');
  layout.hidden = true;
  openEditor(app, {
    info,
    fen: state ? state.fen : '',
    rules: setup.rules,
    use: (fen) => {
      layout.hidden = false;
      setUp(info.id, fen);
    },
    cancel: () => {
      layout.hidden = false;
    },
  });
}
editButton.addEventListener('click', edit);
$('#flip').addEventListener('click', () => board.flip());
$('#reset-view').addEventListener('click', () => board.resetView());
$('#square-names').addEventListener('change', (e) => board.setSquareNames(e.target.checked));
mountTorusView(board, $('.board-tools')); // issue 35: the 3D torus view beside the flat board

function reason(t) {
  $('#reason').textContent = t || '';
}

/** The position after `list` from the setup; throws the server's sentence for an illegal move. */
function position(list) {
  const body = { variant: setup.variant, moves: list, rules: setup.rules };
  if (setup.fen) body.fen = setup.fen;
  return api('POST', '/api/position', body);
}

function render() {
  const legal = state.outcome ? [] : state.legal || [];
  board.set({ board: state.board, legal, mover: state.turn, variant: state.variant, interactive: legal.length > 0 });
  $('#reset-view').hidden = !board.wraps;
  renderOffBoard(offBoard, state.board, state.variant, setup.rules);
  renderLegend(legend, state.board, state.variant);
  $('#play-from-here').href = playFromHereHref(state.variant, state.fen || '', setup.rules);
  $('#fen').value = state.fen || '';
  const o = state.outcome;
  $('#status').textContent = o ? `${o.winner ? (o.winner === 'white' ? 'White wins' : 'Black wins') : 'Draw'}: ${o.sentence || o.code}` : `${state.turn === 'white' ? 'White' : 'Black'} to move.`;
  $('#moves').innerHTML = (state.moves || [])
    .map((m, i) => `<li><button type="button" class="mv${i === state.moves.length - 1 ? ' current' : ''}" data-ply="${i + 1}" title="${esc(m.canonical)}">${i % 2 === 0 ? `${i / 2 + 1}. ` : ''}${esc(m.human)}</button></li>`)
    .join('');
  // a move of the list goes back to that moment (the later moves are dropped)
  for (const b of $('#moves').querySelectorAll('[data-ply]')) b.addEventListener('click', () => goTo(Number(b.dataset.ply)));
  $('#undo').disabled = moves.length === 0;
  const q = new URLSearchParams({ variant: state.variant });
  if (setup.fen) q.set('fen', setup.fen);
  for (const [k, v] of Object.entries(setup.rules)) q.set(`rule.${k}`, v);
  if (moves.length) q.set('moves', moves.join(' '));
  history.replaceState(null, '', `/analysis?${q}`);
}

async function load(list) {
  const s = await position(list);
  if (!state || s.fen !== state.fen) evaluation.clear();
  state = s;
  moves = (s.moves || []).map((m) => m.canonical);
  render();
}

async function setUp(variant, fen, list = []) {
  reason('');
  stop();
  setup = { variant, fen: fen || '', rules: readRules() };
  $('#lines').innerHTML = '';
  try {
    await load(list);
  } catch (e) {
    reason(e.message);
    if (list.length) return setUp(variant, fen, []);
    if (!state || state.variant !== variant) {
      setup = { variant, fen: '', rules: setup.rules };
      try {
        await load([]);
      } catch {
        /* the reason is shown */
      }
    }
  }
}

async function play(text) {
  reason('');
  try {
    await load([...moves, text]);
    if (running) analyse();
  } catch (e) {
    reason(e.message);
    render();
  }
}

async function goTo(ply) {
  if (ply === moves.length) return;
  reason('');
  try {
    await load(moves.slice(0, ply));
    if (running) analyse();
  } catch (e) {
    reason(e.message);
  }
}

$('#undo').addEventListener('click', () => {
  if (moves.length) goTo(moves.length - 1);
});

$('#pos-form').addEventListener('submit', (e) => {
  e.preventDefault();
  setUp($('#variant').value, $('#fen').value.trim());
});
$('#start-pos').addEventListener('click', () => setUp($('#variant').value, ''));
$('#move-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const v = $('#move-input').value.trim();
  $('#move-input').value = '';
  if (v) play(v);
});

function scoreText(s) {
  if (!s) return '';
  if (s.mate !== undefined) return `#${s.mate}`;
  if (s.cp !== undefined) {
    const cp = state && state.turn === 'black' ? -s.cp : s.cp;
    return `${cp >= 0 ? '+' : ''}${(cp / 100).toFixed(2)}`;
  }
  return '';
}

function stop() {
  if (running) running.abort();
  running = null;
  $('#stop').disabled = true;
  $('#go').disabled = false;
}

async function analyse() {
  stop();
  if (!state) return;
  const ctrl = new AbortController();
  running = ctrl;
  $('#stop').disabled = false;
  $('#go').disabled = true;
  const lines = $('#lines');
  lines.innerHTML = '<div class="line muted">thinking…</div>';
  try {
    const multipv = Number($('#multipv').value) || 1;
    const body = { variant: state.variant, rules: setup.rules, moves, limits: { depth: Number($('#depth').value) || 12 } };
    if (setup.fen) body.fen = setup.fen;
    if (multipv > 1) body.multipv = multipv;
    const res = await fetch('/api/analysis', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/x-ndjson' },
      body: JSON.stringify(body),
      signal: ctrl.signal,
    });
    if (!res.ok) {
      let msg = `The server answered ${res.status}.`;
      try {
        msg = (await res.json()).error || msg;
      } catch {
        /* keep the status */
      }
      lines.innerHTML = `<div class="line error">${esc(msg)}</div>`;
      stop();
      return;
    }
    // the deepest line of each rank (multipv K, 1-based), best first
    const byRank = new Map();
    let best = '';
    await streamNdjson(
      res,
      (o) => {
        if (running !== ctrl) return;
        if (o.bestmove !== undefined) {
          best = o.bestmove ? `<div class="line best">best: <b>${esc(o.bestmove.human || o.bestmove.canonical)}</b></div>` : '<div class="line best">no move</div>';
        } else if (o.error) {
          best = `<div class="line error">${esc(o.error)}</div>`;
        } else if (o.depth !== undefined) {
          const k = Number(o.multipv) || 1;
          if (k === 1) evaluation.set(o, state.turn, state.legal);
          byRank.set(
            k,
            `<div class="line" data-depth="${esc(o.depth)}" data-multipv="${k}"><span class="muted">${k}.</span> d${esc(o.depth)} <b>${esc(scoreText(o.score))}</b> ${esc((o.pv || []).join(' '))} <span class="muted">${o.nodes ? `${esc(o.nodes)} nodes` : ''}</span></div>`,
          );
        }
        lines.innerHTML = best + [...byRank.keys()].sort((x, y) => x - y).map((k) => byRank.get(k)).join('');
      },
      ctrl.signal,
    );
  } catch (e) {
    if (e.name !== 'AbortError') lines.innerHTML += `<div class="line error">${esc(e.message)}</div>`;
  }
  if (running === ctrl) stop();
}
$('#go').addEventListener('click', analyse);
$('#stop').addEventListener('click', stop);

/** The rule options of the chosen game as selects (values from the address when given). */
function showRules(variant, given = {}) {
  const v = list.find((x) => x.id === variant);
  const opts = (v && Array.isArray(v.options) && v.options) || [];
  $('#rule-options').innerHTML = opts
    .map((o) => {
      const cur = given[o.name] ?? o.default;
      const values = (o.values || []).map((x) => `<option${String(x) === String(cur) ? ' selected' : ''}>${esc(x)}</option>`).join('');
      return `<label title="${esc(o.help || '')}">${esc(o.name)} <select data-rule="${esc(o.name)}">${values}</select></label>`;
    })
    .join('');
}

function readRules() {
  const rules = {};
  for (const el of app.querySelectorAll('[data-rule]')) rules[el.dataset.rule] = el.value;
  return rules;
}

async function main() {
  try {
    list = await variants();
  } catch (e) {
    reason(e.message);
    return;
  }
  setPieceTables(list);
  const sel = $('#variant');
  sel.innerHTML = list.map((v) => `<option value="${esc(v.id)}">${esc(v.name || v.id)}</option>`).join('');
  const v = params.get('variant') || (list[0] && list[0].id);
  sel.value = v;
  const givenRules = {};
  for (const [k, val] of params) if (k.startsWith('rule.')) givenRules[k.slice(5)] = val;
  showRules(v, givenRules);
  sel.addEventListener('change', () => {
    showRules(sel.value);
    setUp(sel.value, '');
  });
  const given = (params.get('moves') || '').split(/\s+/).filter(Boolean);
  await setUp(v, params.get('fen') || '', given);
  if (params.get('edit') === '1') edit();
}

main();

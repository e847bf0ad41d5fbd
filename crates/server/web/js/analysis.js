// The analysis board: any position string, moves entered freely (by pointing or as text),
// engine lines streaming beside it from POST /api/analysis (NDJSON).
// The position lives in a scratch game with both seats held by this page.

import { api, variants, esc, header, streamNdjson } from './api.js';
import { Board } from './board.js';

const app = document.getElementById('app');
document.getElementById('top').innerHTML = header('analysis');
const params = new URLSearchParams(location.search);

let list = [];
let game = null; // { id, tokens }
let state = null;
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
        <label>Position string <input name="fen" id="fen" placeholder="empty: the start position" spellcheck="false" autocapitalize="off"></label>
        <div class="row"><button type="submit" class="primary">Set up</button></div>
      </form>
      <form class="move-form" id="move-form" autocomplete="off">
        <label for="move-input">Move</label><input id="move-input" spellcheck="false" autocapitalize="off"><button type="submit">Play</button>
      </form>
      <p class="status" id="status"></p>
      <div class="row">
        <label>Depth <input type="number" id="depth" min="1" max="64" value="12" style="width:4em"></label>
        <button type="button" id="go" class="primary">Analyse</button>
        <button type="button" id="stop" disabled>Stop</button>
      </div>
      <div class="lines" id="lines" aria-live="polite"></div>
      <ol class="moves" id="moves"></ol>
    </aside>
  </div>`;
const $ = (s) => app.querySelector(s);

const board = new Board($('#board'), {
  onTurn: (t) => play(t.canonical),
  onAttempt: (text) => play(text),
});
$('#flip').addEventListener('click', () => board.flip());
$('#reset-view').addEventListener('click', () => board.resetView());
$('#square-names').addEventListener('change', (e) => board.setSquareNames(e.target.checked));

function reason(t) {
  $('#reason').textContent = t || '';
}

function tokenToMove() {
  return game && state ? game.tokens[state.turn] : game && game.tokens.white;
}

async function refresh() {
  let s = await api('GET', `/api/games/${encodeURIComponent(game.id)}`, undefined, game.tokens.white);
  if (s.turn === 'black') s = await api('GET', `/api/games/${encodeURIComponent(game.id)}`, undefined, game.tokens.black);
  state = s;
  render();
}

function render() {
  const legal = state.outcome ? [] : state.legal || [];
  board.set({ board: state.board, legal, mover: state.turn, variant: state.variant, interactive: legal.length > 0 });
  $('#reset-view').hidden = !board.wraps;
  $('#fen').value = state.fen || '';
  const o = state.outcome;
  $('#status').textContent = o ? `${o.winner ? (o.winner === 'white' ? 'White wins' : 'Black wins') : 'Draw'}: ${o.sentence || o.code}` : `${state.turn === 'white' ? 'White' : 'Black'} to move.`;
  $('#moves').innerHTML = (state.moves || []).map((m, i) => `<li>${i % 2 === 0 ? `${i / 2 + 1}. ` : ''}${esc(m.human)}</li>`).join('');
  history.replaceState(null, '', `/analysis?variant=${encodeURIComponent(state.variant)}&fen=${encodeURIComponent(state.fen || '')}`);
}

async function setUp(variant, fen) {
  reason('');
  stop();
  try {
    const body = { variant, white: 'human', black: 'human', rules: {} };
    if (fen) body.fen = fen;
    const g = await api('POST', '/api/games', body);
    game = { id: g.id, tokens: { white: g.seats.white.token, black: g.seats.black.token } };
    await refresh();
    $('#lines').innerHTML = '';
  } catch (e) {
    reason(e.message);
  }
}

async function play(text) {
  reason('');
  try {
    await api('POST', `/api/games/${encodeURIComponent(game.id)}/move`, { move: text }, tokenToMove());
    await refresh();
    if (running) analyse();
  } catch (e) {
    reason(e.message);
    render();
  }
}

$('#undo').addEventListener('click', async () => {
  if (!game || !state || !(state.moves || []).length) return;
  // both seats are ours: ask with one and agree with the other
  try {
    await api('POST', `/api/games/${encodeURIComponent(game.id)}/takeback`, {}, game.tokens.white);
    const s = await api('GET', `/api/games/${encodeURIComponent(game.id)}`, undefined, game.tokens.black);
    if (s.takeback_request) await api('POST', `/api/games/${encodeURIComponent(game.id)}/takeback`, {}, game.tokens.black);
    await refresh();
  } catch (e) {
    reason(e.message);
  }
});

$('#pos-form').addEventListener('submit', (e) => {
  e.preventDefault();
  setUp($('#variant').value, $('#fen').value.trim());
});
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
    const res = await fetch('/api/analysis', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/x-ndjson' },
      body: JSON.stringify({ variant: state.variant, fen: state.fen, limits: { depth: Number($('#depth').value) || 12 } }),
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
    const seen = [];
    await streamNdjson(
      res,
      (o) => {
        if (running !== ctrl) return;
        if (o.bestmove) {
          seen.unshift(`<div class="line best">best: <b>${esc(o.bestmove.human || o.bestmove.canonical)}</b></div>`);
        } else if (o.error) {
          seen.unshift(`<div class="line error">${esc(o.error)}</div>`);
        } else if (o.depth !== undefined) {
          seen.unshift(
            `<div class="line" data-depth="${o.depth}">d${esc(o.depth)} <b>${esc(scoreText(o.score))}</b> ${esc((o.pv || []).join(' '))} <span class="muted">${o.nodes ? `${esc(o.nodes)} nodes` : ''}</span></div>`,
          );
        }
        lines.innerHTML = seen.slice(0, 12).join('');
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

async function main() {
  try {
    list = await variants();
  } catch (e) {
    reason(e.message);
    return;
  }
  const sel = $('#variant');
  sel.innerHTML = list.map((v) => `<option value="${esc(v.id)}">${esc(v.name || v.id)}</option>`).join('');
  const v = params.get('variant') || (list[0] && list[0].id);
  sel.value = v;
  sel.addEventListener('change', () => setUp(sel.value, ''));
  await setUp(v, params.get('fen') || '');
}

main();

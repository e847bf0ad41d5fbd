// The game page: board, clocks, move list with navigation, result banner, the players'
// buttons, the friend link, the record; live by websocket with catch-up by version.

import { api, ApiError, localGame, saveLocalGame, variants, variantName, esc, header, ratingHtml, signed } from './api.js';
import { Board } from './board.js';
import { setPieceTables, legendElement, renderLegend, longPressNames } from './legend.js';
import { offBoardElement, renderOffBoard } from './offboard.js';
import { announce, watchLowTime, muteButton } from './sounds.js';
import { noticeElement, showNotice, seatLinkElement } from './notices.js';
import { confirmClick, QUIET_CLAIMS } from './claims.js';
import { speakCursor } from './keyboard.js';
import { Premove, NO_PREMOVES } from './premove.js';
import { zoomButton } from './zoom.js';
import { mountTorusView } from './torus3d.js';
import { Chat } from './chat.js';

const app = document.getElementById('app');
document.getElementById('top').innerHTML = header('');
const id = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || new URLSearchParams(location.search).get('id') || '');
const local = localGame(id) || {};

let state = null;
let viewPly = null; // null: the live position; otherwise the number of turns shown
let viewBoard = null;
let viewAt = null; // GET /at/{ply}'s answer for the shown moment
let rematchGame = null; // the rematch event `{game, url}` once a new game started
let rematchOffer = null; // the colour that offered a rematch (the event; the state's field when it has one)
let pending = null; // a turn waiting for confirmation
let askedRematch = false; // this page offered or accepted a rematch: it follows it when it starts
let leaving = false; // this page is already going to the rematch
let ws = null;
let wsTries = 0;
let stateAt = 0;
let variantList = [];

function tokenFor(color) {
  return (local.tokens && local.tokens[color]) || null;
}

/** The token to act with: in a game at one screen, the side to move's. */
function actingToken() {
  if (local.mode === 'local' && state) return tokenFor(state.turn) || tokenFor('white');
  return tokenFor(local.me) || null;
}

async function fetchState() {
  let s = await api('GET', `/api/games/${encodeURIComponent(id)}`, undefined, local.mode === 'local' ? tokenFor('white') : actingToken());
  if (local.mode === 'local' && s.turn === 'black' && tokenFor('black')) {
    s = await api('GET', `/api/games/${encodeURIComponent(id)}`, undefined, tokenFor('black'));
  }
  return s;
}

function setState(s) {
  if (state && s.version < state.version) return;
  if (state && s.version === state.version && s.you === state.you && (s.legal || []).length === (state.legal || []).length) {
    // nothing happened (a reconnection's catch-up): keep what the player is pointing at
    state = s;
    stateAt = performance.now();
    takePresence(s);
    renderPlayers();
    renderAbsence();
    return;
  }
  const grew = !state || s.moves.length !== state.moves.length;
  announce(state, s);
  state = s;
  stateAt = performance.now();
  takePresence(s);
  // A rematch this page asked for started while its event was missed (a reconnection):
  // the state's link is the player's own, as the event's would have been.
  if (askedRematch && s.rematch && s.rematch.game && s.rematch.url && local.mode !== 'local' && !leaving) {
    leaving = true;
    location.href = s.rematch.url;
    return;
  }
  if (grew) {
    viewPly = null;
    viewBoard = null;
    viewAt = null;
  }
  render();
}

// ----- layout -----

app.innerHTML = `
  <div class="game-layout">
    <section class="board-col">
      <div class="player top" id="player-top"></div>
      <div id="board"></div>
      <div class="player bottom" id="player-bottom"></div>
      <div class="confirm-bar" id="confirm-bar" hidden></div>
      <p class="reason" id="reason" role="alert" aria-live="polite"></p>
      <div class="board-tools">
        <button type="button" id="flip" title="Turn the board round">Flip</button>
        <button type="button" id="reset-view" hidden title="Back to the standard view of the torus">Standard view</button>
        <label><input type="checkbox" id="square-names"> square names</label>
        <label><input type="checkbox" id="confirm-moves"> confirm moves</label>
      </div>
    </section>
    <aside class="side-col">
      <div class="banner" id="banner" hidden></div>
      <p class="status" id="status" aria-live="polite"></p>
      <div class="seat-notes" id="seat-notes" aria-live="polite"></div>
      <div class="absence" id="absence" aria-live="polite" hidden></div>
      <div class="offers" id="offers"></div>
      <form id="move-form" class="move-form" autocomplete="off">
        <label for="move-input">Move</label>
        <input id="move-input" name="move" placeholder="e.g. e2e4 or Nf3" spellcheck="false" autocapitalize="off">
        <button type="submit">Play</button>
      </form>
      <div class="nav" id="nav">
        <button type="button" data-nav="first" title="Start position">&laquo;</button>
        <button type="button" data-nav="prev" title="Back one turn">&lsaquo;</button>
        <button type="button" data-nav="next" title="Forward one turn">&rsaquo;</button>
        <button type="button" data-nav="last" title="The game now">&raquo;</button>
      </div>
      <ol class="moves" id="moves"></ol>
      <div class="controls" id="controls">
        <button type="button" id="abort" hidden title="End the game without a result (before both players have moved)">Abort</button>
        <button type="button" id="resign">Resign</button>
        <button type="button" id="offer-draw">Offer a draw</button>
        <button type="button" id="takeback">Take back</button>
        <button type="button" id="rematch">Rematch</button>
      </div>
      <div class="friend" id="friend" hidden>
        <label for="friend-link">Send this invitation to your friend (the first to open it takes the seat):</label>
        <div class="row"><input id="friend-link" readonly><button type="button" id="copy-friend">Copy</button></div>
      </div>
      <p class="muted" id="rated-note" hidden>Rated game: its result changes both players' ratings.</p>
      <p class="links"><a id="record-link" href="#">Download the record</a> · <a id="rules-link" href="#" target="_blank" rel="noopener">Rules</a></p>
    </aside>
  </div>`;

const $ = (s) => app.querySelector(s);
const board = new Board($('#board'), {
  onTurn: (turn) => choose(turn),
  onAttempt: (text) => send(text),
});
// beside the board: what lies off it, and the legend of the pieces in play (issue 31)
const offBoard = offBoardElement();
$('#status').after(offBoard);
const legend = legendElement();
$('.links').before(legend);
longPressNames(board);
speakCursor(board);
// a premove on the opponent's turn, for a seat's player (not at one screen, not in Imperial)
let premoveTurn = false;
const premove = new Premove(board, {
  active: () => !!(state && !state.outcome && viewPly === null && local.mode !== 'local' && !NO_PREMOVES.has(state.variant) && (state.you === 'white' || state.you === 'black') && state.turn !== state.you),
  side: () => state && state.you,
  variant: () => state && state.variant,
  send: (canonical) => send(canonical),
  say: (text) => showReason(text),
});
$('.board-tools').appendChild(muteButton());
$('.board-tools').appendChild(zoomButton(board, $('.board-col')));
const notice = noticeElement();
$('#offers').before(notice);
if (local.mode === 'engine' && tokenFor(local.me)) $('.links').before(seatLinkElement(tokenFor(local.me)));
watchLowTime(() => (state && !state.outcome && (state.you === 'white' || state.you === 'black') ? clockMs(state.you) : null));
$('#flip').addEventListener('click', () => board.flip());
$('#reset-view').addEventListener('click', () => board.resetView());
$('#square-names').addEventListener('change', (e) => board.setSquareNames(e.target.checked));
mountTorusView(board, $('.board-tools')); // issue 35: the 3D torus view beside the flat board
const prefConfirm = localStorage.getItem('menagerie:confirm');
$('#confirm-moves').checked = prefConfirm === '1';
$('#confirm-moves').addEventListener('change', (e) => localStorage.setItem('menagerie:confirm', e.target.checked ? '1' : '0'));

function showReason(text) {
  $('#reason').textContent = text || '';
}

function choose(turn) {
  if ($('#confirm-moves').checked) {
    pending = turn;
    const bar = $('#confirm-bar');
    bar.hidden = false;
    bar.innerHTML = `<span>Play <b>${esc(turn.human)}</b>?</span> <button type="button" class="primary" id="confirm-yes">Confirm</button> <button type="button" id="confirm-no">Cancel</button>`;
    bar.querySelector('#confirm-yes').addEventListener('click', () => {
      bar.hidden = true;
      const t = pending;
      pending = null;
      send(t.canonical);
    });
    bar.querySelector('#confirm-no').addEventListener('click', () => {
      bar.hidden = true;
      pending = null;
      render();
    });
    return;
  }
  send(turn.canonical);
}

async function send(text) {
  showReason('');
  try {
    const s = await api('POST', `/api/games/${encodeURIComponent(id)}/move`, { move: text }, actingToken());
    if (s && s.version !== undefined) setState(local.mode === 'local' ? await fetchState() : s);
  } catch (e) {
    showReason(e.message);
    render();
  }
}

async function action(name, body) {
  showReason('');
  try {
    const s = await api('POST', `/api/games/${encodeURIComponent(id)}/${name}`, body || {}, actingToken());
    if (s && s.version !== undefined) setState(local.mode === 'local' ? await fetchState() : s);
  } catch (e) {
    showReason(e.message);
  }
}

$('#move-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const v = $('#move-input').value.trim();
  if (!v) return;
  $('#move-input').value = '';
  send(v);
});

let resignArmed = false;
$('#resign').addEventListener('click', () => {
  if (!resignArmed) {
    resignArmed = true;
    $('#resign').textContent = 'Really resign?';
    setTimeout(() => {
      resignArmed = false;
      $('#resign').textContent = 'Resign';
    }, 4000);
    return;
  }
  resignArmed = false;
  $('#resign').textContent = 'Resign';
  action('resign');
});
$('#offer-draw').addEventListener('click', () => action('offer-draw'));
$('#abort').addEventListener('click', () => action('abort'));
$('#takeback').addEventListener('click', () => action('takeback'));
$('#rematch').addEventListener('click', rematch);
$('#copy-friend').addEventListener('click', async () => {
  const input = $('#friend-link');
  try {
    await navigator.clipboard.writeText(input.value);
    $('#copy-friend').textContent = 'Copied';
  } catch {
    input.select();
    $('#copy-friend').textContent = 'Select and copy';
  }
});
$('#record-link').addEventListener('click', async (e) => {
  e.preventDefault();
  try {
    const headers = {};
    const t = actingToken();
    if (t) headers.Authorization = `Bearer ${t}`;
    const res = await fetch(`/api/games/${encodeURIComponent(id)}/record`, { headers, credentials: 'same-origin' });
    if (!res.ok) throw new ApiError(res.status, 'The record cannot be read now.');
    const blob = await res.blob();
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `menagerie-${id}.pgn`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (ex) {
    showReason(ex.message);
  }
});

for (const b of app.querySelectorAll('[data-nav]')) b.addEventListener('click', () => nav(b.dataset.nav));
document.addEventListener('keydown', (e) => {
  const t = e.target;
  if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA' || (t.closest && t.closest('svg.board')))) return;
  if (e.key === 'ArrowLeft') nav('prev');
  else if (e.key === 'ArrowRight') nav('next');
  else if (e.key === 'Home') nav('first');
  else if (e.key === 'End') nav('last');
  else return;
  e.preventDefault();
});

/** Rematch: a new game at once (engine, one screen), or an offer the opponent accepts (PLAN.md Contract A). */
async function rematch() {
  if (!state) return;
  showReason('');
  askedRematch = true;
  try {
    // at one screen both seats are ours: White's token acts and Black's shows the server we hold it
    const local2 = local.mode === 'local' && tokenFor('white') && tokenFor('black');
    const r = local2
      ? await api('POST', `/api/games/${encodeURIComponent(id)}/rematch`, { opponent: tokenFor('black') }, tokenFor('white'))
      : await api('POST', `/api/games/${encodeURIComponent(id)}/rematch`, {}, actingToken());
    // a new game (201) has another id; the offer's answer is this game's state, which has seats too
    if (r && r.id && r.id !== id && r.seats) openRematch(r);
    else if (r && r.version !== undefined) {
      rematchOffer = r.rematch_offer ?? state.you;
      setState(local.mode === 'local' ? await fetchState() : r);
      render();
    }
  } catch (e) {
    showReason(e.message);
  }
}

const other = (c) => (c === 'white' ? 'black' : 'white');

/** Open the new game of a rematch from the `201` answer (the colours are swapped). */
function openRematch(g) {
  const seats = g.seats || {};
  const tokens = {};
  for (const c of ['white', 'black']) if (seats[c] && seats[c].token) tokens[c] = seats[c].token;
  const me = local.mode === 'local' ? 'white' : other(state.you === 'white' || state.you === 'black' ? state.you : local.me);
  leaving = true;
  const info = { mode: local.mode || 'engine', me, tokens: local.mode === 'local' ? tokens : tokens[me] ? { [me]: tokens[me] } : {}, variant: state.variant };
  saveLocalGame(g.id, info);
  // a seat's own link sets its cookie (the websocket is authenticated by it)
  location.href = local.mode !== 'local' && seats[me] && seats[me].url ? seats[me].url : `/game/${encodeURIComponent(g.id)}`;
}

/** The `rematch` event: a player goes to its seat of the new game, a spectator gets a link. */
function onRematchEvent(ev) {
  rematchGame = { game: ev.game, url: ev.url || null };
  if (ev.url && (state.you === 'white' || state.you === 'black')) {
    if (leaving) return; // the answer to our own acceptance already opens our seat
    leaving = true;
    const me = other(state.you);
    if (!localGame(ev.game)) saveLocalGame(ev.game, { mode: local.mode || 'friend', me, tokens: {}, variant: state.variant });
    location.href = ev.url;
    return;
  }
  if (local.mode === 'local') return; // the answer to our own call opens it
  render();
}

// ----- navigation through earlier positions -----

async function nav(where) {
  if (!state) return;
  const n = state.moves.length;
  const cur = viewPly === null ? n : viewPly;
  let target = { first: 0, prev: cur - 1, next: cur + 1, last: n }[where];
  target = Math.max(0, Math.min(n, target));
  await showPly(target);
}

async function showPly(ply) {
  if (!state) return;
  if (ply >= state.moves.length) {
    viewPly = null;
    viewBoard = null;
    viewAt = null;
    render();
    return;
  }
  const version = state.version;
  try {
    // the moment as this viewer may see it (an Imperial player gets its own view, never the umpire's)
    const r = await api('GET', `/api/games/${encodeURIComponent(id)}/at/${ply}`, undefined, actingToken());
    if (!state || state.version !== version) return; // the game moved on meanwhile
    viewPly = ply;
    viewBoard = r.board;
    viewAt = r;
    render();
  } catch (e) {
    showReason(e.message);
  }
}

// ----- drawing the page -----

function fmtClock(ms) {
  if (ms == null || Number.isNaN(ms)) return '';
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const pad = (x) => String(x).padStart(2, '0');
  const base = h ? `${h}:${pad(m % 60)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
  return ms < 10000 ? `${base}.${Math.floor((ms % 1000) / 100)}` : base;
}

function clockMs(color) {
  const c = state && state.clock;
  if (!c) return null;
  let ms = c[`${color}_ms`];
  if (typeof ms !== 'number') return null;
  // Contract A: `running` is the side whose clock runs (null before the first turn and after the end)
  if (c.running === color && !state.outcome) ms -= performance.now() - stateAt;
  return Math.max(0, ms);
}

/** Whether `color` lost on time (its flag fell). */
function flagged(color) {
  const o = state && state.outcome;
  return !!(o && o.code === 'time-forfeit' && o.winner && o.winner !== color);
}

function playerLabel(color) {
  const p = (state.players || {})[color] || 'human';
  const m = /^engine(?::(\d+))?$/.exec(p);
  const named = seatName(color);
  const who = m ? `Engine${m[1] ? ` level ${m[1]}` : ''}` : named ? (state.you === color ? `${named} (you)` : named) : state.you === color ? 'You' : local.mode === 'local' ? 'Player' : 'Opponent';
  return `${color === 'white' ? 'White' : 'Black'} · ${who}`;
}

/** The dot by a person's name: at the table (a page of that seat is connected) or away. */
function presenceDot(color) {
  const p = (state.players || {})[color] || 'human';
  if (p !== 'human' || local.mode === 'local' || !state.connected) return '';
  const on = !!state.connected[color];
  const text = on ? 'connected' : 'not connected';
  return `<span class="presence ${on ? 'on' : 'off'}" data-presence="${color}" title="${text}" role="img" aria-label="${text}"></span>`;
}

// ----- the table (issue 32 item 5): presence, the claims on absence -----

let absenceAt = null; // performance.now() when a claim on absence becomes possible

/** Takes the presence part of a state or of a `presence` message. */
function takePresence(p) {
  if (!state) return;
  state.connected = p.connected;
  state.absence = p.absence || null;
  absenceAt = state.absence ? performance.now() + state.absence.claim_in_ms : null;
}

function renderAbsence() {
  const box = $('#absence');
  const a = state && state.absence;
  const player = state && (state.you === 'white' || state.you === 'black') && local.mode !== 'local';
  if (!a || !player || a.color === state.you || state.outcome || absenceAt === null) {
    if (!box.hidden) {
      box.hidden = true;
      box.innerHTML = '';
      delete box.dataset.mode;
    }
    return;
  }
  box.hidden = false;
  const left = Math.max(0, Math.ceil((absenceAt - performance.now()) / 1000));
  const mode = left > 0 ? `wait:${left}` : 'claim';
  if (box.dataset.mode === mode) return;
  box.dataset.mode = mode;
  if (left > 0) {
    box.innerHTML = `<p id="absence-note">Your opponent has left the game. You may claim victory in <span id="absence-count">${left}</span> s.</p>`;
    return;
  }
  box.innerHTML = '<p id="absence-note">Your opponent has left the game.</p> <button type="button" class="primary" id="claim-absence-win">Claim victory</button> <button type="button" id="claim-absence-draw">Call it a draw</button>';
  box.querySelector('#claim-absence-win').addEventListener('click', () => action('claim', { claim: 'win-on-absence' }));
  box.querySelector('#claim-absence-draw').addEventListener('click', () => action('claim', { claim: 'draw-on-absence' }));
}

setInterval(() => {
  if (state && state.absence) renderAbsence();
}, 250);

function renderPlayers() {
  const bottom = board.orientation;
  const top = bottom === 'white' ? 'black' : 'white';
  for (const [el, color] of [
    [$('#player-top'), top],
    [$('#player-bottom'), bottom],
  ]) {
    const ms = clockMs(color);
    const toMove = !state.outcome && state.turn === color;
    const running = !!(state.clock && state.clock.running === color && !state.outcome);
    const flag = flagged(color);
    el.className = `player ${el === $('#player-top') ? 'top' : 'bottom'}${toMove ? ' to-move' : ''}`;
    el.dataset.color = color;
    const cls = `clock${running ? ' running' : ''}${ms != null && ms < 20000 ? ' low' : ''}${flag ? ' flagged' : ''}`;
    const clock = ms == null ? '' : `<span class="${cls}" data-clock="${color}" title="${flag ? 'Flag fallen: out of time' : running ? 'Running' : 'Stopped'}">${flag ? '<span class="flag" aria-label="flag fallen">⚑</span> ' : ''}${fmtClock(ms)}</span>`;
    // correspondence (issue 32): the side to move has until its deadline
    const corr = state.correspondence;
    const due = corr && corr.deadline_ms && toMove ? ` <span class="deadline" data-deadline="${color}" title="${esc(corr.days_per_turn)} day${corr.days_per_turn === 1 ? '' : 's'} a turn">moves by ${esc(new Date(corr.deadline_ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }))}</span>` : '';
    el.innerHTML = `<span class="who"><span class="name">${esc(playerLabel(color))}</span>${presenceDot(color)}</span>${clock}${due}`;
  }
}

// Little Cheops' recorder notation starts with the round and side ("12a"); the list numbers rows itself.
function shortHuman(h) {
  return String(h || '').replace(/^\d+[ab]\s+/, '');
}

function renderMoves() {
  const ol = $('#moves');
  const moves = state.moves || [];
  const shown = viewPly === null ? moves.length : viewPly;
  const items = [];
  for (let i = 0; i < moves.length; i += 2) {
    const cell = (j) =>
      j < moves.length ? `<button type="button" class="mv${j + 1 === shown ? ' current' : ''}" data-ply="${j + 1}" title="${esc(moves[j].canonical)}">${esc(shortHuman(moves[j].human))}</button>` : '';
    items.push(`<li><span class="num">${i / 2 + 1}.</span>${cell(i)}${cell(i + 1)}</li>`);
  }
  ol.innerHTML = items.join('');
  for (const b of ol.querySelectorAll('[data-ply]')) b.addEventListener('click', () => showPly(Number(b.dataset.ply)));
  const cur = ol.querySelector('.current');
  if (cur && viewPly === null) ol.scrollTop = ol.scrollHeight;
}

const colorName = (c) => (c === 'white' ? 'White' : c === 'black' ? 'Black' : c);

function outcomeText(o) {
  if (o.code === 'aborted') return { head: 'Game aborted', body: 'No result: the game was aborted before both players had moved.' };
  const pts = o.points ? ` Points: White ${o.points.white}, Black ${o.points.black}.` : '';
  if (o.code === 'time-forfeit' && o.winner) {
    const loser = o.winner === 'white' ? 'black' : 'white';
    return { head: `${colorName(o.winner)} wins on time${o.result ? ` (${o.result})` : ''}`, body: `${colorName(loser)}'s flag fell: time forfeit.${pts}` };
  }
  const who = o.winner ? `${colorName(o.winner)} wins` : 'Draw';
  let rule = String(o.sentence || o.code || '');
  if (rule && !/[.!?]$/.test(rule)) rule += '.';
  rule = rule.charAt(0).toUpperCase() + rule.slice(1);
  return { head: `${who}${o.result ? ` (${o.result})` : ''}`, body: `${rule}${pts}` };
}

/** A rated game's end: each player's change and new rating (provisional "?" explained), or why it changed nothing. */
function ratingChangeHtml() {
  const rc = state.rating_change;
  if (rc) {
    const side = (c) => {
      const r = rc[c];
      if (!r) return '';
      const cls = r.diff > 0 ? 'up' : r.diff < 0 ? 'down' : '';
      return `<span class="rating-change" data-color="${c}">${esc(playerLabel(c))}: <span class="diff ${cls}">${esc(signed(r.diff))}</span> → ${ratingHtml(r.after, r.rd, r.provisional)}</span>`;
    };
    return `<span id="rating-change">${side('white')}${side('black')}</span>`;
  }
  if (state.rated && state.unrated_because) {
    let why = String(state.unrated_because);
    why = why.charAt(0).toUpperCase() + why.slice(1);
    return `<span class="rating-change" id="unrated-note">No rating changed: ${esc(why)}.</span>`;
  }
  if (state.rated) return '<span class="rating-change" id="rating-pending">Rated game: the ratings change shortly.</span>';
  return '';
}

function render() {
  if (!state) return;
  document.title = `${variantName(variantList, state.variant)} — Menagerie`;
  const live = viewPly === null;
  const claims = (state.claims || []).map((c) => (typeof c === 'string' ? { code: c, sentence: c } : c));
  // a claim the state lists is a button beside the board (POST /claim), not a second one under it
  const claimCodes = new Set(claims.map((c) => String(c.code).toLowerCase()));
  const legal = (state.legal || []).filter((t) => !(t.kind === 'claim' && claimCodes.has(String(t.canonical).toLowerCase())));
  const canMove = live && !state.outcome && (state.legal || []).length > 0;
  if (!board.snapshot && (state.you === 'black' || (local.me === 'black' && local.mode !== 'local'))) board.orientation = 'black';
  board.set({
    board: live ? state.board : viewBoard,
    legal: canMove ? legal : [],
    mover: state.turn,
    variant: state.variant,
    interactive: canMove,
  });
  // the player's turn has just come: a queued premove is played now if it is legal
  const myTurn = canMove && local.mode !== 'local' && state.turn === state.you;
  if (myTurn && !premoveTurn) premove.onTurn(legal);
  premoveTurn = myTurn;
  $('#reset-view').hidden = !board.wraps;
  renderOffBoard(offBoard, live ? state.board : viewBoard, state.variant, state.rules);
  renderLegend(legend, live ? state.board : viewBoard, state.variant);
  renderPlayers();
  renderMoves();
  $('#rated-note').hidden = !state.rated || !!state.outcome;
  const banner = $('#banner');
  if (state.outcome) {
    const t = outcomeText(state.outcome);
    banner.hidden = false;
    banner.innerHTML = `<strong id="banner-head">${esc(t.head)}</strong><span id="banner-rule">${esc(t.body)}</span>${ratingChangeHtml()}`;
  } else banner.hidden = true;
  const status = $('#status');
  if (state.outcome && !live) status.textContent = `The game is over. Showing the position after turn ${viewPly} of ${state.moves.length}.`;
  else if (state.outcome) status.textContent = 'The game is over.';
  else if (!live) {
    const last = viewAt && viewAt.last ? ` (${shortHuman(viewAt.last.human)})` : '';
    status.textContent = viewPly === 0 ? `Showing the start position; the game is at turn ${state.moves.length}.` : `Showing the position after turn ${viewPly} of ${state.moves.length}${last}.`;
  }
  else if (state.you === 'spectator') status.textContent = `You are watching. ${state.turn === 'white' ? 'White' : 'Black'} to move.`;
  else if (canMove) status.textContent = `${local.mode === 'local' ? (state.turn === 'white' ? 'White' : 'Black') + ' to move.' : 'Your turn.'}${state.board.check ? ' Check!' : ''}`;
  else status.textContent = `Waiting for ${state.turn === 'white' ? 'White' : 'Black'}…`;
  const seat = state.you === 'white' || state.you === 'black' || local.mode === 'local';
  renderAbsence();
  $('#abort').hidden = !seat || !state.abortable;
  $('#move-form').hidden = !seat || !!state.outcome;
  $('#controls').hidden = !seat;
  // once the game is over only the rematch is left
  for (const b of ['#resign', '#offer-draw', '#takeback']) $(b).hidden = !!state.outcome;
  $('#resign').disabled = !!state.outcome;
  $('#offer-draw').disabled = !!state.outcome || (state.draw_offer && state.draw_offer === state.you);
  $('#takeback').disabled = !!state.outcome || !(state.moves || []).length;
  const offer = state.outcome ? state.rematch_offer ?? rematchOffer : null;
  const mine = offer && (offer === state.you || local.mode === 'local');
  $('#rematch').hidden = !state.outcome || !!offer || !!(state.rematch && state.rematch.game) || !!rematchGame;
  const offers = $('#offers');
  const parts = [];
  if (!state.outcome && state.draw_offer && state.draw_offer !== state.you && seat) {
    parts.push(`<div class="offer"><span>${state.draw_offer === 'white' ? 'White' : 'Black'} offers a draw.</span> <button type="button" id="accept-draw" class="primary">Accept</button> <button type="button" id="decline-draw">Decline</button></div>`);
  } else if (!state.outcome && state.draw_offer) {
    parts.push('<div class="offer">Draw offered.</div>');
  }
  if (!state.outcome && state.takeback_request && state.takeback_request !== state.you && seat) {
    parts.push(`<div class="offer"><span>${state.takeback_request === 'white' ? 'White' : 'Black'} asks to take back.</span> <button type="button" id="accept-takeback" class="primary">Agree</button> <button type="button" id="decline-takeback">Refuse</button></div>`);
  }
  if (seat && !state.outcome) {
    const claimButton = (c) => `<button type="button" class="claim" data-claim="${esc(c.code)}" title="${esc(c.sentence)}">Claim: ${esc(c.sentence || c.code)}</button>`;
    for (const c of claims.filter((k) => !QUIET_CLAIMS.has(k.code))) parts.push(`<div class="offer claim-offer">${claimButton(c)}</div>`);
    const quiet = claims.filter((k) => QUIET_CLAIMS.has(k.code));
    if (quiet.length) parts.push(`<details class="claims-more" id="claims-more"><summary>Claims</summary>${quiet.map(claimButton).join('')}</details>`);
  }
  if (offer && seat && !mine) {
    parts.push(`<div class="offer" id="rematch-offer"><span>${colorName(offer)} offers a rematch.</span> <button type="button" id="accept-rematch" class="primary">Accept</button></div>`);
  } else if (offer && seat) {
    parts.push('<div class="offer" id="rematch-offer">Rematch offered; waiting for the opponent.</div>');
  }
  // the state's `rematch` (a reload after it started) or the event's
  const next = (state.rematch && state.rematch.game ? state.rematch : null) || rematchGame;
  if (next) {
    const href = next.url || `/game/${encodeURIComponent(next.game)}`;
    parts.push(`<div class="offer" id="rematch-link">The rematch has started: <a href="${esc(href)}">${next.url ? 'play it' : 'watch it'}</a>.</div>`);
  }
  const wasOpen = !!(offers.querySelector('#claims-more') || {}).open;
  offers.innerHTML = parts.join('');
  if (wasOpen && offers.querySelector('#claims-more')) offers.querySelector('#claims-more').open = true;
  const ad = offers.querySelector('#accept-draw');
  if (ad) ad.addEventListener('click', () => action('accept-draw'));
  const dd = offers.querySelector('#decline-draw');
  if (dd) dd.addEventListener('click', () => action('decline-draw'));
  const at = offers.querySelector('#accept-takeback');
  if (at) at.addEventListener('click', () => action('takeback', { action: 'accept' }));
  const dt = offers.querySelector('#decline-takeback');
  if (dt) dt.addEventListener('click', () => action('takeback', { action: 'decline' }));
  const ar = offers.querySelector('#accept-rematch');
  if (ar) ar.addEventListener('click', rematch);
  for (const b of offers.querySelectorAll('[data-claim]')) confirmClick(b, `Really claim? ${b.dataset.claim === 'challenge' ? 'The count starts now.' : 'Click again.'}`, () => action('claim', { claim: b.dataset.claim }));
  const friend = $('#friend');
  if (local.friend && !state.outcome && !inviteTaken()) {
    friend.hidden = false;
    $('#friend-link').value = local.friend;
  } else friend.hidden = true;
  renderSeatNotes();
  $('#rules-link').href = `/rules/${encodeURIComponent(state.variant)}`;
  $('#record-link').href = `/api/games/${encodeURIComponent(id)}/record`;
  $('#move-input').placeholder = { chess: 'e.g. e4 or e2e4', vyrt: 'e.g. E2-E4', cypher: 'e.g. d4 or d3-d4', 'little-cheops': 'e.g. e2e3', 'little-cheops-imperial': 'e.g. e2e3 or appoint:d4' }[state.variant] || 'a move';
}

setInterval(() => {
  if (state && state.clock && !state.outcome) renderPlayers();
}, 250);

// ----- people (issue 29): names on the seats, the invitation, the umpire's key -----

let joined = null; // the `joined` event seen live: `{color, name}`
const inviteTakenHere = new URLSearchParams(location.search).get('invite') === 'taken';

/** The account's name in a seat (`state.seats`), or null (anonymous, engine, an older server). */
function seatName(color) {
  const seat = state && state.seats && state.seats[color];
  return seat && seat.name ? seat.name : null;
}

/** Whether the seat this browser invited a friend to has been taken. */
function inviteTaken() {
  const me = state.you === 'white' || state.you === 'black' ? state.you : local.me;
  const seat = state.seats && state.seats[other(me)];
  return !!(joined || (seat && seat.taken));
}

/** The `joined` event: the invited seat is taken (a live notice for the player who invited). */
function onJoined(ev) {
  joined = { color: ev.color || null, name: ev.name || null };
  if (state) render();
}

function renderSeatNotes() {
  const notes = [];
  const player = state.you === 'white' || state.you === 'black';
  if (inviteTakenHere && !player) notes.push('<p class="seat-note" id="invite-taken">This invitation has already been used: the seat is taken; you are watching.</p>');
  if (joined && player && joined.color !== state.you) notes.push(`<p class="seat-note joined" id="joined-note">Your friend has joined${joined.name ? ` as ${esc(joined.name)}` : ''}.</p>`);
  if (state.umpire_key && player) notes.push('<p class="seat-note" id="umpire-note">An umpire holds the key to this game: the umpire sees both sides\' secrets.</p>');
  const box = $('#seat-notes');
  const html = notes.join('');
  if (box.innerHTML !== html) box.innerHTML = html;
}

// ----- live -----

function connect() {
  if (!state) return;
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  // The socket is authenticated by the seat's cookie (a token never goes in an address);
  // at one screen it may be a spectator's, and each event is followed by a read with the token.
  const url = `${proto}//${location.host}/api/games/${encodeURIComponent(id)}/ws?since=${state.version}`;
  let sock;
  try {
    sock = new WebSocket(url);
  } catch {
    retry();
    return;
  }
  ws = sock;
  sock.onopen = () => {
    wsTries = 0;
    document.body.classList.remove('offline');
    // what was said while the socket was away
    if (chatShown()) chat.load();
  };
  sock.onmessage = async (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (!msg || typeof msg !== 'object') return;
    // without a version: a player arrived or left, a chat message
    if (msg.presence) {
      takePresence(msg.presence);
      if (state) {
        renderPlayers();
        renderAbsence();
      }
      return;
    }
    if (msg.chat) {
      chat.receive(msg.chat);
      return;
    }
    const event = msg.event || {};
    showNotice(notice, event, state && state.you);
    if (event.type === 'rematch-offer') rematchOffer = event.color || null;
    if (event.type === 'joined') onJoined(event);
    if (event.type === 'rematch' && event.game) {
      onRematchEvent(event);
      return;
    }
    if (local.mode === 'local') {
      if (!msg.state) return;
      try {
        setState(await fetchState());
      } catch {
        /* the next event will try again */
      }
    } else if (msg.state) {
      setState(msg.state);
    }
  };
  sock.onclose = () => {
    if (ws === sock) retry();
  };
  sock.onerror = () => {};
}

// ----- chat (issue 32 item 6) -----

const chat = new Chat({ id, token: () => actingToken(), you: () => (state ? state.you : 'spectator') });
$('.links').before(chat.el);
chat.el.hidden = true;

/** Whether this page has a chat: not at one screen, and a player's only against a person. */
function chatShown() {
  if (!state || local.mode === 'local') return false;
  const player = state.you === 'white' || state.you === 'black';
  return !player || ((state.players || {})[other(state.you)] || 'human') === 'human';
}

function retry() {
  document.body.classList.add('offline');
  wsTries++;
  const delay = Math.min(4000, 250 * 2 ** Math.min(wsTries, 4));
  setTimeout(async () => {
    try {
      setState(await fetchState());
    } catch {
      /* still away */
    }
    connect();
  }, delay);
}

async function main() {
  if (!id) {
    app.innerHTML = '<p class="error">No game is named in this address.</p>';
    return;
  }
  try {
    variantList = await variants();
  } catch {
    variantList = [];
  }
  setPieceTables(variantList);
  try {
    const s = await fetchState();
    if (s.you && (s.you === 'white' || s.you === 'black') && !local.me) {
      local.me = s.you;
      saveLocalGame(id, local);
    }
    setState(s);
  } catch (e) {
    app.innerHTML = `<p class="error">${esc(e.message)}</p>`;
    return;
  }
  // Titled for this seat before it appears, not only once the room's messages have come.
  const shown = chatShown();
  if (shown) chat.render();
  chat.el.hidden = !shown;
  connect();
}

main();

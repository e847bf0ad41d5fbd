// Home page: the lobby (lobby.js), then pick a game (with a picture of its start position), an opponent, a colour,
// the rule options and an optional clock, then start.

import { api, variants, saveLocalGame, esc, header, account, PROVISIONAL_HELP } from './api.js';
import { Board } from './board.js';
import { snapshotFromFen } from './snapshot.js';
import { mountLobby } from './lobby.js';

const app = document.getElementById('app');
document.getElementById('top').innerHTML = header('home');

// One paragraph on each game for the home page (the server's summary is used for others).
const ABOUT = {
  chess: 'Orthodox chess, the game every other one here starts from. Useful to check the engine and to warm up.',
  vyrt: 'Chess on a 12x12 torus: the left edge joins the right and the top joins the bottom, so Rooks and Bishops run round the board and there are no corners to hide in. Each side has the classic pieces in the middle and a ring of 22 Pawns. Drag the board or use the arrow keys to turn it round.',
  cypher: 'A 10x11 board cut into Court (the rim), Border (the middle rank) and Field. Where a piece stands decides what it may capture and be captured by. Each side has a Spy that lets pieces into Court, flips a King it comes next to, and can be captured only by infiltration.',
  'little-cheops': 'The Common style of Little Cheops on 9x9: Towers, Ministers, a Prime Minister, Knights, Pawns and two Civilians that can never be captured.',
  'little-cheops-imperial': 'The Imperial style on 13x13, with Castles built from two Rooks and two Civilians, arrests, and Deputies appointed in secret: the server is the umpire and shows you only what you may know.',
};

function optionInput(opt) {
  const name = opt.name || opt.id;
  const id = `rule-${name}`;
  const help = opt.description || opt.help;
  const desc = help ? `<small>${esc(help)}</small>` : '';
  const values = opt.values || opt.choices;
  const def = opt.default;
  if (typeof def === 'boolean' || opt.kind === 'bool' || opt.type === 'bool' || opt.type === 'boolean') {
    return `<label class="rule"><input type="checkbox" id="${esc(id)}" data-rule="${esc(name)}" data-type="bool"${def ? ' checked' : ''}> ${esc(opt.label || name)} ${desc}</label>`;
  }
  if (Array.isArray(values) && values.length) {
    const opts = values.map((v) => `<option${String(v) === String(def) ? ' selected' : ''}>${esc(v)}</option>`).join('');
    return `<label class="rule">${esc(opt.label || name)} <select id="${esc(id)}" data-rule="${esc(name)}" data-type="${typeof def === 'number' ? 'number' : 'text'}">${opts}</select> ${desc}</label>`;
  }
  const type = typeof def === 'number' ? 'number' : 'text';
  return `<label class="rule">${esc(opt.label || name)} <input id="${esc(id)}" data-rule="${esc(name)}" data-type="${type}" type="${type}" value="${esc(def ?? '')}"> ${desc}</label>`;
}

function options(v) {
  const o = v.options || v.rule_options || v.rules || [];
  if (Array.isArray(o)) return o;
  return Object.entries(o).map(([name, val]) => (typeof val === 'object' && val ? { name, ...val } : { name, default: val }));
}

async function main() {
  let list;
  try {
    list = await variants();
  } catch (e) {
    app.innerHTML = `<p class="error">${esc(e.message)}</p>`;
    return;
  }
  const params = new URLSearchParams(location.search);
  let chosen = params.get('variant') || (list[0] && list[0].id);
  app.innerHTML = `
    <section class="intro"><h1>Play a chess variant</h1>
    <p>Meet a player in the lobby, or pick a game, an opponent and a colour below and press Start. The rules are one click away on the game page.</p></section>
    <section id="lobby" class="lobby" aria-label="The lobby"></section>
    <section class="variant-list" aria-label="Games">${list
      .map(
        (v) => `<button type="button" class="variant-card" data-variant="${esc(v.id)}" aria-pressed="false">
          <div class="thumb" data-thumb="${esc(v.id)}"></div>
          <h2>${esc(v.name || v.id)}</h2>
          <p>${esc(ABOUT[v.id] || v.description || v.summary || '')}</p>
        </button>`,
      )
      .join('')}</section>
    <form id="new-game" class="new-game">
      <h2>New game: <span id="chosen-name"></span> <a id="rules-link" href="#">rules</a></h2>
      <p class="chosen-about" id="chosen-about"></p>
      <fieldset><legend>Opponent</legend>
        <label><input type="radio" name="opponent" value="engine" checked> the engine, level
          <select name="level" id="level">${[1, 2, 3, 4, 5, 6, 7, 8].map((l) => `<option value="${l}"${l === 3 ? ' selected' : ''}>${l}</option>`).join('')}</select></label>
        <label><input type="radio" name="opponent" value="friend"> a friend, by link</label>
        <label><input type="radio" name="opponent" value="local"> two players at one screen</label>
        <label id="rated-choice" hidden><input type="checkbox" name="rated" id="rated"> rated: the result changes both players' ratings in this game <span id="my-rating"></span></label>
        <p class="muted" id="rated-login" hidden>Log in to play rated games.</p>
      </fieldset>
      <fieldset><legend>Your colour</legend>
        <label><input type="radio" name="color" value="white" checked> White</label>
        <label><input type="radio" name="color" value="black"> Black</label>
        <label><input type="radio" name="color" value="random"> random</label>
      </fieldset>
      <fieldset id="rule-options"><legend>Rule options</legend></fieldset>
      <fieldset id="start-position"><legend>Start position</legend>
        <label for="start-fen">Position string</label>
        <input name="fen" id="start-fen" placeholder="empty: the game's own start" spellcheck="false" autocapitalize="off" value="${esc(params.get('fen') || '')}">
        <a id="edit-position" href="/analysis">set it up on a board</a>
      </fieldset>
      <fieldset><legend>Clock</legend>
        <label><input type="checkbox" name="clock" id="clock"> play with a clock:</label>
        <label><input type="number" name="minutes" id="minutes" min="0.17" max="180" step="any" value="10"> minutes</label>
        <label>+ <input type="number" name="increment" id="increment" min="0" max="60" value="5"> seconds a turn</label>
      </fieldset>
      <button type="submit" class="primary" id="start">Start</button>
      <p class="error" id="start-error" role="alert"></p>
    </form>`;

  mountLobby(app.querySelector('#lobby'), list);
  for (const v of list) {
    const box = app.querySelector(`[data-thumb="${CSS.escape(v.id)}"]`);
    const snap = v.board || v.start_board || snapshotFromFen(v.id, v.geometry, v.start_fen);
    if (box && snap) {
      const b = new Board(box, {});
      b.set({ board: snap, variant: v.id });
      b.svg.removeAttribute('tabindex');
    }
  }

  const select = (id) => {
    chosen = id;
    const v = list.find((x) => x.id === id);
    for (const card of app.querySelectorAll('.variant-card')) card.setAttribute('aria-pressed', String(card.dataset.variant === id));
    app.querySelector('#chosen-name').textContent = v ? v.name || v.id : id;
    app.querySelector('#rules-link').href = `/rules/${encodeURIComponent(id)}`;
    app.querySelector('#chosen-about').textContent = v ? ABOUT[v.id] || v.description || v.summary || '' : '';
    const ro = app.querySelector('#rule-options');
    const opts = v ? options(v) : [];
    ro.innerHTML = `<legend>Rule options</legend>${opts.length ? opts.map(optionInput).join('') : '<p class="muted">This game has no rule options.</p>'}`;
    showRatings();
  };
  // Each level's rating in the chosen game (bots are rated players), and the player's own.
  let bots = [];
  let mine = {};
  const rated = (r) => (r ? `${Math.round(r.rating)}${r.provisional ? '?' : ''}` : '');
  const showRatings = () => {
    for (const o of app.querySelectorAll('#level option')) {
      const b = bots.find((x) => String(x.level) === o.value);
      const r = b && b.ratings && b.ratings[chosen];
      o.textContent = r ? `${o.value} (rated ${rated(r)})` : o.value;
      o.title = r && r.provisional ? PROVISIONAL_HELP : '';
    }
    const me = app.querySelector('#my-rating');
    const r = mine[chosen];
    me.textContent = r ? `(your rating here: ${rated(r)})` : '';
    me.title = r && r.provisional ? PROVISIONAL_HELP : '';
  };
  api('GET', '/api/bots')
    .then((b) => {
      bots = b.bots || [];
      showRatings();
    })
    .catch(() => {});
  account().then(async (a) => {
    const choice = app.querySelector('#rated-choice');
    if (!a || !a.name) {
      app.querySelector('#rated-login').hidden = false;
      return;
    }
    choice.hidden = false;
    try {
      const u = await api('GET', `/api/users/${encodeURIComponent(a.name)}`);
      mine = u.ratings || {};
    } catch {
      mine = {};
    }
    showRatings();
  });
  for (const card of app.querySelectorAll('.variant-card')) {
    card.addEventListener('click', () => {
      // a position string belongs to its game
      if (card.dataset.variant !== chosen) app.querySelector('#start-fen').value = '';
      select(card.dataset.variant);
      editLink();
    });
  }
  select(chosen);
  // rule options given in the address (the analysis board's "play from here")
  for (const [k, v] of params) {
    const el = k.startsWith('rule.') ? app.querySelector(`[data-rule="${CSS.escape(k.slice(5))}"]`) : null;
    if (el && el.dataset.type === 'bool') el.checked = v === 'on' || v === 'true';
    else if (el) el.value = v;
  }
  const editLink = () => {
    const q = new URLSearchParams({ variant: chosen, edit: '1' });
    const fen = app.querySelector('#start-fen').value.trim();
    if (fen) q.set('fen', fen);
    app.querySelector('#edit-position').href = `/analysis?${q}`;
  };
  app.querySelector('#start-fen').addEventListener('input', editLink);
  editLink();

  app.querySelector('#new-game').addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = e.target;
    const opponent = f.opponent.value;
    const asked = f.color.value;
    // against the engine the page picks a random colour itself (the engine's seat must be named);
    // a friend game asks the server for "random"
    let color = asked === 'random' && opponent !== 'friend' ? (Math.random() < 0.5 ? 'white' : 'black') : asked;
    const rules = {};
    for (const el of app.querySelectorAll('[data-rule]')) {
      const t = el.dataset.type;
      rules[el.dataset.rule] = t === 'bool' ? el.checked : t === 'number' ? Number(el.value) : el.value;
    }
    const body = { variant: chosen, rules, white: 'human', black: 'human' };
    const fen = f.fen.value.trim();
    if (fen) body.fen = fen;
    // the creator takes its own seat only (issue 29): no key to the other seat or the umpire's;
    // at one screen both seats are this browser's
    if (opponent !== 'local') body.as = color;
    // rated: against the engine or a friend with an account, never at one screen
    if (f.rated && f.rated.checked && opponent !== 'local') body.rated = true;
    if (opponent === 'engine') body[color === 'white' ? 'black' : 'white'] = `engine:${f.level.value}`;
    if (f.clock.checked) {
      body.clock = { initial_ms: Math.round(Number(f.minutes.value) * 60000), increment_ms: Math.round(Number(f.increment.value) * 1000) };
    }
    const err = app.querySelector('#start-error');
    err.textContent = '';
    try {
      const g = await api('POST', '/api/games', body);
      const seats = g.seats || {};
      const tokens = {};
      for (const c of ['white', 'black']) if (seats[c] && seats[c].token) tokens[c] = seats[c].token;
      // with "as" the answer holds the creator's seat alone (the server chose it for "random")
      if (opponent !== 'local') color = ['white', 'black'].find((c) => seats[c] && c === color) || ['white', 'black'].find((c) => seats[c]) || 'white';
      const info = { mode: opponent, me: color, tokens: opponent === 'local' ? tokens : { [color]: tokens[color] }, variant: chosen };
      // the friend's invitation, shown on the game page until the friend has taken the seat
      if (opponent === 'friend' && g.invite && g.invite.url) info.friend = new URL(g.invite.url, location.href).href;
      saveLocalGame(g.id, info);
      const mine = seats[color];
      location.href = opponent !== 'local' && mine && mine.url ? mine.url : `/game/${encodeURIComponent(g.id)}`;
    } catch (ex) {
      err.textContent = ex.message;
    }
  });
}

main();

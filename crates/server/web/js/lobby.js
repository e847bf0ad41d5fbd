// The lobby on the home page (issue 32): the live list of open seeks (accept one, or cancel
// your own), a form to make a seek, quick pairing across several games and time controls,
// the engine's levels as bots to challenge, and how many people are online and playing.

import { api, esc, account } from './api.js';
import { onLobby, expectGame, reconnectLobby, controlText } from './notify.js';

const CLOCKS = [
  [1, 0],
  [3, 0],
  [3, 2],
  [5, 3],
  [10, 0],
  [10, 5],
  [15, 10],
  [30, 0],
];
const DAYS = [1, 2, 3, 5, 7, 10, 14];

/** Draws the lobby in `el` for the games in `list`. */
export function mountLobby(el, list) {
  const name = (id) => (list.find((v) => v.id === id) || {}).name || id;
  const variantOptions = list.map((v) => `<option value="${esc(v.id)}">${esc(v.name || v.id)}</option>`).join('');
  el.innerHTML = `
    <h2>The lobby <small class="muted" id="lobby-counts"></small></h2>
    <p class="error" id="lobby-error" role="alert"></p>
    <div class="lobby-cols">
      <div class="lobby-list">
        <h3>Open seeks</h3>
        <div class="table-wrap"><table class="games" id="seeks"><thead><tr><th>Player</th><th>Rating</th><th>Game</th><th>Time</th><th>Mode</th><th>Colour</th><th></th></tr></thead><tbody></tbody></table></div>
        <p class="muted" id="no-seeks">No open seeks: make one, or ask for quick pairing.</p>
        <h3>Bots</h3>
        <p class="muted">The engine's levels accept any challenge at once, with the game and time of the seek form.</p>
        <ul class="bots" id="bots"></ul>
      </div>
      <div class="lobby-forms">
        <form id="seek-form" class="lobby-form">
          <h3>Make a seek</h3>
          <label>Game <select id="seek-variant">${variantOptions}</select></label>
          <fieldset><legend>Time</legend>
            <label><input type="radio" name="seek-kind" value="clock" checked> a clock:</label>
            <label><input type="number" id="seek-minutes" min="0.17" max="180" step="any" value="10"> minutes</label>
            <label>+ <input type="number" id="seek-increment" min="0" max="60" value="5"> seconds a turn</label><br>
            <label><input type="radio" name="seek-kind" value="days"> correspondence:</label>
            <label><select id="seek-days">${DAYS.map((d) => `<option value="${d}"${d === 3 ? ' selected' : ''}>${d}</option>`).join('')}</select> days a turn</label>
          </fieldset>
          <label><input type="checkbox" id="seek-rated"> rated</label>
          <label>Your colour <select id="seek-color"><option value="random">random</option><option value="white">White</option><option value="black">Black</option></select></label>
          <label>Opponents rated <input type="number" id="seek-low" min="0" max="4000" placeholder="any"> to <input type="number" id="seek-high" min="0" max="4000" placeholder="any"></label>
          <button type="submit" class="primary" id="create-seek">Make the seek</button>
        </form>
        <form id="pairing-form" class="lobby-form">
          <h3>Quick pairing</h3>
          <p class="muted">Tick every game and time you would play: you meet the first player who fits.</p>
          <fieldset><legend>Games</legend>${list.map((v) => `<label><input type="checkbox" name="pair-variant" value="${esc(v.id)}"> ${esc(v.name || v.id)}</label>`).join(' ')}</fieldset>
          <fieldset><legend>Times</legend>${CLOCKS.map(([m, i]) => `<label><input type="checkbox" name="pair-clock" value="${m}+${i}"> ${m}+${i}</label>`).join(' ')}
            ${[1, 3, 7].map((d) => `<label><input type="checkbox" name="pair-days" value="${d}"> ${d} day${d === 1 ? '' : 's'} a turn</label>`).join(' ')}</fieldset>
          <label><input type="checkbox" id="pair-rated"> rated</label>
          <button type="submit" class="primary" id="start-pairing">Find an opponent</button>
          <p id="pairing-status" role="status"></p>
        </form>
      </div>
    </div>`;

  const $ = (s) => el.querySelector(s);
  const mine = new Set();
  const seeks = new Map();
  let person = false;
  let waiting = null; // the quick pairing this page waits on
  const error = (e) => {
    $('#lobby-error').textContent = e ? e.message || String(e) : '';
  };
  const modeText = (s) => (s.rated ? 'rated' : 'casual');
  const colorText = (c) => (c === 'white' ? 'White' : c === 'black' ? 'Black' : 'random');

  function row(s) {
    const p = s.player || {};
    const who = p.name ? `<a href="/@/${encodeURIComponent(p.name)}">${esc(p.name)}</a>` : 'Anonymous';
    const rating = p.rating == null ? '' : `${p.rating}${p.provisional ? '?' : ''}`;
    const range = s.rating_range ? ` <small class="muted">(${s.rating_range[0]}–${s.rating_range[1]})</small>` : '';
    const button = mine.has(s.id) ? '<button type="button" class="cancel-seek">Cancel</button>' : '<button type="button" class="primary accept-seek">Play</button>';
    return `<tr data-seek="${esc(s.id)}"${mine.has(s.id) ? ' class="mine"' : ''}><td data-col="player">${who}</td><td data-col="rating">${esc(rating)}${range}</td><td data-col="game">${esc(name(s.variant))}</td><td data-col="time">${esc(controlText(s))}</td><td data-col="mode">${modeText(s)}</td><td data-col="color">${colorText(s.color)}</td><td>${button}</td></tr>`;
  }

  function draw() {
    const all = [...seeks.values()].sort((a, b) => a.created_at - b.created_at);
    $('#seeks tbody').innerHTML = all.map(row).join('');
    $('#no-seeks').hidden = all.length > 0;
    for (const tr of el.querySelectorAll('#seeks tr[data-seek]')) {
      const id = tr.dataset.seek;
      const accept = tr.querySelector('.accept-seek');
      if (accept) {
        accept.addEventListener('click', async () => {
          error(null);
          try {
            const g = await api('POST', `/api/seeks/${encodeURIComponent(id)}/accept`, {});
            location.href = g.url;
          } catch (e) {
            error(e);
          }
        });
      }
      const cancel = tr.querySelector('.cancel-seek');
      if (cancel) {
        cancel.addEventListener('click', async () => {
          error(null);
          try {
            await api('DELETE', `/api/seeks/${encodeURIComponent(id)}`);
          } catch (e) {
            error(e);
          }
        });
      }
    }
  }

  function drawBots(bots) {
    $('#bots').innerHTML = (bots || [])
      .map((b) => `<li data-level="${b.level}"><span class="bot-name">${esc(b.name)}</span> <small class="muted">bot${b.ratings && b.ratings[$('#seek-variant').value] ? `, ${b.ratings[$('#seek-variant').value]}` : ''}</small> <button type="button" class="challenge-bot">Challenge</button></li>`)
      .join('');
    for (const li of el.querySelectorAll('#bots li')) {
      li.querySelector('.challenge-bot').addEventListener('click', async () => {
        error(null);
        const body = { to: `engine:${li.dataset.level}`, ...settings() };
        delete body.rating_range;
        try {
          const g = await api('POST', '/api/challenges', body);
          location.href = g.url;
        } catch (e) {
          error(e);
        }
      });
    }
  }

  /** The seek form's settings as the API names them. */
  function settings() {
    const body = { variant: $('#seek-variant').value, rated: $('#seek-rated').checked, color: $('#seek-color').value };
    if (el.querySelector('input[name="seek-kind"]:checked').value === 'days') body.days = Number($('#seek-days').value);
    else body.clock = { initial_ms: Math.round(Number($('#seek-minutes').value) * 60000), increment_ms: Math.round(Number($('#seek-increment').value) * 1000) };
    const low = $('#seek-low').value;
    const high = $('#seek-high').value;
    if (low !== '' || high !== '') body.rating_range = [low === '' ? 0 : Number(low), high === '' ? 4000 : Number(high)];
    return body;
  }

  let bots = [];
  $('#seek-variant').addEventListener('change', () => drawBots(bots));

  $('#seek-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    error(null);
    try {
      const made = await api('POST', '/api/seeks', settings());
      if (made.game) {
        location.href = made.url;
        return;
      }
      mine.add(made.id);
      expectGame(made.id);
      // a first seek gave this browser its session: the websocket must speak for it
      if (!person) reconnectLobby();
      draw();
    } catch (ex) {
      error(ex);
    }
  });

  $('#pairing-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    error(null);
    const variants = [...el.querySelectorAll('input[name="pair-variant"]:checked')].map((x) => x.value);
    const clocks = [...el.querySelectorAll('input[name="pair-clock"]:checked')].map((x) => {
      const [m, i] = x.value.split('+').map(Number);
      return { initial_ms: m * 60000, increment_ms: i * 1000 };
    });
    const days = [...el.querySelectorAll('input[name="pair-days"]:checked')].map((x) => Number(x.value));
    try {
      const r = await api('POST', '/api/pairing', { variants, clocks, days, rated: $('#pair-rated').checked });
      if (r.game) {
        location.href = r.url;
        return;
      }
      waiting = r.id;
      expectGame(r.id);
      if (!person) reconnectLobby();
      $('#pairing-status').innerHTML = 'Waiting for an opponent… <button type="button" id="cancel-pairing">Cancel</button>';
      $('#cancel-pairing').addEventListener('click', async () => {
        try {
          await api('DELETE', `/api/pairing/${encodeURIComponent(waiting)}`);
        } catch (ex) {
          error(ex);
        }
        waiting = null;
        $('#pairing-status').textContent = '';
      });
    } catch (ex) {
      error(ex);
    }
  });

  onLobby((m) => {
    if (m.type === 'hello') {
      person = !!(m.you && m.you.person);
      for (const id of m.mine || []) mine.add(id);
      if (m.seeks) {
        seeks.clear();
        for (const s of m.seeks) seeks.set(s.id, s);
      }
      if (m.bots) {
        bots = m.bots;
        drawBots(bots);
      }
      counts(m);
      draw();
    } else if (m.type === 'seek') {
      seeks.set(m.seek.id, m.seek);
      draw();
    } else if (m.type === 'unseek') {
      seeks.delete(m.id);
      mine.delete(m.id);
      draw();
    } else if (m.type === 'counts') counts(m);
  });

  function counts(m) {
    if (m.online == null) return;
    $('#lobby-counts').textContent = `${m.online} online, ${m.playing} playing`;
  }

  // anonymous visitors cannot seek rated or correspondence games: the form says so
  account().then((a) => {
    if (!(a && a.name)) {
      $('#seek-rated').disabled = true;
      $('#pair-rated').disabled = true;
      $('#seek-rated').title = 'Rated games are for players logged in to an account';
    }
  });
}

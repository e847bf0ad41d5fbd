// A player's profile (/@/NAME): per-game counts (won, drawn, lost), the games in progress,
// every game newest first (paged, filtered by game and result), and all of them as one PGN file;
// per game its rating (issue 33) with a chart of its history, drawn here as SVG (no library).

import { api, variants, variantName, esc, header, account, ratingHtml, signed, PROVISIONAL_HELP } from './api.js';
import { expectGame, onLobby } from './notify.js';
import { gamesTable, pager, variantSelect, localTime } from './lists.js';

const app = document.getElementById('app');
document.getElementById('top').innerHTML = header('profile');
const name = decodeURIComponent(location.pathname.split('/')[2] || '');

const RESULTS = [
  ['', 'all results'],
  ['won', 'won'],
  ['drawn', 'drawn'],
  ['lost', 'lost'],
];

function countsTable(counts, list) {
  const rows = Object.entries(counts || {})
    .filter(([, c]) => c && c.games)
    .map(([v, c]) => `<tr data-variant="${esc(v)}"><td>${esc(variantName(list, v))}</td><td data-col="games">${esc(c.games)}</td><td data-col="wins">${esc(c.wins)}</td><td data-col="draws">${esc(c.draws)}</td><td data-col="losses">${esc(c.losses)}</td></tr>`)
    .join('');
  if (!rows) return '<p class="muted" id="no-counts">No finished games yet.</p>';
  return `<div class="table-wrap"><table class="games counts" id="counts"><thead><tr><th>Game</th><th>Played</th><th>Won</th><th>Drawn</th><th>Lost</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function ratingsTable(ratings, list) {
  const rows = Object.entries(ratings || {})
    .map(
      ([v, r]) => `<tr data-variant="${esc(v)}"><td>${esc(variantName(list, v))}</td><td data-col="rating">${ratingHtml(r.rating, r.rd, r.provisional)}</td><td data-col="rd">${esc(Math.round(r.rd))}</td><td data-col="games">${esc(r.games)}</td><td data-col="wins">${esc(r.wins)}</td><td data-col="draws">${esc(r.draws)}</td><td data-col="losses">${esc(r.losses)}</td><td data-col="best">${r.best == null ? '—' : esc(Math.round(r.best))}</td></tr>`,
    )
    .join('');
  if (!rows) return '<p class="muted" id="no-ratings">No rated games yet.</p>';
  return `<div class="table-wrap"><table class="games counts" id="ratings"><thead><tr><th>Game</th><th>Rating</th><th>RD</th><th>Rated games</th><th>Won</th><th>Drawn</th><th>Lost</th><th title="The highest rating once not provisional">Best</th></tr></thead><tbody>${rows}</tbody></table></div>
    <p class="muted"><span title="${esc(PROVISIONAL_HELP)}">A "?" marks a provisional rating</span>: its deviation (RD) is 110 or more.</p>`;
}

/** One game's rating history as an SVG line: one point per rated game, oldest on the left. */
export function chartSvg(variant, points, name) {
  const W = 600;
  const H = 200;
  const [L, R, T, B] = [48, 12, 12, 26];
  const rs = points.map((p) => p.rating);
  let lo = Math.min(...rs);
  let hi = Math.max(...rs);
  if (hi - lo < 100) {
    const mid = (hi + lo) / 2;
    lo = mid - 50;
    hi = mid + 50;
  }
  lo = Math.floor(lo / 50) * 50;
  hi = Math.ceil(hi / 50) * 50;
  const n = points.length;
  const x = (i) => (n === 1 ? L + (W - L - R) / 2 : L + (i * (W - L - R)) / (n - 1));
  const y = (r) => T + ((hi - r) * (H - T - B)) / (hi - lo);
  const grid = [lo, (lo + hi) / 2, hi]
    .map((g) => `<line x1="${L}" x2="${W - R}" y1="${y(g).toFixed(1)}" y2="${y(g).toFixed(1)}"/><text x="${L - 6}" y="${(y(g) + 4).toFixed(1)}" text-anchor="end">${Math.round(g)}</text>`)
    .join('');
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  const dots = points
    .map((p, i) => {
      const when = new Date(p.at).toLocaleDateString();
      return `<circle cx="${x(i).toFixed(1)}" cy="${y(p.rating).toFixed(1)}" r="3" data-game="${esc(p.game)}"><title>${esc(`Game ${i + 1}, ${when}: ${Math.round(p.rating)}${p.rd >= 110 ? '?' : ''} (${signed(p.diff)})`)}</title></circle>`;
    })
    .join('');
  const first = new Date(points[0].at).toLocaleDateString();
  const last = new Date(points[n - 1].at).toLocaleDateString();
  const axis = `<text x="${L}" y="${H - 6}">${esc(first)}</text><text x="${W - R}" y="${H - 6}" text-anchor="end">${esc(last)}</text>`;
  return `<svg class="rating-chart" data-variant="${esc(variant)}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(`${name}: rating after each of ${n} rated games`)}">${grid}${axis}<polyline points="${line}"/>${dots}</svg>`;
}

function charts(history, list) {
  return Object.entries(history || {})
    .filter(([, pts]) => Array.isArray(pts) && pts.length)
    .map(([v, pts]) => `<figure class="rating-history" data-variant="${esc(v)}"><figcaption>${esc(variantName(list, v))}</figcaption>${chartSvg(v, pts, variantName(list, v))}</figure>`)
    .join('');
}

async function main() {
  if (!name) {
    app.innerHTML = '<p class="error">No player is named in this address.</p>';
    return;
  }
  document.title = `${name} — Menagerie`;
  let list = [];
  try {
    list = await variants();
  } catch {
    list = [];
  }
  const q = new URLSearchParams(location.search);
  const variant = q.get('variant') || '';
  const result = q.get('result') || '';
  const page = Math.max(1, Number.parseInt(q.get('page') || '1', 10) || 1);
  const ask = new URLSearchParams();
  if (variant) ask.set('variant', variant);
  if (result) ask.set('result', result);
  if (page > 1) ask.set('page', String(page));
  const base = `/api/users/${encodeURIComponent(name)}`;
  let user;
  let games;
  let history;
  try {
    [user, games, history] = await Promise.all([api('GET', base), api('GET', `${base}/games${ask.toString() ? `?${ask}` : ''}`), api('GET', `${base}/rating-history`).catch(() => ({}))]);
  } catch (e) {
    app.innerHTML = `<h1>${esc(name)}</h1><p class="error" id="profile-error">${esc(e.message)}</p>`;
    return;
  }
  const shown = user.name || name;
  const since = user.created_at ? `<p class="muted" id="member-since">Playing here since ${esc(localTime(user.created_at))}.</p>` : '';
  const playing = (user.playing || []).length
    ? `<h2>Playing now</h2><div id="playing">${gamesTable(user.playing, list)}</div>`
    : '';
  const resultSelect = `<select name="result" id="filter-result">${RESULTS.map(([v, t]) => `<option value="${v}"${v === result ? ' selected' : ''}>${t}</option>`).join('')}</select>`;
  const list2 = games.games || [];
  const filtered = variant || result;
  const empty = filtered ? '<p id="no-games">No game matches.</p>' : '<p id="no-games">No games yet.</p>';
  app.innerHTML = `<h1 id="profile-name">${esc(shown)}</h1>${since}
    <h2>Ratings</h2>${ratingsTable(user.ratings, list)}<div id="rating-charts">${charts(history, list)}</div>
    <h2>Results</h2>${countsTable(user.counts, list)}
    ${playing}
    <h2>Games <small class="muted" id="games-total">(${esc(games.total ?? list2.length)})</small></h2>
    <form class="filters" id="filters" method="get" action="${esc(location.pathname)}">
      <label>Game ${variantSelect(list, variant)}</label>
      <label>Result ${resultSelect}</label>
      <button type="submit">Show</button>
    </form>
    <div id="history">${list2.length ? gamesTable(list2, list) : empty}</div>
    ${pager(games.page || page, games.pages || 1)}
    <p class="links"><a id="pgn-link" href="${esc(`${base}/games.pgn`)}" download="${esc(`${shown}.pgn`)}">Download all games (PGN)</a></p>`;
  for (const sel of app.querySelectorAll('#filters select')) sel.addEventListener('change', () => app.querySelector('#filters').requestSubmit());
  challengeForm(shown, list);
}

/** "Challenge NAME": for a logged-in visitor on someone else's profile (issue 32). */
async function challengeForm(shown, list) {
  const me = await account();
  if (!me || !me.name || me.name.toLowerCase() === shown.toLowerCase()) return;
  const box = document.createElement('section');
  box.id = 'challenge';
  box.className = 'lobby-form';
  box.innerHTML = `<h2>Challenge ${esc(shown)}</h2>
    <form id="challenge-form">
      <label>Game <select id="challenge-variant">${list.map((v) => `<option value="${esc(v.id)}">${esc(v.name || v.id)}</option>`).join('')}</select></label>
      <label><input type="radio" name="challenge-kind" value="clock" checked> a clock:</label>
      <label><input type="number" id="challenge-minutes" min="0.17" max="180" step="any" value="10"> minutes</label>
      <label>+ <input type="number" id="challenge-increment" min="0" max="60" value="5"> seconds a turn</label>
      <label><input type="radio" name="challenge-kind" value="days"> correspondence:</label>
      <label><select id="challenge-days">${[1, 2, 3, 5, 7, 10, 14].map((d) => `<option${d === 3 ? ' selected' : ''}>${d}</option>`).join('')}</select> days a turn</label>
      <label><input type="checkbox" id="challenge-rated"> rated</label>
      <label>Your colour <select id="challenge-color"><option value="random">random</option><option value="white">White</option><option value="black">Black</option></select></label>
      <button type="submit" class="primary" id="send-challenge">Send the challenge</button>
    </form>
    <p id="challenge-status" role="status"></p>`;
  app.querySelector('#profile-name').after(box);
  let sent = null;
  onLobby((m) => {
    if (!sent || m.id !== sent) return;
    if (m.type === 'challenge-declined' || (m.type === 'challenge-gone' && m.sentence)) {
      box.querySelector('#challenge-status').textContent = m.sentence;
      sent = null;
    }
  });
  box.querySelector('#challenge-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const $ = (s) => box.querySelector(s);
    const body = { to: shown, variant: $('#challenge-variant').value, rated: $('#challenge-rated').checked, color: $('#challenge-color').value };
    if (box.querySelector('input[name="challenge-kind"]:checked').value === 'days') body.days = Number($('#challenge-days').value);
    else body.clock = { initial_ms: Math.round(Number($('#challenge-minutes').value) * 60000), increment_ms: Math.round(Number($('#challenge-increment').value) * 1000) };
    try {
      const c = await api('POST', '/api/challenges', body);
      sent = c.id;
      expectGame(c.id);
      $('#challenge-status').textContent = `Challenge sent to ${shown}: waiting for an answer…`;
    } catch (ex) {
      $('#challenge-status').textContent = ex.message;
    }
  });
}

main();

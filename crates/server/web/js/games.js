// The list of games: GET /api/games?variant=&player=&page= (50 a page, newest first), with
// the start in the reader's local time, the players' names, turns, result and how it ended.

import { api, variants, esc, header } from './api.js';
import { gamesTable, variantSelect } from './lists.js';

const app = document.getElementById('app');
document.getElementById('top').innerHTML = header('games');

/** Games a page of the API answers. */
const PAGE = 50;

async function main() {
  let list = [];
  try {
    list = await variants();
  } catch {
    list = [];
  }
  const q = new URLSearchParams(location.search);
  const variant = q.get('variant') || '';
  const player = (q.get('player') || '').trim();
  const page = Math.max(1, Number.parseInt(q.get('page') || '1', 10) || 1);
  const ask = new URLSearchParams();
  if (variant) ask.set('variant', variant);
  if (player) ask.set('player', player);
  if (page > 1) ask.set('page', String(page));
  const form = `<form class="filters" id="filters" method="get" action="/games">
      <label>Game ${variantSelect(list, variant)}</label>
      <label>Player <input name="player" id="filter-player" value="${esc(player)}" placeholder="a name" autocomplete="off" spellcheck="false"></label>
      <button type="submit">Show</button>
    </form>`;
  let games;
  try {
    const r = await api('GET', `/api/games${ask.toString() ? `?${ask}` : ''}`);
    games = Array.isArray(r) ? r : r.games || [];
  } catch (e) {
    app.innerHTML = `<h1>Games</h1>${form}<p class="error">${esc(e.message)}</p>`;
    return;
  }
  const to = (p) => {
    const n = new URLSearchParams(ask);
    if (p > 1) n.set('page', String(p));
    else n.delete('page');
    return `/games${n.toString() ? `?${n}` : ''}`;
  };
  const prev = page > 1 ? `<a rel="prev" id="page-prev" href="${esc(to(page - 1))}">‹ Newer</a>` : '';
  const next = games.length >= PAGE ? `<a rel="next" id="page-next" href="${esc(to(page + 1))}">Older ›</a>` : '';
  const pager = prev || next ? `<nav class="pager" aria-label="Pages">${prev}<span id="page-of">Page ${page}</span>${next}</nav>` : '';
  const filtered = variant || player;
  const none = filtered ? '<p id="no-games">No game matches.</p>' : '<p id="no-games">No games yet. <a href="/">Start one.</a></p>';
  app.innerHTML = `<h1>Games</h1>${form}${games.length ? gamesTable(games, list) : page > 1 ? '<p id="no-games">No more games.</p>' : none}${pager}`;
  // a choice of game shows at once; a name waits for the button
  app.querySelector('#filter-variant').addEventListener('change', () => app.querySelector('#filters').requestSubmit());
}

main();

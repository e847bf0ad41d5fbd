// The leaderboards (/leaderboard/VARIANT, issue 33): the people rated in a game who qualify
// (enough rated games, one recently, a settled rating), best first; the engine levels apart.

import { api, variants, variantName, esc, header, profileUrl, ratingHtml } from './api.js';
import { localTime } from './lists.js';

const app = document.getElementById('app');
document.getElementById('top').innerHTML = header('leaderboard');

async function main() {
  let list = [];
  try {
    list = await variants();
  } catch {
    list = [];
  }
  const variant = decodeURIComponent(location.pathname.split('/')[2] || '') || (list[0] && list[0].id) || 'chess';
  let board;
  try {
    board = await api('GET', `/api/leaderboard/${encodeURIComponent(variant)}`);
  } catch (e) {
    app.innerHTML = `<h1>Leaderboard</h1><p class="error" id="leaderboard-error">${esc(e.message)}</p>`;
    return;
  }
  const name = variantName(list, board.variant);
  document.title = `${name}: leaderboard — Menagerie`;
  const t = board.thresholds || {};
  const choose = `<nav class="filters" id="variants">${list
    .map((v) => `<a href="/leaderboard/${encodeURIComponent(v.id)}"${v.id === board.variant ? ' aria-current="page"' : ''}>${esc(v.name || v.id)}</a>`)
    .join(' · ')}</nav>`;
  const rule = `Players with at least ${esc(t.games)} rated games, one in the last ${esc(t.days)} days, and a rating deviation (RD) below ${esc(t.rd_below)}.`;
  const people = (board.players || []).length
    ? `<div class="table-wrap"><table class="games" id="leaderboard"><thead><tr><th>#</th><th>Player</th><th>Rating</th><th>RD</th><th>Games</th><th>Won</th><th>Drawn</th><th>Lost</th><th>Last rated game</th></tr></thead><tbody>${board.players
        .map(
          (p) => `<tr data-name="${esc(p.name)}"><td data-col="rank">${esc(p.rank)}</td><td><a href="${esc(profileUrl(p.name))}">${esc(p.name)}</a></td><td data-col="rating">${ratingHtml(p.rating, p.rd, false)}</td><td>${esc(Math.round(p.rd))}</td><td data-col="games">${esc(p.games)}</td><td>${esc(p.wins)}</td><td>${esc(p.draws)}</td><td>${esc(p.losses)}</td><td>${esc(localTime(p.last_game_at))}</td></tr>`,
        )
        .join('')}</tbody></table></div>`
    : '<p id="no-players">Nobody qualifies yet.</p>';
  const bots = `<div class="table-wrap"><table class="games" id="bots"><thead><tr><th>Engine</th><th>Rating</th><th>RD</th><th>Rated games</th></tr></thead><tbody>${(board.bots || [])
    .map((b) => `<tr data-level="${esc(b.level)}"><td>${esc(b.name)}</td><td data-col="rating">${ratingHtml(b.rating, b.rd, b.provisional)}</td><td>${esc(Math.round(b.rd))}</td><td>${esc(b.games)}</td></tr>`)
    .join('')}</tbody></table></div>`;
  app.innerHTML = `<h1 id="leaderboard-title">${esc(name)}: leaderboard</h1>${choose}
    <p class="muted" id="thresholds">${rule}</p>
    ${people}
    <h2>The engine's levels</h2>
    <p class="muted">Each level is a rated player too, listed apart; play the level nearest your rating.</p>
    ${bots}`;
}

main();

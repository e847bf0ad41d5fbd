// The list of recent games: GET /api/games (newest first).

import { api, variants, variantName, esc, header } from './api.js';

const app = document.getElementById('app');
document.getElementById('top').innerHTML = header('games');

function who(p) {
  if (!p) return '?';
  const m = /^engine(?::(\d+))?$/.exec(p);
  return m ? `Engine${m[1] ? ` ${m[1]}` : ''}` : 'Human';
}

async function main() {
  let list = [];
  try {
    list = await variants();
  } catch {
    list = [];
  }
  let games;
  try {
    const r = await api('GET', '/api/games?limit=50');
    games = Array.isArray(r) ? r : r.games || [];
  } catch (e) {
    app.innerHTML = `<p class="error">${esc(e.message)}</p>`;
    return;
  }
  if (!games.length) {
    app.innerHTML = '<h1>Recent games</h1><p>No games yet. <a href="/">Start one.</a></p>';
    return;
  }
  const rows = games
    .map((g) => {
      const p = g.players || { white: g.white, black: g.black };
      const o = g.outcome;
      const result = o ? esc(o.result || (o.winner ? `${o.winner} wins` : 'draw')) : g.finished ? 'finished' : 'playing';
      const n = g.moves !== undefined ? (Array.isArray(g.moves) ? g.moves.length : g.moves) : g.plies ?? '';
      return `<tr><td><a href="/game/${encodeURIComponent(g.id)}">${esc(variantName(list, g.variant))}</a></td><td>${esc(who(p.white))} – ${esc(who(p.black))}</td><td>${result}</td><td>${esc(n)}</td><td>${esc(g.created_at || g.created || '')}</td></tr>`;
    })
    .join('');
  app.innerHTML = `<h1>Recent games</h1><div class="table-wrap"><table class="games"><thead><tr><th>Game</th><th>Players</th><th>Result</th><th>Turns</th><th>Started</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

main();

// "My games": the caller's games (its account's, or this browser's anonymous session's) from
// GET /api/account/games: in progress first, your turn first among them, then the finished ones.

import { api, account, variants, variantName, esc, header, loginUrl } from './api.js';
import { timeTag, playerHtml, resultText, gameHref } from './lists.js';

const app = document.getElementById('app');
document.getElementById('top').innerHTML = header('my-games');

const colorName = (c) => (c === 'white' ? 'White' : c === 'black' ? 'Black' : c || '');

function table(games, list, playing) {
  const rows = games
    .map((g) => {
      const opp = g.opponent || {};
      const status = playing ? (g.your_turn ? '<strong class="your-turn">Your turn</strong>' : 'Their turn') : esc(resultText(g));
      return `<tr data-game="${esc(g.id)}"${g.your_turn && playing ? ' class="your-turn"' : ''}><td data-col="game"><a href="${esc(gameHref(g))}">${esc(variantName(list, g.variant))}</a></td><td data-col="color">${esc(colorName(g.color))}</td><td data-col="opponent">${playerHtml(opp.player, opp.name)}</td><td data-col="turns">${esc(g.turns ?? '')}</td><td data-col="status">${status}</td><td data-col="started">${timeTag(g.created_at)}</td><td data-col="updated">${timeTag(g.updated_at)}</td></tr>`;
    })
    .join('');
  return `<div class="table-wrap"><table class="games" id="${playing ? 'playing' : 'finished'}"><thead><tr><th>Game</th><th>You play</th><th>Opponent</th><th>Turns</th><th>${playing ? 'To move' : 'Result'}</th><th>Started</th><th>Last played</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

async function main() {
  let list = [];
  try {
    list = await variants();
  } catch {
    list = [];
  }
  const [a, games] = await Promise.all([
    account(),
    api('GET', '/api/account/games').catch((e) => e),
  ]);
  const who = a && a.name
    ? `<p class="muted">The games of your account, on every device where you log in as ${esc(a.name)}.</p>`
    : `<p class="muted" id="anonymous-note">The games of this browser. <a href="${esc(loginUrl())}">Log in or sign up</a> to find them on your other devices too.</p>`;
  if (!Array.isArray(games)) {
    app.innerHTML = `<h1>My games</h1>${who}<p class="error">${esc(games && games.message ? games.message : 'The games cannot be read now.')}</p>`;
    return;
  }
  // the server sends them in this order; kept here too so the page says what it promises
  const playing = games.filter((g) => !g.finished).sort((x, y) => Number(!!y.your_turn) - Number(!!x.your_turn));
  const finished = games.filter((g) => g.finished);
  const parts = [`<h1>My games</h1>${who}`];
  if (!games.length) parts.push('<p id="no-games">No games yet. <a href="/">Start one.</a></p>');
  if (playing.length) parts.push(`<h2>In progress</h2>${table(playing, list, true)}`);
  if (finished.length) parts.push(`<h2>Finished</h2>${table(finished, list, false)}`);
  app.innerHTML = parts.join('');
}

main();

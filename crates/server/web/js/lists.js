// Lists of games (the games page, a profile, "My games"): dates in the reader's local time,
// players by name, the result and how the game ended, paging links.

import { esc, profileUrl, variantName } from './api.js';

/** A moment (Unix milliseconds) in the reader's local time, e.g. "28 Nov 2026, 07:05". */
export function localTime(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '';
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** `<time>` markup for a moment: the machine-readable instant and the local reading. */
export function timeTag(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '';
  return `<time datetime="${esc(new Date(ms).toISOString())}">${esc(localTime(ms))}</time>`;
}

/** Who sits in a seat, in words: the account's name, "Engine level N", or "Anonymous". */
export function playerText(player, name) {
  if (name) return name;
  const m = /^engine(?::(\d+))?$/.exec(player || '');
  if (m) return `Engine${m[1] ? ` level ${m[1]}` : ''}`;
  return 'Anonymous';
}

/** The same as markup: an account's name links to its profile ("deleted" does not). */
export function playerHtml(player, name) {
  if (name && name !== 'deleted') return `<a class="player-name" href="${esc(profileUrl(name))}">${esc(name)}</a>`;
  return `<span class="player-name">${esc(playerText(player, name))}</span>`;
}

/** The result and how the game ended, e.g. "1-0 · White wins by checkmate.", or "playing". */
export function resultText(g) {
  if (!g.finished) return 'playing';
  const how = g.outcome || g.termination || '';
  return [g.result, how].filter(Boolean).join(' · ') || 'finished';
}

/** The address of a game on this site. */
export function gameHref(g) {
  return g.url || `/game/${encodeURIComponent(g.id)}`;
}

/**
 * A table of games (the fields of `GET /api/games`): started, game, White, Black, turns, result.
 * `color`, when given, marks the profile's player's seat.
 */
export function gamesTable(games, variantList) {
  const rows = games
    .map((g) => {
      const names = g.names || {};
      const seat = (c) => `<td class="${g.color === c ? 'own' : ''}" data-seat="${c}">${playerHtml(g[c], names[c])}</td>`;
      return `<tr data-game="${esc(g.id)}"><td data-col="started">${timeTag(g.created_at)}</td><td data-col="game"><a href="${esc(gameHref(g))}">${esc(variantName(variantList, g.variant))}</a></td>${seat('white')}${seat('black')}<td data-col="turns">${esc(g.turns ?? '')}</td><td data-col="result">${esc(resultText(g))}</td></tr>`;
    })
    .join('');
  return `<div class="table-wrap"><table class="games"><thead><tr><th>Started</th><th>Game</th><th>White</th><th>Black</th><th>Turns</th><th>Result</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** Paging links ("Newer" / "Older") keeping the address's other parameters. */
export function pager(page, pages) {
  if (!(pages > 1)) return '';
  const to = (p) => {
    const q = new URLSearchParams(location.search);
    if (p > 1) q.set('page', String(p));
    else q.delete('page');
    const s = q.toString();
    return `${location.pathname}${s ? `?${s}` : ''}`;
  };
  const prev = page > 1 ? `<a rel="prev" id="page-prev" href="${esc(to(page - 1))}">‹ Newer</a>` : '';
  const next = page < pages ? `<a rel="next" id="page-next" href="${esc(to(page + 1))}">Older ›</a>` : '';
  return `<nav class="pager" aria-label="Pages">${prev}<span id="page-of">Page ${page} of ${pages}</span>${next}</nav>`;
}

/** A `<select>` of the variants with an "all" choice first. */
export function variantSelect(variantList, chosen) {
  const opts = variantList.map((v) => `<option value="${esc(v.id)}"${v.id === chosen ? ' selected' : ''}>${esc(v.name || v.id)}</option>`).join('');
  return `<select name="variant" id="filter-variant"><option value="">all games</option>${opts}</select>`;
}

// A stand-in server for the widget tests: serves crates/server/web the way `menagerie serve`
// does (pages and /static/) and answers the API from fixtures (fixtures.mjs). Every POSTed
// move is logged so a test can read which turn the page sent.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureGames, listedGames, VARIANTS } from './fixtures.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const WEB = path.resolve(here, '../../web');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };

function send(res, status, body, type = 'application/json') {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
}

function file(res, rel) {
  const p = path.resolve(WEB, rel);
  if (!p.startsWith(WEB + path.sep) || !fs.existsSync(p) || fs.statSync(p).isDirectory()) return send(res, 404, { error: 'no such file' });
  send(res, 200, fs.readFileSync(p), TYPES[path.extname(p)] || 'application/octet-stream');
}

/** Starts the mock on a free port; resolves to `{ url, log, close }`. */
export function startMock() {
  const games = fixtureGames();
  const log = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const p = url.pathname;
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (p === '/') return file(res, 'index.html');
      if (p.startsWith('/static/')) return file(res, p.slice('/static/'.length));
      if (/^\/game\/[^/]+$/.test(p)) return file(res, 'game.html');
      if (p === '/analysis') return file(res, 'analysis.html');
      if (p === '/games') return file(res, 'games.html');
      if (/^\/rules\/[^/]+$/.test(p)) return file(res, 'rules.html');
      if (p === '/login') return file(res, 'login.html');
      if (p === '/account') return file(res, 'account.html');
      if (p === '/my-games') return file(res, 'my-games.html');
      if (/^\/@\/[^/]+$/.test(p)) return file(res, 'profile.html');
      // issue 29: logged in as alice; her lists
      const listed = listedGames();
      const mine = listed.map((g) => ({ ...g, color: 'white', your_turn: !g.finished && g.to_move === 'white', opponent: { player: g.black, name: g.names.black } }));
      if (p === '/api/account') return send(res, 200, { name: 'alice' });
      if (p === '/api/account/games') return send(res, 200, mine);
      if (p === '/api/users/alice') return send(res, 200, { name: 'alice', created_at: listed[2].created_at, counts: { chess: { games: 2, wins: 1, draws: 1, losses: 0 } }, playing: mine.filter((g) => !g.finished) });
      if (p === '/api/users/alice/games') return send(res, 200, { games: mine, page: 1, pages: 3, total: 43 });
      if (/^\/api\/users\/[^/]+(\/games)?$/.test(p)) return send(res, 404, { error: 'there is no player with this name' });
      if (p === '/api/variants') return send(res, 200, VARIANTS);
      if (/^\/api\/rules\//.test(p)) return send(res, 200, '# Rules\n\nA *short* guide.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n', 'text/markdown; charset=utf-8');
      if (p === '/api/games' && req.method === 'GET') return send(res, 200, listed);
      let m;
      if ((m = /^\/api\/games\/([^/]+)$/.exec(p)) && req.method === 'GET') {
        const g = games[m[1]];
        return g ? send(res, 200, g) : send(res, 404, { error: 'there is no game with this id' });
      }
      if ((m = /^\/api\/games\/([^/]+)\/move$/.exec(p)) && req.method === 'POST') {
        const g = games[m[1]];
        if (!g) return send(res, 404, { error: 'there is no game with this id' });
        let text = '';
        try {
          text = JSON.parse(body).move;
        } catch {
          return send(res, 400, { error: 'the body is not JSON' });
        }
        log.push({ game: g.id, move: text });
        const t = g.legal.find((x) => x.canonical.toLowerCase() === String(text).toLowerCase() || x.human === text);
        if (!t) return send(res, 400, { error: `${text} is not legal here: a Field piece cannot capture a Field major piece.` });
        return send(res, 200, { ...g, version: g.version + 1, moves: [...g.moves, { canonical: t.canonical, human: t.human }], legal: [] });
      }
      if (/^\/api\/games\/[^/]+\/ws$/.test(p)) return send(res, 404, { error: 'no websocket in the mock' });
      return send(res, 404, { error: 'there is no such API endpoint' });
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, log, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  startMock().then((m) => console.log(`mock server on ${m.url}`));
}

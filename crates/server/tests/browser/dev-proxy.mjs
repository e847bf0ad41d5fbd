// For developing the pages without rebuilding the binary: a proxy in front of a running
// `menagerie serve` that answers the pages and /static/ from crates/server/web on disk (with
// the server's Content-Security-Policy) and passes everything else on, websockets included.
// The tests use it when MENAGERIE_WEB_FROM_TREE=1; CI tests the pages embedded in the binary.

import http from 'node:http';
import net from 'node:net';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const WEB = path.resolve(here, '../../web');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.wav': 'audio/wav', '.png': 'image/png' };
// The import maps inline in the pages are allowed by their hashes, as the server does (pages.rs).
const IMPORT_MAPS = fs
  .readdirSync(WEB)
  .filter((f) => f.endsWith('.html'))
  .flatMap((f) => [...fs.readFileSync(path.join(WEB, f), 'utf8').matchAll(/<script type="importmap">([\s\S]*?)<\/script>/g)].map((m) => m[1]));
const HASHES = [...new Set(IMPORT_MAPS.map((s) => `'sha256-${crypto.createHash('sha256').update(s).digest('base64')}'`))].sort();
const CSP = `default-src 'self'; script-src 'self'${HASHES.map((h) => ` ${h}`).join('')}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`;

function page(p) {
  if (p === '/') return 'index.html';
  if (/^\/game\/[^/]+$/.test(p)) return 'game.html';
  if (p === '/analysis') return 'analysis.html';
  if (p === '/games') return 'games.html';
  // /rules/{variant} is rendered by the server (guides.rs): passed on
  if (p === '/login') return 'login.html';
  if (p === '/account') return 'account.html';
  if (p === '/my-games') return 'my-games.html';
  if (/^\/@\/[^/]+$/.test(p)) return 'profile.html';
  if (p.startsWith('/static/')) return p.slice(8);
  return null;
}

/** Starts the proxy in front of `target` (http://host:port); resolves to `{ url, close }`. */
export function startProxy(target) {
  const t = new URL(target);
  const server = http.createServer((req, res) => {
    const p = new URL(req.url, 'http://x').pathname;
    const f = page(p);
    if (f) {
      const full = path.resolve(WEB, f);
      if (full.startsWith(WEB + path.sep) && fs.existsSync(full)) {
        res.writeHead(200, { 'Content-Type': TYPES[path.extname(full)] || 'application/octet-stream', 'Content-Security-Policy': CSP, 'Cache-Control': 'no-store' });
        res.end(fs.readFileSync(full));
        return;
      }
    }
    const up = http.request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
    });
    up.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  server.on('upgrade', (req, socket, head) => {
    const up = net.connect(Number(t.port), t.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`, ...Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`), '', ''];
      up.write(lines.join('\r\n'));
      if (head && head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }) }));
  });
}

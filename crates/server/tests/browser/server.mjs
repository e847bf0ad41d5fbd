// Starting `menagerie serve` on a free port with a temporary database, and talking to it.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProxy } from './dev-proxy.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '../../../..');

/** The binary under test: $MENAGERIE_BIN, else the release build of `menagerie`. */
export const BIN = process.env.MENAGERIE_BIN || path.join(ROOT, 'target/release/menagerie');

/** Starts the server (on `port`, with the database in `data`, kept on stop if `keep`, more options in `args`); resolves to `{ url, data, stop() }`. */
export function startServer({ port = 0, data = null, keep = false, proxy: useProxy = true, args: extra = [] } = {}) {
  if (!data) data = fs.mkdtempSync(path.join(os.tmpdir(), 'menagerie-browser-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--data', data, '--games-per-minute', '1000', '--open-games', '100000', '--sockets-per-address', '100000', ...extra];
  // `menagerie serve ...`, or the server crate's own binary `menagerie-server ...`
  if (!path.basename(BIN).startsWith('menagerie-server')) args.unshift('serve');
  const child = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in 30 s: ${out}`)), 30000);
    const onData = (d) => {
      out += d.toString();
      const m = /serving on (http:\/\/[^\s/]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stdout.resume();
        const proxied = process.env.MENAGERIE_WEB_FROM_TREE === '1' && useProxy ? startProxy(m[1]) : Promise.resolve(null);
        proxied.then((proxy) => resolve({
          url: proxy ? proxy.url : m[1],
          data,
          stop: async () => {
            if (proxy) await proxy.close();
            child.kill('SIGTERM');
            await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
            if (!keep) fs.rmSync(data, { recursive: true, force: true });
          },
        }));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => (out += d.toString()));
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${BIN}: ${e.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before serving: ${out}`));
    });
  });
}

/** A JSON request to the server. */
export async function call(base, method, p, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = text;
  }
  return { status: res.status, data };
}

/** The squares to point at for a legal turn (the same rule as the page's turns.js). */
export function pointsOf(turn) {
  const pts = [];
  for (const p of turn.parts || []) {
    for (const sq of [p.from, p.to, p.room]) if (sq != null && sq !== '' && pts[pts.length - 1] !== sq) pts.push(sq);
  }
  return pts;
}

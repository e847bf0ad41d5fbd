// The rules page: the players' guide of one game. If the server rendered it into the page,
// it stays; otherwise the guide's Markdown is read from /api/rules/{id} and rendered here.

import { api, variants, variantName, esc, header } from './api.js';
import { markdown } from './markdown.js';

const app = document.getElementById('app');
document.getElementById('top').innerHTML = header('');
const variant = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || new URLSearchParams(location.search).get('variant') || '');

async function main() {
  const pre = document.getElementById('rules-content');
  if (pre && pre.textContent.trim()) return;
  let list = [];
  try {
    list = await variants();
  } catch {
    list = [];
  }
  document.title = `${variantName(list, variant)}: rules — Menagerie`;
  try {
    const res = await fetch(`/api/rules/${encodeURIComponent(variant)}`, { headers: { Accept: 'text/markdown, text/plain, application/json' } });
    if (!res.ok) {
      let msg = `No rules were found for ${variant}.`;
      try {
        msg = (await res.json()).error || msg;
      } catch {
        /* keep ours */
      }
      throw new Error(msg);
    }
    const type = res.headers.get('content-type') || '';
    const text = type.includes('json') ? (await res.json()).markdown || '' : await res.text();
    app.innerHTML = `<p><a href="/?variant=${encodeURIComponent(variant)}">Play ${esc(variantName(list, variant))}</a></p><article class="rules" id="rules-content">${markdown(text)}</article>`;
  } catch (e) {
    app.innerHTML = `<p class="error">${esc(e.message)}</p>`;
  }
}

main();

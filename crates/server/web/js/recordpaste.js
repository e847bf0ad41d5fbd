// A game's record pasted into the analysis board: its tags (Variant, FEN, Rules) and its
// turns, read here as the server writes them (PGN-like: tags, then numbered turns, `{...}`
// comments, a result; a turn's spaces written as `_`). The board opens at the last position
// and the buttons step through the turns.

/** Reads a record: `{ variant, fen, rules, moves }`; throws a sentence if it holds no game. */
export function parseRecord(text) {
  const src = String(text || '');
  const tags = {};
  for (const m of src.matchAll(/^\s*\[(\w+)\s+"([^"]*)"\]\s*$/gm)) tags[m[1]] = m[2];
  const body = src
    .replace(/^\s*\[[^\]\n]*\]\s*$/gm, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/;[^\n]*/g, ' ')
    .replace(/\([^)]*\)/g, ' ');
  const moves = [];
  for (let w of body.split(/\s+/)) {
    if (!w) continue;
    w = w.replace(/^\d+\.(\.\.)?/, '');
    if (!w || /^(1-0|0-1|1\/2-1\/2|\*)$/.test(w) || /^\$\d+$/.test(w)) continue;
    moves.push(w.replace(/_/g, ' '));
  }
  const rules = {};
  for (const item of (tags.Rules || '').split(',')) {
    const [k, v] = item.split('=').map((x) => (x || '').trim());
    if (k && v !== undefined && v !== '') rules[k] = v;
  }
  if (!tags.Variant && !moves.length && !tags.FEN) throw new Error('The pasted text holds no record: no tags and no turns were found.');
  return { variant: (tags.Variant || 'chess').toLowerCase(), fen: tags.FEN || '', rules, moves };
}

/**
 * The "paste a record" panel: `open(record)` sets the board up at the record's last position;
 * `step(k)` shows the position after its first k turns.
 */
export function recordPanel({ open, step }) {
  const d = document.createElement('details');
  d.className = 'record-paste';
  d.id = 'record-paste';
  d.innerHTML = `<summary>Paste a record</summary>
    <textarea id="record-text" rows="6" spellcheck="false" aria-label="A game's record (PGN)" placeholder='[Variant "chess"]&#10;1. e4 e5 2. Nf3 *'></textarea>
    <div class="row"><button type="button" id="record-open" class="primary">Open</button>
      <span class="record-nav" hidden><button type="button" data-rec="first" title="Start">&laquo;</button><button type="button" data-rec="prev" title="Back one turn">&lsaquo;</button><button type="button" data-rec="next" title="Forward one turn">&rsaquo;</button><button type="button" data-rec="last" title="The last position">&raquo;</button> <span id="record-at"></span></span></div>
    <p class="reason" id="record-error" role="alert"></p>`;
  let rec = null;
  let at = 0;
  const show = () => {
    d.querySelector('.record-nav').hidden = !rec;
    d.querySelector('#record-at').textContent = rec ? `turn ${at} of ${rec.moves.length}` : '';
  };
  d.querySelector('#record-open').addEventListener('click', async () => {
    const err = d.querySelector('#record-error');
    err.textContent = '';
    try {
      const r = parseRecord(d.querySelector('#record-text').value);
      await open(r);
      rec = r;
      at = r.moves.length;
    } catch (e) {
      err.textContent = e.message;
      rec = null;
    }
    show();
  });
  for (const b of d.querySelectorAll('[data-rec]')) {
    b.addEventListener('click', async () => {
      if (!rec) return;
      const n = rec.moves.length;
      const k = { first: 0, prev: at - 1, next: at + 1, last: n }[b.dataset.rec];
      at = Math.max(0, Math.min(n, k));
      await step(rec, at);
      show();
    });
  }
  return d;
}

/** The home page's address that starts a game from `fen` (the opponent chosen there). */
export function playFromHereHref(variant, fen, rules) {
  const q = new URLSearchParams({ variant, fen });
  for (const [k, v] of Object.entries(rules || {})) q.set(`rule.${k}`, v);
  return `/?${q}#new-game`;
}

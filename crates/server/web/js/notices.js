// Notices beside the board: the answer to what the player asked (a draw offer declined, a
// takeback refused), and in a game against the engine the seat's own link, to go on playing
// on another device.

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const side = (c) => (c === 'white' ? 'White' : c === 'black' ? 'Black' : 'The opponent');

/** The sentence an event tells `you` (the asker), or null. */
export function noticeFor(event, you) {
  if (!event || !event.type) return null;
  // the event's colour is the side that declined; the asker is the other one
  const other = event.color && event.color !== you;
  if (event.type === 'draw-decline' && other) return `${side(event.color)} declined your draw offer.`;
  if (event.type === 'takeback-decline' && other) return `${side(event.color)} refused your takeback.`;
  return null;
}

/** The notice area (polite live region). */
export function noticeElement() {
  const p = document.createElement('p');
  p.className = 'notice';
  p.id = 'notice';
  p.setAttribute('role', 'status');
  p.setAttribute('aria-live', 'polite');
  p.hidden = true;
  return p;
}

/** Shows `event`'s notice to `you` in `el`, if it has one. */
export function showNotice(el, event, you) {
  const text = noticeFor(event, you);
  if (!text) return;
  el.textContent = text;
  el.hidden = false;
}

/** "Continue on another device": the seat's link in a game against the engine. */
export function seatLinkElement(token) {
  const d = document.createElement('details');
  d.className = 'seat-link';
  d.id = 'seat-link';
  const url = new URL(`/play/${encodeURIComponent(token)}`, location.href).href;
  d.innerHTML = `<summary>Continue on another device</summary><p>Open this link there; it is your seat, so keep it to yourself.</p><div class="row"><input id="seat-url" readonly value="${esc(url)}" aria-label="Your seat's link"><button type="button" id="copy-seat">Copy</button></div>`;
  d.querySelector('#copy-seat').addEventListener('click', async () => {
    const input = d.querySelector('#seat-url');
    try {
      await navigator.clipboard.writeText(input.value);
      d.querySelector('#copy-seat').textContent = 'Copied';
    } catch {
      input.select();
      d.querySelector('#copy-seat').textContent = 'Select and copy';
    }
  });
  return d;
}

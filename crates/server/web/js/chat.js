// The game's chat (issue 32 item 6): the players' room for a seat, the spectators' room for
// everyone else. Messages arrive on the game's websocket as `{"chat": MESSAGE}` and are read
// again (`GET /api/games/{id}/chat`) whenever the socket opens. Every text is put in the page
// with textContent, never as HTML. A player may mute the opponent (remembered by the browser).

import { api } from './api.js';

const MAX = 140;
const side = (c) => (c === 'white' ? 'White' : c === 'black' ? 'Black' : '');

/** The chat box beside the board; `opts`: `{ id, token: () => TOKEN|null, you: () => 'white'|'black'|'spectator'|'umpire' }`. */
export class Chat {
  constructor(opts) {
    this.opts = opts;
    this.messages = new Map(); // seq -> message
    this.room = null;
    this.el = document.createElement('section');
    this.el.className = 'chat';
    this.el.id = 'chat';
    this.el.innerHTML = `
      <h2 class="chat-title" id="chat-title">Chat</h2>
      <label class="chat-mute" id="chat-mute-label" hidden><input type="checkbox" id="chat-mute"> mute my opponent</label>
      <ol class="chat-list" id="chat-list" aria-live="polite"></ol>
      <p class="chat-muted-note" id="chat-muted-note" hidden>Your opponent's messages are hidden.</p>
      <form class="chat-form" id="chat-form" autocomplete="off">
        <input id="chat-input" maxlength="${MAX}" placeholder="Say something (up to ${MAX} characters)" aria-label="Chat message">
        <button type="submit">Send</button>
      </form>
      <p class="chat-error" id="chat-error" role="alert"></p>`;
    this.$ = (s) => this.el.querySelector(s);
    this.muteKey = `menagerie:chat-mute:${opts.id}`;
    this.$('#chat-mute').checked = localStorage.getItem(this.muteKey) === '1';
    this.$('#chat-mute').addEventListener('change', (e) => {
      try {
        localStorage.setItem(this.muteKey, e.target.checked ? '1' : '0');
      } catch {
        /* private mode: muted for this page only */
      }
      this.render();
    });
    this.$('#chat-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.send();
    });
  }

  /** Whether the opponent's messages are hidden. */
  muted() {
    return this.$('#chat-mute').checked;
  }

  /** Reads the room's latest messages again (on each websocket connection). */
  async load() {
    try {
      const r = await api('GET', `/api/games/${encodeURIComponent(this.opts.id)}/chat`, undefined, this.opts.token());
      this.room = r.room;
      this.messages.clear();
      for (const m of r.messages || []) this.messages.set(m.seq, m);
      this.render();
    } catch (e) {
      this.$('#chat-error').textContent = e.message;
    }
  }

  /** A message from the websocket. */
  receive(m) {
    if (!m || typeof m.seq !== 'number' || (this.room && m.room !== this.room)) return;
    this.messages.set(m.seq, m);
    this.render();
  }

  async send() {
    const input = this.$('#chat-input');
    const text = input.value.trim();
    if (!text) return;
    this.$('#chat-error').textContent = '';
    try {
      const r = await api('POST', `/api/games/${encodeURIComponent(this.opts.id)}/chat`, { text }, this.opts.token());
      input.value = '';
      if (r && r.message) this.receive(r.message);
    } catch (e) {
      this.$('#chat-error').textContent = e.message;
    }
  }

  render() {
    const you = this.opts.you();
    const player = you === 'white' || you === 'black';
    this.$('#chat-title').textContent = player ? 'Chat with your opponent' : "Spectators' chat";
    this.$('#chat-mute-label').hidden = !player;
    const muted = player && this.muted();
    this.$('#chat-muted-note').hidden = !muted;
    const list = this.$('#chat-list');
    list.textContent = '';
    const seqs = [...this.messages.keys()].sort((a, b) => a - b);
    for (const seq of seqs) {
      const m = this.messages.get(seq);
      if (muted && m.color && m.color !== you) continue;
      const li = document.createElement('li');
      li.className = 'chat-message';
      li.dataset.seq = String(seq);
      if (m.color) li.dataset.color = m.color;
      const who = document.createElement('b');
      who.className = 'chat-who';
      who.textContent = m.color ? (m.color === you ? 'You' : m.name ? `${m.name} (${side(m.color)})` : side(m.color)) : m.name || 'Spectator';
      const text = document.createElement('span');
      text.className = 'chat-text';
      text.textContent = m.text;
      li.append(who, ' ', text);
      list.appendChild(li);
    }
    list.scrollTop = list.scrollHeight;
  }
}

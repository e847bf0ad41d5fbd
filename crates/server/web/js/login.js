// Log in and sign up (POST /api/account/login, /api/account/signup): the answer sets the
// session cookie; a refusal shows the server's sentence. Then back to where the reader came from.

import { api, account, esc, header, profileUrl } from './api.js';

const app = document.getElementById('app');
document.getElementById('top').innerHTML = header('login');

/** Where to go afterwards: `?next=` when it is a path on this site, else the home page. */
function next() {
  const n = new URLSearchParams(location.search).get('next') || '';
  return n.startsWith('/') && !n.startsWith('//') && !n.startsWith('/\\') ? n : '/';
}

function form(id, title, button, passwordHint) {
  return `<form class="account-form" id="${id}" autocomplete="on">
      <h2>${title}</h2>
      <label>Name <input name="name" autocomplete="username" required minlength="2" maxlength="20" spellcheck="false" autocapitalize="off"></label>
      <label>Password <input name="password" type="password" autocomplete="${id === 'signup' ? 'new-password' : 'current-password'}" required></label>
      ${passwordHint ? `<small class="muted">${passwordHint}</small>` : ''}
      <button type="submit" class="primary">${button}</button>
      <p class="error" id="${id}-error" role="alert"></p>
    </form>`;
}

async function main() {
  const a = await account();
  const already = a && a.name ? `<p id="logged-in">You are logged in as <a href="${esc(profileUrl(a.name))}">${esc(a.name)}</a>. Logging in here switches to another account.</p>` : '';
  app.innerHTML = `<h1>Log in</h1>${already}
    <p class="muted">An account is optional: games without one stay in this browser. With one, your games follow you to every device where you log in, and others see them on your profile.</p>
    <div class="account-forms">
      ${form('login', 'Log in', 'Log in', '')}
      ${form('signup', 'Sign up', 'Create the account', 'A name of 2 to 20 letters, digits, _ or -; a password of at least 8 characters. The games of this browser come with you.')}
    </div>`;
  for (const [id, path] of [
    ['login', '/api/account/login'],
    ['signup', '/api/account/signup'],
  ]) {
    const f = app.querySelector(`#${id}`);
    f.addEventListener('submit', async (e) => {
      e.preventDefault();
      const err = app.querySelector(`#${id}-error`);
      err.textContent = '';
      const button = f.querySelector('button');
      button.disabled = true;
      try {
        await api('POST', path, { name: f.elements.name.value.trim(), password: f.elements.password.value });
        location.href = next();
      } catch (ex) {
        err.textContent = ex.message;
        button.disabled = false;
      }
    });
  }
}

main();

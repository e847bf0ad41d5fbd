// The account's settings: change the password (the other sessions end), log out here or
// everywhere, delete the account with its password (the games stay, their player reads "deleted").

import { api, account, esc, header, profileUrl } from './api.js';

const app = document.getElementById('app');
document.getElementById('top').innerHTML = header('account');

async function main() {
  const a = await account();
  if (!a || !a.name) {
    app.innerHTML = '<h1>Account</h1><p id="not-logged-in">You are not logged in. <a href="/login?next=%2Faccount">Log in or sign up</a>.</p>';
    return;
  }
  app.innerHTML = `<h1>Account: <a href="${esc(profileUrl(a.name))}" id="account-title">${esc(a.name)}</a></h1>
    <p class="notice" id="account-notice" role="status"></p>
    <div class="account-forms">
      <form class="account-form" id="password-form">
        <h2>Change the password</h2>
        <input name="username" autocomplete="username" value="${esc(a.name)}" hidden>
        <label>Password now <input name="password" type="password" autocomplete="current-password" required></label>
        <label>New password <input name="new_password" type="password" autocomplete="new-password" required minlength="8"></label>
        <small class="muted">Your other devices are logged out.</small>
        <button type="submit" class="primary">Change</button>
        <p class="error" id="password-error" role="alert"></p>
      </form>
      <form class="account-form" id="logout-form">
        <h2>Log out</h2>
        <button type="submit" id="logout">Log out here</button>
        <button type="button" id="logout-everywhere">Log out everywhere</button>
        <p class="error" id="logout-error" role="alert"></p>
      </form>
      <form class="account-form danger" id="delete-form">
        <h2>Delete the account</h2>
        <p class="muted">Your games stay; your name on them becomes "deleted". This cannot be undone.</p>
        <input name="username" autocomplete="username" value="${esc(a.name)}" hidden>
        <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
        <button type="submit" id="delete">Delete my account</button>
        <p class="error" id="delete-error" role="alert"></p>
      </form>
    </div>`;
  const $ = (s) => app.querySelector(s);
  const busy = async (button, errEl, fn) => {
    errEl.textContent = '';
    button.disabled = true;
    try {
      await fn();
    } catch (ex) {
      errEl.textContent = ex.message;
    } finally {
      button.disabled = false;
    }
  };

  $('#password-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const f = e.target;
    busy(f.querySelector('button'), $('#password-error'), async () => {
      await api('POST', '/api/account/password', { password: f.elements.password.value, new_password: f.elements.new_password.value });
      f.reset();
      $('#account-notice').textContent = 'The password is changed; your other devices are logged out.';
    });
  });
  const logout = (everywhere, button) =>
    busy(button, $('#logout-error'), async () => {
      await api('POST', '/api/account/logout', everywhere ? { everywhere: true } : {});
      location.href = '/';
    });
  $('#logout-form').addEventListener('submit', (e) => {
    e.preventDefault();
    logout(false, $('#logout'));
  });
  $('#logout-everywhere').addEventListener('click', () => logout(true, $('#logout-everywhere')));

  let armed = false;
  $('#delete-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const f = e.target;
    const button = $('#delete');
    if (!armed) {
      armed = true;
      button.textContent = 'Really delete? Press again';
      return;
    }
    busy(button, $('#delete-error'), async () => {
      await api('DELETE', '/api/account', { password: f.elements.password.value });
      location.href = '/';
    });
  });
}

main();

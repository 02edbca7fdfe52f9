// A forgotten password (issue #49): #/forgot asks for the account name or address and has the
// server mail a reset link; #/reset?token=... (the mailed link) sets the new password. The
// server answers a request the same whether or not the account exists.

import { ask } from './api.js';

export function mountForgot(root) {
  root.innerHTML = `
    <section class="card auth">
      <h1>Forgot your password?</h1>
      <p class="lead">Give your user name or e-mail address. If the account has a confirmed address, a mail with a link to set a new password goes there; the link works once, within the hour.</p>
      <form id="forgot-form">
        <label>User name or e-mail <input name="user" autocomplete="username" required maxlength="254"></label>
        <p class="error" id="forgot-error" role="alert"></p>
        <p class="hint" id="forgot-sent" role="status"></p>
        <button type="submit" class="primary" id="forgot-submit">Mail me a reset link</button>
      </form>
      <p><a href="#/login">Back to sign in</a></p>
    </section>`;
  const form = root.querySelector('#forgot-form');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = root.querySelector('#forgot-error');
    const sent = root.querySelector('#forgot-sent');
    sent.textContent = '';
    const answer = await ask(error, '/api/password-reset', { method: 'POST', body: { user: form.user.value.trim() } });
    if (answer) sent.textContent = answer.message;
  });
  return () => {};
}

export function mountReset(root, query) {
  const token = query.get('token') ?? '';
  root.innerHTML = `
    <section class="card auth">
      <h1>Choose a new password</h1>
      <form id="reset-form">
        <label ${token ? 'hidden' : ''}>Reset token (from the mail) <input name="token" autocomplete="off" required></label>
        <label>New password <input name="password" type="password" autocomplete="new-password" required minlength="8" aria-describedby="reset-rule"></label>
        <p class="hint" id="reset-rule">At least 8 characters, with no spaces, quotes or colons. Every session of the account ends.</p>
        <p class="error" id="reset-error" role="alert"></p>
        <p class="hint" id="reset-done" role="status"></p>
        <button type="submit" class="primary" id="reset-submit">Set the password</button>
      </form>
    </section>`;
  const form = root.querySelector('#reset-form');
  form.token.value = token;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = root.querySelector('#reset-error');
    const answer = await ask(error, '/api/password-reset/confirm', { method: 'POST', body: { token: form.token.value.trim(), password: form.password.value } });
    if (!answer) return;
    root.querySelector('#reset-done').innerHTML = `The password of ${answer.userid.replace(/[<>&"]/g, '')} is set. <a href="#/login" id="reset-signin">Sign in</a>`;
    form.querySelector('#reset-submit').disabled = true;
  });
  return () => {};
}

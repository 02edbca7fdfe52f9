// The API tokens page (#/tokens, signed-in users): make a personal token for a bot or a script
// with its scopes, see its secret this once, list the tokens (never their secrets) and revoke
// them (GET/POST /api/account/tokens, DELETE /api/account/tokens/{id}; docs/bots.md).

import { ask, esc } from './api.js';

const SCOPES = [
  ['read', 'read: read games, users and the event streams'],
  ['board:play', 'board:play: play your own games (challenges, seeks, moves, chat)'],
  ['bot:play', 'bot:play: play as a bot (ataxx bot --token)'],
];

export function mountTokens(root, ctx) {
  if (!ctx.me) {
    root.innerHTML = '<section class="card tokens"><h1>API tokens</h1><p>Sign in to make API tokens. <a href="#/login">Sign in</a></p></section>';
    return () => {};
  }
  root.innerHTML = `
    <section class="card tokens">
      <h1>API tokens</h1>
      <p class="lead">A token lets a bot or a script act for you without your password, within its scopes. Revoke it here when it is no longer needed.</p>
      <form id="token-new" class="admin-form">
        <label>Name <input name="label" required maxlength="64" autocomplete="off" placeholder="my bot"></label>
        <fieldset><legend>Scopes</legend>
          ${SCOPES.map(([scope, words]) => `<label><input type="checkbox" name="scope" value="${esc(scope)}"${scope === 'read' ? ' checked' : ''}> ${esc(words)}</label>`).join('')}
        </fieldset>
        <button type="submit" class="primary">Make token</button>
      </form>
      <div id="token-secret" hidden>
        <p><strong>Copy this token now: it is not shown again.</strong></p>
        <p><code id="token-secret-text"></code></p>
      </div>
      <p class="error" id="token-error" role="alert"></p>
      <h2>Your tokens</h2>
      <table class="token-list"><thead><tr><th>Name</th><th>Scopes</th><th>Made (UTC)</th><th></th></tr></thead>
      <tbody id="token-list"></tbody></table>
    </section>`;
  const error = root.querySelector('#token-error');
  const form = root.querySelector('#token-new');
  const secret = root.querySelector('#token-secret');

  async function showTokens() {
    const tokens = await ask(error, '/api/account/tokens');
    if (!tokens) return;
    const list = root.querySelector('#token-list');
    list.innerHTML = tokens.length === 0
      ? '<tr><td colspan="4">No tokens yet.</td></tr>'
      : tokens.map((token) => `<tr data-token="${esc(token.id)}">
          <td>${esc(token.label)}</td><td>${token.scopes.map(esc).join(', ')}</td>
          <td>${esc(new Date(token.created_ms).toISOString().replace('T', ' ').slice(0, 16))}</td>
          <td><button type="button" class="revoke" data-id="${esc(token.id)}">Revoke</button></td></tr>`).join('');
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const scopes = [...form.querySelectorAll('[name=scope]:checked')].map((box) => box.value);
    const made = await ask(error, '/api/account/tokens', { method: 'POST', body: { label: form.label.value, scopes } });
    if (made) {
      root.querySelector('#token-secret-text').textContent = made.token;
      secret.hidden = false;
      form.reset();
      ctx.toast(`Made the token “${made.label}”`);
    }
    showTokens();
  });

  root.querySelector('#token-list').addEventListener('click', async (event) => {
    const button = event.target.closest('button.revoke');
    if (!button) return;
    if (await ask(error, `/api/account/tokens/${encodeURIComponent(button.dataset.id)}`, { method: 'DELETE' })) {
      // The secret shown may be the revoked one's: no use keeping it on screen.
      secret.hidden = true;
      root.querySelector('#token-secret-text').textContent = '';
      ctx.toast('Token revoked');
    }
    showTokens();
  });

  showTokens();
  return () => {};
}

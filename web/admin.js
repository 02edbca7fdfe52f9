// The admin page (#/admin, the server's admins only: serve --admin): forms for the acts (ban,
// unban, close an account, mark or clear a cheater, mail a password reset, abort a game) and
// the admin log
// (GET /api/admin/log), newest first. The server refuses anyone else; the page says so.

import { ask, esc } from './api.js';

const USER_ACTS = [
  ['ban', 'Ban'],
  ['unban', 'Unban'],
  ['cheater', 'Mark as cheater'],
  ['uncheater', 'Clear cheater mark'],
  ['close', 'Close account'],
  ['reset', 'Mail a password reset'],
];

export function mountAdmin(root, ctx) {
  root.innerHTML = `
    <section class="card admin">
      <h1>Admin</h1>
      <form id="admin-user" class="admin-form">
        <label>User <input name="user" required maxlength="32" autocomplete="off"></label>
        <label>Act <select name="act">${USER_ACTS.map(([act, label]) => `<option value="${act}">${esc(label)}</option>`).join('')}</select></label>
        <label>Reason <input name="reason" maxlength="1000"></label>
        <button type="submit" class="primary">Do it</button>
      </form>
      <form id="admin-game" class="admin-form">
        <label>Board <input name="board" required inputmode="numeric" pattern="[0-9]+"></label>
        <label>Reason <input name="reason" maxlength="1000"></label>
        <button type="submit">Abort game</button>
      </form>
      <p class="error" id="admin-error" role="alert"></p>
      <h2>Admin log</h2>
      <table class="admin-log"><thead><tr><th>#</th><th>When (UTC)</th><th>Admin</th><th>Act</th><th>On</th><th>Reason</th></tr></thead>
      <tbody id="admin-log"></tbody></table>
    </section>`;
  const error = root.querySelector('#admin-error');

  async function showLog() {
    const log = await ask(error, '/api/admin/log');
    if (!log) return;
    root.querySelector('#admin-log').innerHTML = log.acts.map((act) => `<tr>
      <td>${act.id}</td><td>${esc(new Date(act.at_ms).toISOString().replace('T', ' ').slice(0, 19))}</td>
      <td>${esc(act.admin)}</td><td>${esc(act.act)}</td>
      <td>${act.act === 'abort' ? `<a href="#/game/${esc(act.target)}">${esc(act.target)}</a>` : `<a href="#/user/${encodeURIComponent(act.target)}">${esc(act.target)}</a>`}</td>
      <td>${esc(act.reason)}</td></tr>`).join('');
  }

  async function act(path, reason, done) {
    if (await ask(error, path, { method: 'POST', body: { reason } })) ctx.toast(done);
    await showLog();
  }

  root.querySelector('#admin-user').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.target;
    const user = form.user.value.trim();
    const label = USER_ACTS.find(([name]) => name === form.act.value)[1];
    act(`/api/admin/users/${encodeURIComponent(user)}/${form.act.value}`, form.reason.value, `${label}: ${user}, done.`);
  });
  root.querySelector('#admin-game').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.target;
    act(`/api/admin/games/${form.board.value}/abort`, form.reason.value, `Board ${form.board.value} aborted.`);
  });
  showLog();
  return () => {};
}

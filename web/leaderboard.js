// The leaderboard page (#/leaderboard): per game and speed, established players ranked and
// provisional ones apart, each with their trend over the last five rated games. Readable
// without an account.

import { api, esc } from './api.js';
import { gameOf, loadGames } from './kinds.js';

const SPEEDS = ['all', 'live', 'correspondence'];

function rows(entries, ranked) {
  if (!entries.length) return '<p class="muted">Nobody yet.</p>';
  const body = entries.map((e) => {
    const trend = e.trend > 0 ? `▲ ${e.trend}` : e.trend < 0 ? `▼ ${-e.trend}` : '–';
    return `<tr>
      ${ranked ? `<td>${e.rank}</td>` : ''}
      <td><a href="#/user/${encodeURIComponent(e.userid)}">${esc(e.userid)}</a>${e.bot ? ' <span class="badge">bot</span>' : ''}</td>
      <td class="score">${esc(e.rating_text)}</td>
      <td class="score" aria-label="trend ${e.trend}">${trend}</td>
      <td class="score">${e.games}</td>
    </tr>`;
  }).join('');
  return `<table class="leaderboard">
    <thead><tr>${ranked ? '<th>#</th>' : ''}<th>Player</th><th>Rating</th><th>Trend</th><th>Games</th></tr></thead>
    <tbody>${body}</tbody></table>`;
}

export function mountLeaderboard(root) {
  let game = null; // the default game (the server's first) until one is chosen
  let speed = 'all';
  let alive = true;
  const choice = (name, values, current, label = (v) => v) => values.map((v) =>
    `<button type="button" class="tab ${v === current ? 'active' : ''}" data-${name}="${v}">${esc(label(v))}</button>`).join('');
  async function render() {
    let games;
    try {
      games = (await loadGames()).map((g) => g.id);
    } catch (err) {
      root.innerHTML = `<section class="card"><h1>Leaderboard</h1><p class="error" role="alert">${esc(err.message)}</p></section>`;
      return;
    }
    if (!alive) return;
    game ??= games[0];
    root.innerHTML = `<section class="card">
      <h1>Leaderboard</h1>
      <div class="tabs" role="group" aria-label="Game">${choice('game', games, game, (id) => gameOf(id)?.name ?? id)}</div>
      <div class="tabs" role="group" aria-label="Speed">${choice('speed', SPEEDS, speed)}</div>
      <div id="board-list"><p class="muted">Loading…</p></div>
    </section>`;
    root.querySelectorAll('[data-game]').forEach((b) => b.addEventListener('click', () => { game = b.dataset.game; render(); }));
    root.querySelectorAll('[data-speed]').forEach((b) => b.addEventListener('click', () => { speed = b.dataset.speed; render(); }));
    const list = root.querySelector('#board-list');
    try {
      const board = await api(`/api/leaderboard?game=${game}&speed=${speed}`);
      if (!alive) return;
      list.innerHTML = `${rows(board.players, true)}
        <h2>Provisional</h2><p class="muted">Fewer than 20 rated games.</p>${rows(board.provisional, false)}`;
    } catch (err) {
      list.innerHTML = `<p class="error" role="alert">${esc(err.message)}</p>`;
    }
  }
  render();
  return () => { alive = false; };
}

// The games search (#/games?player=&game=&speed=&result=&rated=&from=&to=&page=): finished
// games a page at a time, newest first, from GET /api/games/search, and a PGN download of
// every game the search finds (GET /api/games/search/pgn). Readable without an account.
// `gameLine` writes one game as both this page and a player's page list it.

import { api, esc, timeAgo } from './api.js';
import { gameOf, loadGames } from './kinds.js';

const FILTERS = ['player', 'game', 'speed', 'result', 'rated', 'from', 'to'];
const PER_PAGE = 20;

/** A game's speed in words: its clock, or correspondence. */
export function speedOf(game) {
  if (!game.clock) return 'correspondence';
  return `live ${game.clock.initial_ms / 60000}+${game.clock.increment_ms / 1000}`;
}

/** One game as a list item: the game, its players, speed, outcome (from `player`'s side when
 * given) and date. */
export function gameLine(g, player) {
  const seat = g.seats.find((s) => s.name === player);
  const outcome = g.status === 'active' ? 'in play'
    : seat?.outcome === 'win' ? 'won' : seat?.outcome === 'loss' ? 'lost'
      : seat?.outcome === 'draw' ? 'draw' : g.result;
  const others = g.seats.filter((s) => s !== seat).map((s) => `<strong>${esc(s.name)}</strong>`);
  const who = seat ? `vs ${others.join(', ')}` : others.join(' – ');
  const at = g.finished_ms ?? g.last_move_ms ?? g.created_ms;
  const date = new Date(at);
  return `<li class="${outcome === 'won' ? 'won' : outcome === 'lost' ? 'lost' : ''}"><a href="#/game/${g.board}">
    <span class="who"><span class="kind">${esc(gameOf(g.game)?.name ?? g.game)}</span> ${who}</span>
    <span class="turn">${esc(outcome)}${g.rated ? '' : ', unrated'}, ${esc(speedOf(g))},
      <time datetime="${date.toISOString()}" title="${esc(date.toLocaleString())}">${esc(timeAgo(at))}</time></span></a></li>`;
}

const option = (value, label, current) => `<option value="${esc(value)}"${value === current ? ' selected' : ''}>${esc(label)}</option>`;

export function mountGames(root, query) {
  let alive = true;
  const wanted = Object.fromEntries(FILTERS.map((name) => [name, query.get(name) ?? '']));
  const page = Math.max(1, Number(query.get('page')) || 1);
  (async () => {
    let games = [];
    try { games = await loadGames(); } catch { /* the menu offers "any game" alone */ }
    if (!alive) return;
    root.innerHTML = `<section class="card games-search">
      <h1>Find games</h1>
      <form id="games-form" class="search-form">
        <label>Player <input name="player" autocomplete="off" maxlength="32" value="${esc(wanted.player)}"></label>
        <label>Game <select name="game">${option('', 'Any game', wanted.game)}${games.map((g) => option(g.id, g.name, wanted.game)).join('')}</select></label>
        <label>Speed <select name="speed">${option('', 'Any speed', wanted.speed)}${option('live', 'Live', wanted.speed)}${option('correspondence', 'Correspondence', wanted.speed)}</select></label>
        <label>Result <select name="result">${option('', 'Any result', wanted.result)}${option('win', 'Player won', wanted.result)}${option('loss', 'Player lost', wanted.result)}${option('draw', 'Draw', wanted.result)}</select></label>
        <label>Rated <select name="rated">${option('', 'Rated or not', wanted.rated)}${option('true', 'Rated', wanted.rated)}${option('false', 'Unrated', wanted.rated)}</select></label>
        <label>From <input name="from" type="date" value="${esc(wanted.from)}"></label>
        <label>To <input name="to" type="date" value="${esc(wanted.to)}"></label>
        <button type="submit" class="primary">Search</button>
      </form>
      <div id="games-found" aria-live="polite"><p class="muted">Loading…</p></div>
    </section>`;
    const form = root.querySelector('#games-form');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const next = new URLSearchParams();
      for (const name of FILTERS) if (form[name].value.trim()) next.set(name, form[name].value.trim());
      location.hash = `#/games?${next}`;
    });
    const filters = new URLSearchParams();
    for (const name of FILTERS) if (wanted[name]) filters.set(name, wanted[name]);
    const found = root.querySelector('#games-found');
    let result;
    try {
      result = await api(`/api/games/search?${filters}&page=${page}&per_page=${PER_PAGE}`);
    } catch (err) {
      if (alive) found.innerHTML = `<p class="error" role="alert">${esc(err.message)}</p>`;
      return;
    }
    if (!alive) return;
    const pageLink = (n, label, rel) => {
      const next = new URLSearchParams(filters);
      next.set('page', n);
      return `<a class="button" rel="${rel}" href="#/games?${next}">${label}</a>`;
    };
    found.innerHTML = `
      <p id="games-count">${result.total === 1 ? '1 game' : `${result.total} games`}${result.pages > 1 ? `, page ${result.page} of ${result.pages}` : ''}.
        ${result.total ? `<a href="/api/games/search/pgn?${filters}" download id="games-pgn">Download ${result.total === 1 ? 'it' : `all ${result.total}`} as PGN</a>` : ''}</p>
      <ul class="games" id="games-list">${result.games.map((g) => gameLine(g, wanted.player.toLowerCase())).join('') || '<li class="empty">No finished game matches.</li>'}</ul>
      <nav class="pager" aria-label="Pages">
        ${result.page > 1 ? pageLink(result.page - 1, 'Newer', 'prev') : ''}
        ${result.page < result.pages ? pageLink(result.page + 1, 'Older', 'next') : ''}
      </nav>`;
  })();
  return () => { alive = false; };
}

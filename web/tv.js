// Ataxx TV (#/tv): the game in play with the best-rated players (GET /api/tv), shown by the
// game page itself; when it ends, the page stays on the result a moment and switches to the
// next best game. The lobby socket says when games start and end. Readable without an account.

import { api, esc, LiveSocket } from './api.js';
import { mountGame } from './game.js';

/** How long a finished game's result stays on screen before the next game. */
const LINGER_MS = 2500;

export function mountTv(root, ctx) {
  root.innerHTML = `
    <section class="tv">
      <header class="tv-head">
        <h1>Ataxx TV</h1>
        <p id="tv-players" class="tv-players" aria-live="polite"></p>
      </header>
      <div id="tv-game"></div>
    </section>`;
  const stage = root.querySelector('#tv-game');
  let showing = null; // the board shown
  let unmountGame = () => {};
  let closed = false;
  let switching;

  async function showBest() {
    let best;
    try {
      [best] = await api('/api/tv');
    } catch (err) {
      ctx.toast(err.message, 'error');
      return;
    }
    if (closed || (best && best.game.board === showing)) return;
    unmountGame();
    unmountGame = () => {};
    if (!best) {
      showing = null;
      root.querySelector('#tv-players').textContent = '';
      stage.innerHTML = '<p class="card muted" id="tv-empty">No game is being played right now. The next one to start shows here.</p>';
      return;
    }
    showing = best.game.board;
    root.querySelector('.tv').dataset.board = showing;
    root.querySelector('#tv-players').innerHTML = best.game.seats
      .map((seat, i) => `<a href="#/user/${encodeURIComponent(seat.name)}"><span class="dot ${esc(seat.letter)}"></span>${esc(seat.name)}</a> <span class="muted">${esc(best.ratings[i])}</span>`)
      .join(' <span class="muted">vs</span> ');
    stage.innerHTML = '';
    unmountGame = mountGame(stage, ctx, showing);
  }

  const lobby = new LiveSocket(() => '/api/lobby/ws', {
    onMessage: (message) => {
      const ended = message.type === 'game_ended' && message.game?.board === showing;
      const waiting = showing === null && ['game_started', 'lobby', 'resync'].includes(message.type);
      if (!ended && !waiting) return;
      clearTimeout(switching);
      switching = setTimeout(showBest, ended ? LINGER_MS : 100);
    },
  });

  showBest();
  return () => {
    closed = true;
    clearTimeout(switching);
    lobby.close();
    unmountGame();
  };
}

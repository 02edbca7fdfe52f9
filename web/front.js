// The front page of a signed-out visitor (#/): what Ataxx is, the best-rated games in play as
// small live boards (click to watch), recent results, the top players, and a way in: play a
// computer level at once (an account is made on the way) or sign up.
//
// The small boards are the few games /api/tv ranks first; each follows its own game's
// WebSocket, which carries that board's moves only. A move thus costs the server one message
// per watcher of that game, and a visitor at most SHOWN sockets, however many games are in
// play; a lobby-wide feed of every move would cost every move times every visitor. The lobby
// socket says when games start and end, and the set of boards is asked again then.

import { api, ask, esc, LiveSocket, timeAgo } from './api.js';
import { allGames, gameOf, loadGames } from './kinds.js';

/** How many games in play the page shows. */
const SHOWN = 6;

/** Players of a game with their ratings: "alice 1612 · bob 1500?". */
const playersLine = (game, ratings = []) => game.seats
  .map((seat, i) => `<span class="who"><span class="dot ${esc(seat.letter)}"></span>${esc(seat.name)}${ratings[i] ? ` <span class="muted">${esc(ratings[i])}</span>` : ''}</span>`)
  .join(' ');

/**
 * One game in play as a small board that follows the game's socket: it redraws on every
 * snapshot and move, and says when the game ends.
 */
export class LiveTile {
  constructor({ game, ratings }) {
    this.board = game.board;
    this.node = document.createElement('li');
    this.node.className = 'live-tile';
    this.node.dataset.board = game.board;
    this.node.innerHTML = `<a href="#/game/${game.board}">
      <div class="mini-live"></div>
      <p class="players">${playersLine(game, ratings)}</p>
      <p class="muted tile-status"></p></a>`;
    const kind = gameOf(game.game);
    this.kind = kind;
    this.view = new kind.Board(this.node.querySelector('.mini-live'), { onSquare: () => {}, coordinates: false });
    this.version = -1;
    this.draw(game);
    this.socket = new LiveSocket(() => `/api/games/${game.board}/ws`, {
      onMessage: (message) => {
        if (message.board !== this.board || !message.game) return;
        if (message.version !== undefined && message.version < this.version) return;
        this.draw(message.game);
      },
    });
  }

  draw(game) {
    this.version = game.version;
    this.view.render(this.kind.parse(game.fen));
    const status = game.status === 'active' ? `${game.to_move} to move · ${game.ply} ${game.ply === 1 ? 'move' : 'moves'} played`
      : game.status === 'finished' ? `Finished: ${game.winner ? `${game.winner} wins` : 'draw'}` : game.status;
    this.node.querySelector('.tile-status').textContent = status;
    this.node.dataset.ply = game.ply;
    this.node.classList.toggle('ended', game.status !== 'active');
  }

  close() {
    this.socket.close();
  }
}

/** The front page before anything has loaded. */
const FRONT = `
    <div class="front">
      <section class="card hero">
        <h1>Ataxx</h1>
        <p class="lead">Games of infection: move a piece one square to clone it, or two to jump;
          every enemy piece touching where you land turns to your colour. Most pieces when the board fills wins.
          Play it on a square board, on hexagons, four players at once, or try Ankor, a game of cubes.</p>
        <form id="quick-play" class="quick-play" autocomplete="on">
          <label>Computer level <select name="bot" id="front-bot"></select></label>
          <label>Pick a user name <input name="userid" autocomplete="username" required maxlength="32"></label>
          <label>and a password <input name="password" type="password" autocomplete="new-password" required minlength="8" aria-describedby="quick-play-rule"></label>
          <p class="hint" id="quick-play-rule">At least 8 characters, with no spaces, quotes or colons.</p>
          <button type="submit" class="primary" id="quick-play-submit">Play the computer now</button>
          <p class="error" id="quick-play-error" role="alert"></p>
        </form>
        <p>Already have an account? <a href="#/login">Sign in</a> to play people, post seeks and keep your rating.
          Or just watch: <a href="#/tv">Ataxx TV</a> shows the best game being played.</p>
      </section>
      <section class="card learn">
        <h2>Learn the games</h2>
        <ul class="learn-list">
          <li><a href="#/rules/ataxx">Ataxx</a>: two players on a square board.</li>
          <li><a href="#/rules/hexxagon">Hexxagon</a>: Ataxx on hexagons, six neighbours a cell.</li>
          <li><a href="#/rules/ataxx4">Four-player Ataxx</a>: four colours, the last ones standing rank first.</li>
          <li><a href="#/rules/ankor">Ankor</a>: stack cubes into a path that joins the pyramid's three sides.</li>
        </ul>
      </section>
      <section class="card">
        <h2>Being played now</h2>
        <ul class="live-tiles" id="live-games"><li class="empty">No game is being played right now.</li></ul>
      </section>
      <div class="front-lists">
        <section class="card"><h2>Just finished</h2><ul class="games" id="recent-games"></ul></section>
        <section class="card"><h2>Top players</h2><ol class="people" id="top-players"></ol>
          <p><a href="#/leaderboard">The whole leaderboard</a></p></section>
      </div>
    </div>`;

/** Play the computer now: an account made, signed in, and a game against the level chosen. */
function attachQuickPlay(root, signedIn) {
  const form = root.querySelector('#quick-play');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = root.querySelector('#quick-play-error');
    error.textContent = '';
    const userid = form.userid.value.trim();
    const password = form.password.value;
    if (!form.bot.value) { error.textContent = 'No computer level is available: try again in a moment.'; return; }
    if (!(await ask(error, '/api/signup', { method: 'POST', body: { userid, password, addresses: [] } }))) return;
    const me = await ask(error, '/api/login', { method: 'POST', body: { userid, password } });
    if (!me) return;
    signedIn(me.userid);
    const created = await ask(error, '/api/games', { method: 'POST', body: { game: allGames()[0].id, opponents: [form.bot.value], color: 'x', options: {} } });
    if (created) location.hash = `#/game/${created.board}`;
  });
}

export function mountFront(root, { toast, signedIn }) {
  root.innerHTML = FRONT;
  const tiles = new Map();
  let closed = false;

  async function refreshLive() {
    let featured;
    try {
      [featured] = await Promise.all([api(`/api/tv?limit=${SHOWN}`), loadGames()]);
    } catch (err) {
      toast(err.message, 'error');
      return;
    }
    if (closed) return;
    const list = root.querySelector('#live-games');
    const wanted = new Set(featured.map((f) => f.game.board));
    for (const [board, tile] of tiles) {
      if (!wanted.has(board)) { tile.close(); tile.node.remove(); tiles.delete(board); }
    }
    for (const entry of featured) {
      if (!tiles.has(entry.game.board)) tiles.set(entry.game.board, new LiveTile(entry));
      list.appendChild(tiles.get(entry.game.board).node);
    }
    list.querySelector('.empty')?.remove();
    if (!featured.length) list.innerHTML = '<li class="empty">No game is being played right now.</li>';
  }

  async function refreshLists() {
    try {
      // The top players are the default game's (the server's first).
      const [[defaultGame], finished] = await Promise.all([loadGames(), api('/api/games?status=finished&limit=8')]);
      const board = await api(`/api/leaderboard?game=${defaultGame.id}`);
      if (closed) return;
      root.querySelector('#recent-games').innerHTML = finished.map((g) => `<li data-board="${g.board}"><a href="#/game/${g.board}">
        ${playersLine(g)}<span class="score">${esc(g.result)}</span>
        <span class="turn">${g.winner ? `${esc(g.winner)} won` : 'draw'}, ${timeAgo(g.finished_ms)}</span></a></li>`).join('')
        || '<li class="empty">No finished games yet.</li>';
      const top = (board.players.length ? board.players : board.provisional).slice(0, 8);
      root.querySelector('#top-players').innerHTML = top.map((p) => `<li><a href="#/user/${encodeURIComponent(p.userid)}">${esc(p.userid)}</a>
        ${p.bot ? '<span class="badge">bot</span>' : ''} <span class="muted">${esc(p.rating_text)}</span></li>`).join('')
        || '<li class="empty">Nobody has played a rated game yet.</li>';
    } catch (err) {
      toast(err.message, 'error');
    }
  }

  // Games starting and ending change which boards are worth showing.
  let pending;
  // The greeting of the first connection shows the live boards; the lists were just loaded.
  // After a reconnection it is a reason to load them again.
  let greeted = false;
  const lobby = new LiveSocket(() => '/api/lobby/ws', {
    onMessage: (message) => {
      if (!['lobby', 'game_started', 'game_ended', 'resync'].includes(message.type)) return;
      const lists = message.type !== 'game_started' && (greeted || message.type !== 'lobby');
      if (message.type === 'lobby') greeted = true;
      clearTimeout(pending);
      pending = setTimeout(() => { refreshLive(); if (lists) refreshLists(); }, 150);
    },
  });

  (async () => {
    let bots = [];
    try { bots = await api('/api/bots'); } catch (err) { toast(err.message, 'error'); }
    if (closed) return;
    root.querySelector('#front-bot').innerHTML = bots.map((b) => `<option value="${esc(b.userid)}">${esc(b.level)} (${esc(b.rating_text)})</option>`).join('');
  })();
  refreshLists();

  attachQuickPlay(root, signedIn);

  return () => {
    closed = true;
    clearTimeout(pending);
    lobby.close();
    for (const tile of tiles.values()) tile.close();
  };
}

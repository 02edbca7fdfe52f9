// The game page's live stream: the board's socket (a snapshot, then each change as an event
// with the game's new version), the board fetched when the socket is slow or refused, and a
// board that does not exist.

import { api, esc, LiveSocket } from './api.js';
import { gameOf, loadGames } from './kinds.js';
import { drawChat } from './game-chat.js';
import { statusText } from './game-status.js';

const PROPOSALS = { draw: 'draw offer', undo: 'request to take back the last move' };

/** Follows the game of `page`; returns {load, close}: fetch the board now, stop following. */
export function followGame(page) {
  const { board, me, $ } = page;

  async function load() {
    if (page.closed) return;
    try {
      const [view] = await Promise.all([api(`/api/games/${board}`), loadGames()]);
      page.setView(view, true);
      drawChat(page);
    } catch (err) {
      if (page.closed) return;
      if (err.status === 404 || err.status === 400) noSuchGame();
      else $('#status').textContent = err.message;
    }
  }

  /** A board that does not exist: say so instead of showing controls, and stop listening. */
  function noSuchGame() {
    page.closed = true;
    socket.close();
    document.title = 'No such game · Ataxx';
    page.root.innerHTML = `<section class="card no-such-game"><h1>No such game</h1>
      <p>There is no board ${esc(String(board))} on this server.</p><p><a href="#/">Back to the lobby</a></p></section>`;
  }

  /** A rejected proposal, told to the other players (the proposer first of all). */
  function noteRejection({ proposal, by }) {
    if (by === me || !page.mySeat()) return;
    const text = `${by} rejected ${page.view.proposal?.by === me ? 'your' : 'the'} ${PROPOSALS[proposal] ?? proposal}.`;
    page.notice(text);
    page.toast(text);
  }

  function onMessage(event) {
    const { view } = page;
    if (event.type === 'snapshot') {
      // The games not loaded yet (the server was away when the page opened): load both.
      if (!gameOf(event.game.game)) { load(); return; }
      page.setView(event.game, true);
      drawChat(page);
      return;
    }
    // The computer analysis leaves the board's version as it is: its own part takes it.
    if (event.type === 'analysis') { if (event.board === board) page.reviewEvent(event); return; }
    if (!view || event.board !== board || event.version === undefined || event.version <= view.version) return;
    const summary = { ...event.game, moves: view.moves, chat: view.chat };
    switch (event.type) {
      case 'moves':
        if (event.moves[0].ply !== view.moves.length + 1) { socket.send({ type: 'resync' }); return; }
        summary.moves = view.moves.concat(event.moves);
        break;
      case 'undone':
        summary.moves = view.moves.slice(0, event.ply);
        break;
      case 'chat':
        summary.chat = view.chat.concat([event.chat]);
        break;
      default:
        break;
    }
    if (summary.moves.length !== event.ply) { socket.send({ type: 'resync' }); return; }
    if (event.type === 'rejected') noteRejection(event);
    page.setView(summary, event.type === 'moves');
    if (event.type === 'chat') drawChat(page);
    if (event.type === 'ended') page.toast(statusText(page));
  }

  const socket = new LiveSocket(() => `/api/games/${board}/ws${page.view ? `?since=${page.view.version}` : ''}`, {
    onMessage,
    onStatus: (status) => {
      const line = $('#connection');
      line.textContent = status === 'live' ? '' : 'Connection lost: reconnecting…';
      line.className = `connection ${status}`;
      // A socket refused before any board came: ask whether the board exists at all.
      if (status !== 'live' && !page.view) load();
    },
  });
  // Without a socket (a proxy that refuses them), the board still shows.
  const fallback = setTimeout(() => { if (!page.view) load(); }, 3000);
  // Back from sleep or a lost network: reconnect at once rather than after the back-off.
  const onOnline = () => socket.reconnect();
  window.addEventListener('online', onOnline);

  return {
    load,
    close: () => {
      clearTimeout(fallback);
      socket.close();
      window.removeEventListener('online', onOnline);
    },
  };
}

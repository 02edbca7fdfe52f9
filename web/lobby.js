// The lobby: quick pairing and the open seeks (seeks.js), challenges to answer, my games (my turn
// first), who is online, the bots, and the form that starts a game, with its blocked-layout picker.
// This module holds the lobby's state, loads it (again while the server is away) and follows the
// lobby socket; the lobby-*.js modules each do one part: the layout, the form, the picker, the
// lists of my games, and the people online and the bots.

import { LiveSocket, unreachable } from './api.js';
import { allGames, gamesLoaded, loadGames } from './kinds.js';
import { mountQuickPairing, mountSeekList } from './seeks.js';
import { attachBlocks } from './lobby-blocks.js';
import { attachChallengeForm, showGames } from './lobby-form.js';
import { lobbyLayout } from './lobby-layout.js';
import { attachChallenges, refreshLists } from './lobby-lists.js';
import { attachOnline, heartbeat, loadBots } from './lobby-people.js';

/**
 * Events on my games refresh the lists; a game I am in that starts opens. `load` is the
 * lobby's (re)load, for when the socket comes back.
 */
function followLobby(lobby, load) {
  const { me } = lobby;
  let pending;
  const socket = new LiveSocket(() => '/api/ws', {
    onMessage: (event) => {
      // The greeting and the answers to pings change no game.
      if (event.type === 'hello' || event.type === 'pong') return;
      if (event.type === 'started' && event.game && (event.game.x === me || event.game.o === me)) {
        location.hash = `#/game/${event.board}`;
        return;
      }
      clearTimeout(pending);
      pending = setTimeout(lobby.refresh, 100);
    },
    // The first connection finds the lists just loaded; a reconnection, or the server back
    // after a start without it, loads them again.
    onStatus: (status, { again } = {}) => {
      if (status !== 'live') return;
      if (!lobby.$('#lobby-offline').hidden) load();
      else if (again) lobby.refresh();
    },
  });
  return () => {
    clearTimeout(pending);
    socket.close();
  };
}

export function mountLobby(root, { me, toast }) {
  root.innerHTML = lobbyLayout();
  /** The lobby's state, which the lobby-*.js parts read and change. */
  const lobby = {
    root, me, toast,
    $: (sel) => root.querySelector(sel),
    form: root.querySelector('#challenge-form'),
    bots: [], // the computer players (GET /api/bots)
    mask: 0, // the blocked layout's mask, as the picker shows it
    closed: false,
    refresh: () => refreshLists(lobby),
  };
  const seeks = mountSeekList(root.querySelector('#lobby-seeks'), { me, toast });
  mountQuickPairing(root.querySelector('#lobby-pairing'), { me, toast, list: seeks });
  const preview = attachBlocks(lobby);
  attachChallengeForm(lobby, preview);
  attachChallenges(lobby);
  attachOnline(lobby);

  // A lobby opened while the server is away tries again with growing delays (as the game
  // page's socket does) until everything has loaded, then clears its error.
  const offline = lobby.$('#lobby-offline');
  let retry;
  let retryDelay = 1000;
  async function load() {
    clearTimeout(retry);
    const games = allGames().length > 0 || loadGames().then(() => true, (err) => !unreachable(err));
    const bots = lobby.bots.length > 0 || loadBots(lobby);
    const loaded = await Promise.all([games, bots, preview(lobby.form.blocks.value), lobby.refresh(), heartbeat(lobby)]);
    if (lobby.closed) return;
    offline.hidden = loaded.every(Boolean);
    if (offline.hidden) { retryDelay = 1000; return; }
    offline.textContent = 'The server cannot be reached: trying again…';
    retry = setTimeout(load, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 8000);
  }
  gamesLoaded.then((games) => { if (!lobby.closed) showGames(lobby, games); });
  load();
  const beat = setInterval(() => heartbeat(lobby), 30000);
  const unfollow = followLobby(lobby, load);
  return () => {
    lobby.closed = true;
    clearInterval(beat);
    clearTimeout(retry);
    unfollow();
    seeks.close();
  };
}

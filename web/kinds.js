// The games the server plays and the clocks it offers. The games come from the server
// (GET /api/kinds: each one's name, seats and board sizes), each paired with its descriptor
// module, kind-<id>.js, which says what only the page knows of it: how to draw and read its
// boards, how its sizes and moves are written, and the new-game options it asks for. Adding a
// game to the pages is adding its descriptor (preloaded by index.html).

import { api } from './api.js';

export const CLOCKS = [
  ['', 'Correspondence (days per move)'],
  ['1+0', 'Live 1 min'],
  ['3+2', 'Live 3 min + 2 s'],
  ['5+3', 'Live 5 min + 3 s'],
  ['10+5', 'Live 10 min + 5 s'],
  ['30+0', 'Live 30 min'],
];

/** The games as loaded: the server's list, the default game first. */
let games = [];
/** The request for them, in flight or answered; null before the first and after a failure. */
let loading = null;
let settle;

/** Settles with the games once they have loaded, however many tries that takes. */
export const gamesLoaded = new Promise((resolve) => { settle = resolve; });

/** A game of the server's list with its descriptor, and the sizes a menu offers. */
async function described(kind) {
  const { default: descriptor } = await import(`./kind-${kind.id}.js`);
  // The menus offer the default board first, then the others from the largest down.
  const others = kind.sizes.filter((n) => n !== kind.default_size).sort((a, b) => b - a);
  return { ...kind, ...descriptor, sizes: [kind.default_size, ...others] };
}

/** Asks the server for the games unless it has answered; a failed request is asked again. */
export function loadGames() {
  loading ??= api('/api/kinds')
    .then((list) => Promise.all(list.map(described)))
    .then((list) => {
      games = list;
      settle(list);
      return list;
    }, (err) => {
      loading = null;
      throw err;
    });
  return loading;
}

/** Every game, the default first; empty until they have loaded. */
export const allGames = () => games;

/** The game with this id; undefined until the games have loaded. */
export const gameOf = (id) => games.find((game) => game.id === id);

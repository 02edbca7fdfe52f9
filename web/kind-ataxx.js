// Ataxx on a square board: what the page alone knows of it (kinds.js pairs it with the server's
// description). The analysis engine plays this game only.

import { SQUARE_GAME } from './board.js';

export default {
  ...SQUARE_GAME,
  analysis: true,
  // Quick pairing names the board it plays on ("Ataxx 7×7").
  pairsWithSize: true,
};

// Four-player Ataxx: a square board like Ataxx's (kinds.js pairs this with the server's
// description, which gives the four seats).

import { SQUARE_GAME } from './board.js';

export default { ...SQUARE_GAME };

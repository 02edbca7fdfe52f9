// The games the server plays and the clocks it offers, as the forms name them (the lobby's
// new-game form, the seeks page and quick pairing share them).

export const CLOCKS = [
  ['', 'Correspondence (days per move)'],
  ['1+0', 'Live 1 min'],
  ['3+2', 'Live 3 min + 2 s'],
  ['5+3', 'Live 5 min + 3 s'],
  ['10+5', 'Live 10 min + 5 s'],
  ['30+0', 'Live 30 min'],
];

/** The games a new game may be, with their board sizes (the default first). */
export const GAME_KINDS = [
  ['ataxx', 'Ataxx', [7, 8, 6, 5, 4, 3], (n) => `${n}×${n}`],
  ['hexxagon', 'Hexxagon', [5, 4, 3], (n) => `${n} cells a side`],
  ['ataxx4', 'Four-player Ataxx', [7, 8, 6, 5], (n) => `${n}×${n}`],
  ['ankor', 'Ankor', [6, 3, 4, 5, 7, 8], (n) => `${n} holes a side`],
];

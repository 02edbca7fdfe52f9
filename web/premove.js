// Premoves: in a live game, a player may pick one move while the opponent thinks; the game
// page plays it when the turn comes if it is still legal then. The server's legal moves are for
// the side to move, so the cells a premove may go to are guessed here from the board alone:
// every free cell a single step or a jump away (the move is checked again when it is played).

/** Where the piece on `from` could go once it is its turn: {singles, jumps}. */
export function premoveTargets(kind, pos, from) {
  const singles = [];
  const jumps = [];
  for (const [cell, content] of kind.cells(pos)) {
    if (content !== '') continue;
    const steps = kind.distance(from, cell);
    if (steps === 1) singles.push(cell);
    if (steps === 2) jumps.push(cell);
  }
  return { singles, jumps };
}

/** Marks the cells of the waiting premove (or none) on the board drawn in `container`. */
export function showPremove(container, premove) {
  for (const cell of container.querySelectorAll('.squares .premove')) cell.classList.remove('premove');
  if (!premove) return;
  for (const name of [premove.from, premove.to]) {
    container.querySelector(`.squares [data-sq="${name}"]`)?.classList.add('premove');
  }
}

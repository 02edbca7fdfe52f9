// What screen readers hear: one polite live region for the whole page, and the words for the
// moves of a game (both sides') and its result.

let region = null;

/** The page's live region, made on first use (visually hidden, read aloud when it changes). */
function liveRegion() {
  if (!region || !region.isConnected) {
    region = document.createElement('div');
    region.id = 'announcer';
    region.className = 'sr-only';
    region.setAttribute('aria-live', 'polite');
    region.setAttribute('role', 'log');
    document.body.appendChild(region);
  }
  return region;
}

/** Says `text` to screen readers (the last few lines stay, older ones go). */
export function announce(text) {
  const box = liveRegion();
  const line = document.createElement('p');
  line.textContent = text;
  box.appendChild(line);
  while (box.childElementCount > 5) box.firstElementChild.remove();
}

/** Words for a move as recorded by the server: "ada (x) plays c3b5, flipping 2". */
export function moveWords(move, seats, me) {
  const seat = seats[move.seat];
  const who = seat ? `${seat.name === me ? 'You' : seat.name} (${seat.letter})` : 'A player';
  if (move.auto) return `${who} ${seat?.name === me ? 'have' : 'has'} no move and ${seat?.name === me ? 'pass' : 'passes'}.`;
  if (move.move === 'swap') return `${who} swapped: the players exchange colours.`;
  const flips = move.flips ? `, flipping ${move.flips}` : '';
  return `${who} ${seat?.name === me ? 'play' : 'plays'} ${move.move}${flips}.`;
}

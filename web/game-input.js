// Clicks on the game page's board: pick a piece and play where it may go (the server's legal
// moves say where), or say why a click plays nothing; in a live game, one premove chosen while
// the opponent thinks, played when the turn comes if it is still legal then.

import { premoveTargets } from './premove.js';

/** What lies on `cell` in the latest position: a piece letter, '-' (blocked) or ''. */
const contentOf = (page, cell) => new Map(page.kind.cells(page.positions[page.positions.length - 1])).get(cell);

/** Where the piece or cube on `cell` may go: {singles, jumps} (square, hex) or {moves} (Ankor). */
export function targetsOf(page, cell) {
  const moves = page.legal();
  if (page.kind.cubes) return { moves: moves.filter((m) => m.startsWith(`${cell}-`)).map((m) => m.split('-')[1]) };
  return {
    singles: moves.filter((m) => m.length === 2 && page.kind.distance(m, cell) === 1),
    jumps: moves.filter((m) => m.length === 4 && m.startsWith(cell)).map((m) => m.slice(2)),
  };
}

export function clickSquare(page, sq) {
  const { view, kind, selected } = page;
  if (!view) return;
  if (page.viewPly !== null) { page.viewPly = null; page.draw(); return; }
  if (!page.myTurn()) {
    if (canPremove(page)) return void clickPremove(page, sq);
    if (view.status === 'active' && page.mySeat()) page.toast(`It is ${view.to_move}'s move.`);
    return;
  }
  const moves = page.legal();
  if (selected) {
    const targets = targetsOf(page, selected);
    if (kind.cubes && targets.moves.includes(sq)) return void page.move(`${selected}-${sq}`);
    if (targets.singles?.includes(sq)) return void page.move(sq);
    if (targets.jumps?.includes(sq)) return void page.move(selected + sq);
  }
  // One of my pieces that can go somewhere: select it (or let go of it).
  const here = targetsOf(page, sq);
  const fromHere = kind.cubes ? here.moves : [...here.singles, ...here.jumps];
  if (contentOf(page, sq) === page.mySeat() && fromHere.length > 0) {
    page.selected = selected === sq ? null : sq;
    page.draw();
    return;
  }
  // A single or a placement names only its cell: it plays at once.
  if (moves.includes(sq)) return void page.move(sq);
  refuse(page, sq);
}

/** A click that plays nothing: say why, and shake the board. */
function refuse(page, sq) {
  const content = contentOf(page, sq);
  const from = page.selected;
  const piece = page.kind.cubes ? 'cube' : 'piece';
  page.selected = null;
  page.draw();
  let why = `No ${piece} of yours can reach ${sq}.`;
  if (content === '-') why = `${sq} is blocked.`;
  else if (content === page.mySeat()) why = `Your ${piece} on ${sq} has no move.`;
  else if (content) why = `${sq} holds an opponent's ${piece}: pick one of yours.`;
  else if (from) why = `Your ${piece} on ${from} cannot reach ${sq}.`;
  page.notice(why, true);
}

const canPremove = (page) => page.view.status === 'active' && !!page.view.clock && page.mySeat() !== null && !page.kind.cubes && page.viewPly === null;

/** Picks a piece, then its destination; any click while a premove waits cancels it. */
function clickPremove(page, sq) {
  const { selected } = page;
  if (page.premove) {
    page.premove = null;
    page.notice('Premove cancelled.');
  } else if (contentOf(page, sq) === page.mySeat()) {
    page.selected = selected === sq ? null : sq;
  } else if (selected) {
    const { singles, jumps } = premoveTargets(page.kind, page.positions[page.positions.length - 1], selected);
    const text = singles.includes(sq) ? sq : jumps.includes(sq) ? selected + sq : null;
    if (text) {
      page.premove = { text, from: selected, to: sq };
      page.notice(`Premove ${text}: played when your turn comes. Click the board to cancel it.`);
    }
    page.selected = null;
  }
  page.draw();
}

/** Plays the waiting premove once the turn comes, if it is still legal then. */
export function playPremove(page) {
  if (!page.premove) return;
  if (page.view.status !== 'active') { page.premove = null; page.draw(); return; }
  if (!page.myTurn()) return;
  const { text } = page.premove;
  page.premove = null;
  if (page.legal().includes(text)) page.move(text);
  else { page.notice(`The premove ${text} is no longer legal.`, true); page.draw(); }
}

// How to play (#/rules and #/rules/<game>): each game's rules in short, with small boards to try
// them on. A try board draws with the game's own board (kinds.js) and reads clicks as the game
// page does (game-input.js); what is legal and what a move does comes from the server
// (GET /api/rules/{game}), the one implementation of the rules.

import { api, esc } from './api.js';
import { gameOf, loadGames } from './kinds.js';
import { clickSquare, targetsOf } from './game-input.js';

const played = (after) => after.played?.move ?? '';
const isJump = (after) => /^[a-z]\d+[a-z]\d+$/.test(played(after));

/**
 * Each game's page: a lead, the rules as short sections, and the tries. A try is a position, what
 * to do there, and `done(after, before)`: whether the move made does it (true), or what to say.
 */
const PAGES = {
  ataxx: {
    lead: 'Two players, X and O, on a square board. X moves first. Most pieces when the board is full wins.',
    rules: [
      ['A move', `Each turn you either <strong>clone</strong>: put a new piece on an empty cell touching one of yours
        (one of the eight around it), or <strong>jump</strong>: move one of your pieces to an empty cell exactly two
        steps away, leaving its cell empty.`],
      ['Captures', 'After either move, every enemy piece touching the cell you landed on becomes yours.'],
      ['Passing and the end', `You pass only when you have no move. The game ends when the board is full, when a side
        has no pieces, when neither side can move, or after 100 moves without a clone. More pieces wins; equal counts draw.
        Some boards have blocked cells: nobody enters them, a jump may pass over them.`],
    ],
    tries: [
      { title: 'Try a clone', fen: '5/5/2x2/5/4o x 0 1',
        text: 'Click your piece on c3, then an empty cell touching it: a new piece appears there, and c3 keeps its own.',
        done: (after) => played(after).length === 2 || 'That was a jump: pick a cell right next to c3.',
        success: (after) => `Cloned to ${played(after)}: X has ${after.pieces[0]} pieces now.` },
      { title: 'Try a jump', fen: '5/5/2x2/5/4o x 0 1',
        text: 'Click c3, then a cell two steps away (the larger ring of dots): the piece jumps there and c3 is left empty.',
        done: (after) => isJump(after) || 'That was a clone: pick a cell two steps from c3.',
        success: (after) => `Jumped ${played(after)}: still ${after.pieces[0]} piece, in a new place.` },
      { title: 'Try a capture', fen: '5/1oo2/5/x4/5 x 0 1',
        text: 'Land next to both O pieces (b4 and c4) to take them both with one move.',
        done: (after) => after.played.flips >= 2 || `That took ${after.played.flips}: land where both O pieces touch.`,
        success: (after) => `${after.played.flips} pieces turned: X has ${after.pieces[0]}, O has ${after.pieces[1]}.` },
    ],
  },
  hexxagon: {
    lead: 'Ataxx on a hexagon of hexagonal cells: the same moves and captures, with six neighbours instead of eight.',
    rules: [
      ['The board', `A hexagon with 5 cells on each side (61 cells; 3 and 4 are offered too). Each side starts with three
        pieces on alternate corners; X moves first. Some games block the three cells e4, f6 and d5.`],
      ['A move', `<strong>Clone</strong> to one of the six cells touching one of your pieces, or <strong>jump</strong> to
        one of the twelve cells two steps away, leaving the old cell empty.`],
      ['Captures and the end', 'Every enemy piece touching the cell you land on becomes yours. The end and the result are Ataxx\'s: most pieces wins.'],
    ],
    tries: [
      { title: 'Try the six neighbours', fen: '2o/4/2x2/4/3 x 0 1',
        text: 'Click your piece on c3: six cells touch it. Clone to one of them.',
        done: (after) => played(after).length === 2 || 'That was a jump: pick one of the six cells touching c3.',
        success: (after) => `Cloned to ${played(after)}: a hex has six neighbours, not eight.` },
      { title: 'Try a jump that captures', fen: '3/1oo1/5/4/x2 x 0 1',
        text: 'Jump from a1 to the cell that touches both O pieces (c4 and d4): both turn.',
        done: (after) => (isJump(after) && after.played.flips >= 2) || 'Not yet: jump from a1 to the cell both O pieces touch.',
        success: (after) => `Jumped ${played(after)} and took ${after.played.flips}.` },
    ],
  },
  ataxx4: {
    lead: 'Four colours share one square board: red, blue, green and yellow, one piece each in a corner at the start.',
    rules: [
      ['Turns', 'Red moves first; the turn goes clockwise round the board: red, blue, green, yellow.'],
      ['Moves and captures', 'Ataxx\'s clone and jump. After either, every piece of every other colour touching the cell you land on becomes yours.'],
      ['Elimination', 'A colour with no pieces is out: its turn never comes again. Several colours can go out in one move.'],
      ['The end', `The game ends when at most one colour has pieces, when no colour can move, or after 100 moves without a
        clone. Colours are ranked by their pieces; equal counts share a rank.`],
    ],
    tries: [
      { title: 'Try an elimination', fen: 'r4/2b2/5/5/y3g r 0 1',
        text: 'You play red. Blue has one piece left, on c4: take it, and see whose turn comes next.',
        done: (after) => after.pieces[1] === 0 || 'Blue still has its piece: land next to c4.',
        success: (after) => `Blue is out. The turn skips it: ${after.turn === 'g' ? 'green' : after.turn} moves next.` },
    ],
  },
  ankor: {
    lead: `Cubes stacked corner-down in a triangular pyramid. Connect the three sides of the pyramid with one group of
      your cubes to win. O moves first.`,
    rules: [
      ['Placing', 'Put a cube from your reserve into an empty hole of the board.'],
      ['Moving and sliding', `Or move one of your cubes that carries at most one column: to an empty hole, or a cell
        resting on three cubes, through a chain of your own cubes. When it leaves, the column it carried slides down
        one step to fill the gap.`],
      ['Swap', 'On the second move only, X may swap: the players exchange colours instead of moving.'],
      ['Winning', `Cubes sharing a face form a group. A group that touches all three sides of the pyramid low down (a
        cube on the board or one level up) wins. If both players pass in a row, or a position comes back a third time,
        it is a draw.`],
    ],
    tries: [
      { title: 'Try placing a cube', fen: 'ankor 4 1 ........../....../.../. o 10 10 0',
        text: 'Click a tinted hole to place one of your cubes there.',
        done: (after) => !played(after).includes('-') || 'That moved a cube: click an empty tinted hole.',
        success: (after) => `Placed on ${played(after)}.` },
      { title: 'Try moving a cube', fen: 'ankor 4 1 .o..x...../....../.../. o 9 9 4',
        text: 'Click your cube on b1, then one of the dashed cells it may move to.',
        done: (after) => played(after).includes('-') || 'That placed a new cube: click your cube on b1 first.',
        success: (after) => `Moved ${played(after)}: the cube left b1 for its new cell.` },
      { title: 'Try the winning path', fen: 'ankor 3 1 ooxxoo/o.x/. o 0 2 26',
        text: 'Your cubes are all on the board. Move one so that a single group of yours touches all three sides of the pyramid.',
        done: (after) => after.result === '1-0' || 'No group touches all three sides yet: try another cube.',
        success: () => 'O wins: the winning group is outlined in gold.' },
      { title: 'Try a slide', fen: 'ankor 4 1 .x..ox.oo./....o./.../. o 6 8 6',
        text: "Your cube on d2 carries the one on d3'. Move d2 to d4 (click d2, then d4) and watch the cube above slide down into its place.",
        done: (after) => played(after).startsWith('d2-') || `${played(after)} carried nothing: move the cube on d2, under the one on d3'.`,
        success: (after) => `Moved ${played(after)}: the cube from d3' slid down into d2.` },
    ],
  },
};

/** The games in the order the server lists them, with their pages. */
const learnable = async () => (await loadGames()).filter((g) => PAGES[g.id]);

/** A small board to try a rule on, reading clicks as the game page does. */
class TryBoard {
  constructor(node, kind, game, attempt) {
    Object.assign(this, { node, kind, game, attempt, selected: null, viewPly: null, view: { status: 'active' } });
    this.status = node.querySelector('.try-status');
    this.board = new kind.Board(node.querySelector('.try-board'), { onSquare: (sq) => clickSquare(this, sq) });
    node.querySelector('.try-again').addEventListener('click', () => this.reset());
  }

  async reset() {
    this.solved = false;
    this.selected = null;
    this.status.textContent = '';
    this.status.className = 'try-status';
    await this.show(await api(`/api/rules/${this.game}?fen=${encodeURIComponent(this.attempt.fen)}`));
  }

  show(state) {
    this.state = state;
    this.positions = [this.kind.parse(state.fen)];
    this.draw();
  }

  myTurn() { return !this.solved && this.state?.turn != null; }

  mySeat() { return this.state?.turn ?? null; }

  legal() { return this.myTurn() ? this.state.legal_moves : []; }

  draw() {
    const marks = { selected: this.selected };
    if (this.selected) Object.assign(marks, targetsOf(this, this.selected));
    if (this.kind.cubes) {
      marks.places = this.selected ? [] : this.legal().filter((m) => !m.includes('-') && m !== 'swap' && m !== '0000');
      marks.path = this.state.winning_path ?? [];
    }
    this.board.render(this.positions[0], marks);
  }

  notice(text, bad = false) {
    this.status.textContent = text;
    this.status.className = `try-status${bad ? ' bad' : ''}`;
  }

  toast(text) { this.notice(text, true); }

  async move(text) {
    const before = this.state;
    this.selected = null;
    let after;
    try {
      after = await api(`/api/rules/${this.game}?fen=${encodeURIComponent(before.fen)}&move=${encodeURIComponent(text)}`);
    } catch (err) {
      this.notice(err.message, true);
      this.draw();
      return;
    }
    const verdict = this.attempt.done(after, before);
    if (verdict === true) {
      this.solved = true;
      this.show(after);
      this.notice(`Well done. ${this.attempt.success(after)}`);
      this.status.classList.add('good');
    } else {
      this.show(before);
      this.notice(`${verdict} (The board is set back.)`, true);
    }
  }
}

function mountIndex(root, games) {
  root.innerHTML = `<section class="card rules">
    <h1>How to play</h1>
    <p class="lead">This server plays four games. Each page below says the rules in short and lets you try them on small boards.</p>
    <ul class="rules-list">${games.map((g) => `<li><a href="#/rules/${esc(g.id)}">${esc(g.name)}</a>
      <span class="muted">${esc(PAGES[g.id].lead)}</span></li>`).join('')}</ul>
    <p>To study a position of any of them, or see what was played from it here, open the <a href="#/analysis">analysis board</a>.</p>
  </section>`;
}

export function mountRules(root, id) {
  let alive = true;
  (async () => {
    let games;
    try { games = await learnable(); } catch (err) {
      root.innerHTML = `<section class="card"><p class="error" role="alert">${esc(err.message)}</p></section>`;
      return;
    }
    if (!alive) return;
    if (!id) { mountIndex(root, games); return; }
    const kind = gameOf(id);
    const page = PAGES[id];
    if (!kind || !page) {
      root.innerHTML = `<section class="card no-such-game"><h1>No such game</h1>
        <p>This server has no game named ${esc(id)}.</p><p><a href="#/rules">How to play the games it has</a></p></section>`;
      return;
    }
    root.innerHTML = `<section class="card rules">
      <p><a href="#/rules">How to play</a> › ${esc(kind.name)}</p>
      <h1>${esc(kind.name)}</h1>
      <p class="lead">${page.lead}</p>
      ${page.rules.map(([title, text]) => `<h2>${esc(title)}</h2><p>${text}</p>`).join('')}
      <h2>Try it</h2>
      <div class="tries">${page.tries.map((t, i) => `<article class="try" id="try-${i + 1}" aria-labelledby="try-${i + 1}-title">
        <h3 id="try-${i + 1}-title">${esc(t.title)}</h3>
        <p>${esc(t.text)}</p>
        <div class="try-board board-wrap"></div>
        <p class="try-status" role="status"></p>
        <button type="button" class="try-again">Start again</button>
      </article>`).join('')}</div>
      <p><a class="button" href="#/">Play ${esc(kind.name)}</a></p>
    </section>`;
    const boards = page.tries.map((t, i) => new TryBoard(root.querySelector(`#try-${i + 1}`), kind, id, t));
    try {
      await Promise.all(boards.map((b) => b.reset()));
    } catch (err) {
      if (alive) root.querySelector('.tries').insertAdjacentHTML('beforebegin', `<p class="error" role="alert">${esc(err.message)}</p>`);
    }
  })();
  return () => { alive = false; };
}

// The analysis board (#/analysis?game=<id>&fen=<FEN>): a position of any game, from its start,
// a blocked layout, a FEN typed in, a square Ataxx game pasted, or a finished game's page
// ("Analyse from here"), where moves are made for both sides; the engine's best three lines for
// the position shown, live as its search deepens, and the moves played from it in the site's
// finished games. This module holds the board's state and draws it; analysis-position.js sets
// positions up and plays moves, analysis-engine.js and analysis-explorer.js ask about them.
// Clicks are read as on the game page (game-input.js); a click on an explorer or engine move
// plays it.

import { esc } from './api.js';
import { allGames, loadGames } from './kinds.js';
import { targetsOf } from './game-input.js';
import { attachEngine } from './analysis-engine.js';
import { explore } from './analysis-explorer.js';
import { importGame, play, setUp, setUpLayout, takeBack } from './analysis-position.js';

const LAYOUT = `<div class="game analysis-board">
      <div class="board-col">
        <div id="board" class="board-box"></div>
        <div class="replay" role="group" aria-label="moves">
          <button type="button" id="analysis-back" title="Take back the last move">Take back</button>
          <button type="button" id="analysis-pass" hidden>Pass</button>
          <span id="analysis-turn" class="muted"></span>
        </div>
      </div>
      <aside class="side">
        <div class="card">
          <h1>Analysis board</h1>
          <form id="analysis-setup" class="analysis-setup" autocomplete="off">
            <label>Game <select name="game" id="analysis-game"></select></label>
            <label>Position (FEN) <input name="fen" id="analysis-fen" spellcheck="false"></label>
            <button type="submit">Set up</button>
            <button type="button" id="analysis-start">Start position</button>
            <label id="analysis-blocks-label">Blocked layout <input name="blocks" id="analysis-blocks" spellcheck="false" placeholder="a Blocks-Config code (e.g. 2-2) or a mask (0x…)"></label>
            <button type="button" id="analysis-blocks-set">Start on this layout</button>
          </form>
          <form id="analysis-import" class="analysis-setup" autocomplete="off">
            <label>A square Ataxx game (PGN or a 1995 record) <textarea name="game" id="analysis-import-text" rows="3" spellcheck="false"></textarea></label>
            <button type="submit">Replay it here</button>
          </form>
          <p id="analysis-notice" class="notice" role="status"></p>
          <p class="muted">Moves: <span id="analysis-line">–</span></p>
        </div>
        <div class="card"><h2>Engine</h2><p id="engine" class="analysis" role="status"></p><div id="engine-lines"></div></div>
        <div class="card"><h2>Explorer</h2><div id="explorer"></div></div>
      </aside>
    </div>`;

function draw(board) {
  const { $ } = board;
  const state = board.state();
  const marks = { selected: board.selected, arrow: board.arrow };
  if (board.selected) Object.assign(marks, targetsOf(board, board.selected));
  if (board.kind.cubes) {
    marks.places = board.selected ? [] : board.legal().filter((m) => !m.includes('-') && m !== 'swap' && m !== '0000');
    marks.path = state.winning_path ?? [];
  }
  board.boardView.render(board.positions[0], marks);
  $('#analysis-line').textContent = board.played.join(' ') || '–';
  $('#analysis-back').disabled = board.states.length < 2;
  $('#analysis-pass').hidden = !board.legal().includes('0000');
  $('#analysis-turn').textContent = state.turn ? `${state.turn.toUpperCase()} to move` : `Game over: ${state.result ?? ''}`;
}

/** The position changed: draw it, and ask the engine and the explorer about it. */
function changed(board) {
  const state = board.state();
  board.positions = [board.kind.parse(state.fen)];
  board.arrow = null;
  // Here and not in draw(), which each of the engine's depths calls: typing is not undone.
  board.$('#analysis-fen').value = state.fen;
  draw(board);
  board.engine.analyse(state);
  explore(board, state);
}

/** The buttons and forms: set-ups, Take back, Pass, and the moves of the engine's and the explorer's tables. */
function attachControls(board) {
  const { $ } = board;
  const game = () => $('#analysis-game').value;
  $('#analysis-setup').addEventListener('submit', (event) => {
    event.preventDefault();
    setUp(board, game(), $('#analysis-fen').value.trim());
  });
  $('#analysis-game').addEventListener('change', () => setUp(board, game(), ''));
  $('#analysis-start').addEventListener('click', () => setUp(board, game(), ''));
  $('#analysis-blocks-set').addEventListener('click', () => setUpLayout(board, game(), $('#analysis-blocks').value.trim()));
  $('#analysis-import').addEventListener('submit', (event) => {
    event.preventDefault();
    importGame(board, $('#analysis-import-text').value);
  });
  $('#analysis-back').addEventListener('click', () => takeBack(board));
  $('#analysis-pass').addEventListener('click', () => play(board, '0000'));
  for (const list of ['#explorer', '#engine-lines']) {
    $(list).addEventListener('click', (event) => {
      const button = event.target.closest('[data-move]');
      if (button) play(board, button.dataset.move);
    });
  }
}

export function mountAnalysisBoard(root, { toast }, query) {
  root.innerHTML = LAYOUT;
  const $ = (sel) => root.querySelector(sel);
  /** The board's state, which the analysis-*.js parts and game-input.js read and change. */
  const board = {
    $,
    closed: false,
    kind: null,
    game: null,
    /** The rules' answers from the position set up on: {fen, legal_moves, turn, seats, ...}. */
    states: [],
    played: [],
    positions: [],
    selected: null,
    viewPly: null,
    view: { status: 'active' },
    state: () => board.states[board.states.length - 1],
    myTurn: () => board.state()?.turn != null,
    mySeat: () => board.state()?.turn ?? null,
    legal: () => (board.myTurn() ? board.state().legal_moves : []),
    notice: (text, bad = false) => { $('#analysis-notice').textContent = text; $('#analysis-notice').classList.toggle('bad', bad); },
    toast: (text) => board.notice(text, true),
    move: (text) => play(board, text),
    draw: () => draw(board),
    changed: () => changed(board),
    arrow: null,
  };
  board.engine = attachEngine(board);
  attachControls(board);

  (async () => {
    try {
      await loadGames();
    } catch (err) {
      toast(err.message, 'error');
      return;
    }
    if (board.closed) return;
    $('#analysis-game').innerHTML = allGames().map((g) => `<option value="${esc(g.id)}">${esc(g.name)}</option>`).join('');
    const game = query.get('game') ?? allGames()[0]?.id;
    setUp(board, game, query.get('fen') ?? '');
  })();
  document.title = 'Analysis board · Ataxx';
  return () => {
    board.closed = true;
    board.engine.close();
  };
}

// The analysis board (#/analysis?game=<id>&fen=<FEN>): a position of any game, from its start,
// a FEN typed in, or a finished game's page ("Analyse from here"), where moves are made for
// both sides. The server says what is legal and what a move does (GET /api/rules/{game}), the
// engine's line for the position shown (GET /api/analysis, square Ataxx only) and the moves
// played from it in the site's finished games (GET /api/explorer). Clicks are read as on the
// game page (game-input.js); a click on an explorer move plays it.

import { api, esc } from './api.js';
import { allGames, gameOf, loadGames } from './kinds.js';
import { clickSquare, targetsOf } from './game-input.js';
import { moveCells } from './position.js';

/** A share as a whole percent of `of`. */
const percent = (part, of) => `${Math.round((100 * part) / Math.max(1, of))}%`;

/** The explorer's answer as a table: a row per move, the most played first. */
function explorerTable(explored, seats) {
  if (!explored.moves.length) return '<p class="muted">No finished game on this server reached this position.</p>';
  const head = seats.map((letter) => `<th scope="col"><span class="dot ${letter}"></span> ${letter.toUpperCase()} won</th>`).join('');
  const rows = explored.moves.map((m) => {
    const wins = seats.map((letter) => `<td>${percent(m.results[letter]?.wins ?? 0, m.games)}</td>`).join('');
    const rating = m.average_rating === null ? '–' : Math.round(m.average_rating);
    return `<tr><td><button type="button" class="link explorer-move" data-move="${esc(m.move)}">${esc(m.move)}</button></td>
      <td>${m.games}</td>${wins}<td>${rating}</td></tr>`;
  }).join('');
  return `<table class="explorer-table"><thead><tr><th scope="col">Move</th><th scope="col">Games</th>${head}<th scope="col">Rating</th></tr></thead>
    <tbody>${rows}</tbody></table>`;
}

/** The engine's answer in words. */
function engineLine(result) {
  if (!result.best) return 'The game is over in this position.';
  if (result.best === '0000') return `${result.turn} has no move and must pass.`;
  const score = result.outcome ? `${result.turn} ${result.outcome === 'win' ? 'wins' : 'loses'} with best play`
    : `${result.score >= 0 ? '+' : ''}${result.score.toFixed(1)} pieces for ${result.turn}`;
  return `Best for ${esc(result.turn)}: <strong id="engine-best">${esc(result.best)}</strong>, ${esc(score)}
    <br><span class="muted">Line: ${result.pv.map(esc).join(' ')} (${esc(result.analyser)})</span>`;
}

export function mountAnalysisBoard(root, { toast }, query) {
  let alive = true;
  root.innerHTML = `<div class="game analysis-board">
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
          </form>
          <p id="analysis-notice" class="notice" role="status"></p>
          <p class="muted">Moves: <span id="analysis-line">–</span></p>
        </div>
        <div class="card"><h2>Engine</h2><p id="engine" class="analysis" aria-live="polite"></p></div>
        <div class="card"><h2>Explorer</h2><div id="explorer"></div></div>
      </aside>
    </div>`;
  const $ = (sel) => root.querySelector(sel);
  const board = {
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
    move: (text) => play(text),
    draw,
    arrow: null,
  };

  async function setUp(game, fen) {
    const kind = gameOf(game);
    if (!kind) { board.notice(`This server has no game named ${game}.`, true); return; }
    let state;
    try {
      state = await api(`/api/rules/${game}${fen ? `?fen=${encodeURIComponent(fen)}` : ''}`);
    } catch (err) {
      board.notice(err.message, true);
      return;
    }
    if (!alive) return;
    if (board.kind !== kind) board.boardView = new kind.Board($('#board'), { onSquare: (sq) => clickSquare(board, sq) });
    Object.assign(board, { kind, game, states: [state], played: [], selected: null });
    $('#analysis-game').value = game;
    // The address names the position set up on, so it can be shared and reloaded.
    history.replaceState(null, '', `#/analysis?game=${game}&fen=${encodeURIComponent(state.fen)}`);
    board.notice('');
    changed();
  }

  async function play(text) {
    board.selected = null;
    try {
      const after = await api(`/api/rules/${board.game}?fen=${encodeURIComponent(board.state().fen)}&move=${encodeURIComponent(text)}`);
      if (!alive) return;
      board.states.push(after);
      board.played.push(after.played.move);
      board.notice('');
    } catch (err) {
      board.notice(err.message, true);
    }
    changed();
  }

  /** The position changed: draw it, and ask the engine and the explorer about it. */
  function changed() {
    board.positions = [board.kind.parse(board.state().fen)];
    board.arrow = null;
    draw();
    ask(board.state());
  }

  function draw() {
    const state = board.state();
    const marks = { selected: board.selected, arrow: board.arrow };
    if (board.selected) Object.assign(marks, targetsOf(board, board.selected));
    if (board.kind.cubes) {
      marks.places = board.selected ? [] : board.legal().filter((m) => !m.includes('-') && m !== 'swap' && m !== '0000');
      marks.path = state.winning_path ?? [];
    }
    board.boardView.render(board.positions[0], marks);
    $('#analysis-fen').value = state.fen;
    $('#analysis-line').textContent = board.played.join(' ') || '–';
    $('#analysis-back').disabled = board.states.length < 2;
    $('#analysis-pass').hidden = !board.legal().includes('0000');
    $('#analysis-turn').textContent = state.turn ? `${state.turn.toUpperCase()} to move` : `Game over: ${state.result ?? ''}`;
  }

  /** Asks the engine and the explorer about `state`; answers for a position left are dropped. */
  async function ask(state) {
    const current = () => alive && board.state() === state;
    const engine = $('#engine');
    if (!board.kind.analysis) {
      engine.textContent = `The engine analyses square Ataxx only; ${board.kind.name} has the explorer.`;
    } else {
      engine.textContent = 'Thinking…';
      api(`/api/analysis?fen=${encodeURIComponent(state.fen)}`).then((result) => {
        if (!current()) return;
        engine.innerHTML = engineLine(result);
        board.arrow = moveCells(result.best);
        draw();
      }, (err) => { if (current()) engine.textContent = err.message; });
    }
    $('#explorer').setAttribute('aria-busy', 'true');
    try {
      const explored = await api(`/api/explorer?game=${board.game}&fen=${encodeURIComponent(state.fen)}`);
      if (!current()) return;
      $('#explorer').innerHTML = `<p class="muted">${explored.games} of ${explored.indexed} finished games reached this position.</p>
        ${explorerTable(explored, state.seats)}`;
    } catch (err) {
      if (current()) $('#explorer').textContent = err.message;
    } finally {
      if (current()) $('#explorer').removeAttribute('aria-busy');
    }
  }

  $('#analysis-setup').addEventListener('submit', (event) => {
    event.preventDefault();
    setUp($('#analysis-game').value, $('#analysis-fen').value.trim());
  });
  $('#analysis-game').addEventListener('change', () => setUp($('#analysis-game').value, ''));
  $('#analysis-start').addEventListener('click', () => setUp($('#analysis-game').value, ''));
  $('#analysis-back').addEventListener('click', () => {
    if (board.states.length < 2) return;
    board.states.pop();
    board.played.pop();
    changed();
  });
  $('#analysis-pass').addEventListener('click', () => play('0000'));
  $('#explorer').addEventListener('click', (event) => {
    const button = event.target.closest('[data-move]');
    if (button) play(button.dataset.move);
  });

  (async () => {
    try {
      await loadGames();
    } catch (err) {
      toast(err.message, 'error');
      return;
    }
    if (!alive) return;
    $('#analysis-game').innerHTML = allGames().map((g) => `<option value="${esc(g.id)}">${esc(g.name)}</option>`).join('');
    const game = query.get('game') ?? allGames()[0]?.id;
    setUp(game, query.get('fen') ?? '');
  })();
  document.title = 'Analysis board · Ataxx';
  return () => { alive = false; };
}

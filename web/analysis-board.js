// The analysis board (#/analysis?game=<id>&fen=<FEN>): a position of any game, from its start,
// a blocked layout (a Blocks-Config code or mask, GET /api/layout), a FEN typed in, a square
// Ataxx game pasted as PGN or a 1995 record (POST /api/rules/ataxx/import, then its moves
// replayed), or a finished game's page ("Analyse from here"), where moves are made for
// both sides. The server says what is legal and what a move does (GET /api/rules/{game}), the
// engine's best three lines for the position shown, live as its search deepens (`analyse` on a
// WebSocket of the page's own, /api/ws: closing it when the page goes stops the search), and the
// moves played from it in the site's finished games (GET /api/explorer). Clicks are read as on
// the game page (game-input.js); a click on an explorer or engine move plays it.

import { api, esc, LiveSocket } from './api.js';
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

/** A line's score for the side to move: pieces (Ankor: cubes), or a forced end in plies. */
function engineScore(line) {
  if (line.win_in != null) return line.win_in > 0 ? `wins in ${line.win_in}` : `loses in ${-line.win_in}`;
  return `${line.score > 0 ? '+' : ''}${line.score.toFixed(2)}`;
}

/** The engine's lines at one depth as a table: a row per line, the best first. */
function engineTable(found, turn) {
  const rows = found.lines.map((line) => `<tr>
      <td><button type="button" class="link engine-move" data-move="${esc(line.move)}">${esc(line.move)}</button></td>
      <td>${esc(engineScore(line))}</td><td>${Math.round(100 * line.win_chance)}%</td>
      <td class="engine-line">${line.line.map(esc).join(' ')}</td></tr>`).join('');
  return `<table class="explorer-table engine-lines">
    <caption class="muted">Depth ${found.depth}, ${found.nodes.toLocaleString('en')} positions; scores for ${esc(turn.toUpperCase())}</caption>
    <thead><tr><th scope="col">Move</th><th scope="col">Score</th><th scope="col">Win chance</th><th scope="col">Line</th></tr></thead>
    <tbody>${rows}</tbody></table>`;
}

/** Why a live search ended, in words. */
const ENDED = {
  time: 'the time for one position is up',
  done: 'it searched as deep as it goes',
  replaced: 'your analysis moved to another page',
  stopped: 'it was stopped',
  game_over: 'the game is over in this position',
};

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
    // Blocked layouts are the square boards' (square Ataxx, four-player Ataxx).
    for (const id of ['#analysis-blocks-label', '#analysis-blocks-set']) $(id).hidden = !kind.layouts;
    $('#analysis-game').value = game;
    // The address names the position set up on, so it can be shared and reloaded.
    history.replaceState(null, '', `#/analysis?game=${game}&fen=${encodeURIComponent(state.fen)}`);
    board.notice('');
    changed();
  }

  /** Plays `text` from the position shown; `quiet` (a game being replayed) leaves the drawing
   * and the engine to the caller, once the last move is in. */
  async function play(text, { quiet = false } = {}) {
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
    if (!quiet) changed();
  }

  /** The start of `game` on a blocked layout (a Blocks-Config code or a mask). */
  async function setUpLayout(game, text) {
    if (!text) { board.notice('Give a Blocks-Config code or a mask first.', true); return; }
    try {
      const layout = await api(`/api/layout/${encodeURIComponent(text)}?game=${game}`);
      if (alive) await setUp(game, layout.fen);
    } catch (err) {
      board.notice(err.message, true);
    }
  }

  /** A pasted game: its start, then its moves, so that Take back steps through them. */
  async function importGame(text) {
    let game;
    try {
      game = await api('/api/rules/ataxx/import', { method: 'POST', text });
    } catch (err) {
      board.notice(err.message, true);
      return;
    }
    await setUp(game.game, game.start_fen);
    for (const move of game.moves) {
      if (!alive || board.game !== game.game) return;
      await play(move, { quiet: true });
    }
    changed();
    const who = [game.tags.Black, game.tags.White].filter(Boolean).join(' – ');
    board.notice(`Replayed ${game.moves.length} moves${who ? ` of ${who}` : ''} (${game.format === 'pgn' ? 'PGN' : '1995 record'}), ${game.result}.`);
  }

  /** The position changed: draw it, and ask the engine and the explorer about it. */
  function changed() {
    board.positions = [board.kind.parse(board.state().fen)];
    board.arrow = null;
    // Here and not in draw(), which each of the engine's depths calls: typing is not undone.
    $('#analysis-fen').value = board.state().fen;
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
    $('#analysis-line').textContent = board.played.join(' ') || '–';
    $('#analysis-back').disabled = board.states.length < 2;
    $('#analysis-pass').hidden = !board.legal().includes('0000');
    $('#analysis-turn').textContent = state.turn ? `${state.turn.toUpperCase()} to move` : `Game over: ${state.result ?? ''}`;
  }

  /**
   * The engine: one live search at a time, for the position shown. `asked` is the last request
   * (its id and position); `fen` the position the server searches for it, as it wrote it back.
   * Messages of an older request are dropped.
   */
  const engine = { asked: null, fen: null, ids: 0, lines: null };
  const socket = new LiveSocket(() => '/api/ws', {
    onMessage: heard,
    // A new connection has no search: ask again.
    onStatus: (status) => { if (status === 'live' && engine.asked) socket.send(engine.asked.message); },
  });

  /** Asks the engine about `state` (nothing, once the game is over there). */
  function analyse(state) {
    // The same position again (a move refused): its search goes on.
    if (engine.asked?.state === state) return;
    engine.fen = null;
    engine.lines = null;
    $('#engine-lines').innerHTML = '';
    if (!state.turn) {
      engine.asked = null;
      socket.send({ type: 'analyse_stop' });
      $('#engine').textContent = 'The game is over in this position.';
      return;
    }
    engine.ids += 1;
    const message = { type: 'analyse', id: engine.ids, game: board.game, fen: state.fen };
    engine.asked = { id: engine.ids, state, message };
    $('#engine').textContent = 'The engine is thinking…';
    socket.send(message);
  }

  /** A message of the page's socket. */
  function heard(message) {
    if (!alive || !engine.asked) return;
    const { type } = message;
    if ((type === 'analysis_started' || type === 'error') && message.id !== engine.asked.id) return;
    if (type === 'analysis_started') engine.fen = message.fen;
    else if (type === 'error') $('#engine').textContent = message.message;
    else if (type === 'analysis_lines' && message.fen === engine.fen) showLines(message);
    else if (type === 'analysis_end' && message.fen === engine.fen && engine.fen) {
      const best = engine.lines?.lines[0];
      const summary = best ? `Best ${best.move}, ${engineScore(best)} at depth ${engine.lines.depth}. ` : '';
      $('#engine').textContent = `${summary}The search stopped: ${ENDED[message.reason] ?? message.reason}.`;
    }
  }

  /** The lines of a deeper search: the table, and the best move as an arrow on the board. */
  function showLines(found) {
    const first = !engine.lines;
    engine.lines = found;
    $('#engine-lines').innerHTML = engineTable(found, engine.asked.state.turn);
    // Said once per position: the table changes with every depth and is read when wanted.
    if (first) $('#engine').textContent = 'The engine is thinking; its best lines grow deeper below.';
    board.arrow = moveCells(found.lines[0]?.move);
    draw();
  }

  /** Asks the engine and the explorer about `state`; answers for a position left are dropped. */
  async function ask(state) {
    const current = () => alive && board.state() === state;
    analyse(state);
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
  $('#analysis-blocks-set').addEventListener('click', () => setUpLayout($('#analysis-game').value, $('#analysis-blocks').value.trim()));
  $('#analysis-import').addEventListener('submit', (event) => {
    event.preventDefault();
    importGame($('#analysis-import-text').value);
  });
  $('#analysis-back').addEventListener('click', () => {
    if (board.states.length < 2) return;
    board.states.pop();
    board.played.pop();
    changed();
  });
  $('#analysis-pass').addEventListener('click', () => play('0000'));
  for (const list of ['#explorer', '#engine-lines']) {
    $(list).addEventListener('click', (event) => {
      const button = event.target.closest('[data-move]');
      if (button) play(button.dataset.move);
    });
  }

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
  return () => {
    alive = false;
    // The server stops the search when its socket closes.
    socket.close();
  };
}

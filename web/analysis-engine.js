// The analysis board's engine: its best three lines for the position shown, live as its search
// deepens (`analyse` on a WebSocket of the page's own, /api/ws: closing it when the page goes
// stops the search); the best move is drawn as an arrow, and a click on a line's move plays it.

import { esc, LiveSocket } from './api.js';
import { moveCells } from './position.js';

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

/**
 * The engine of `board`: one live search at a time, for the position shown. `asked` is the last
 * request (its id and position); `fen` the position the server searches for it, as it wrote it
 * back. Messages of an older request are dropped. Returns `analyse(state)` and `close()`.
 */
export function attachEngine(board) {
  const { $ } = board;
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
    if (board.closed || !engine.asked) return;
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
    board.draw();
  }

  // The server stops the search when its socket closes.
  return { analyse, close: () => socket.close() };
}

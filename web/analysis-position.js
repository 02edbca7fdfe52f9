// The analysis board's position: set up from a game's start, a FEN typed in, a blocked layout
// (a Blocks-Config code or mask, GET /api/layout) or a square Ataxx game pasted as PGN or a 1995
// record (POST /api/rules/ataxx/import, then its moves replayed); moves made for both sides
// from it. The server says what is legal and what a move does (GET /api/rules/{game}).

import { api } from './api.js';
import { gameOf } from './kinds.js';
import { clickSquare } from './game-input.js';

/** Sets the board up on `fen` of `game` (its start when empty). */
export async function setUp(board, game, fen) {
  const { $ } = board;
  const kind = gameOf(game);
  if (!kind) { board.notice(`This server has no game named ${game}.`, true); return; }
  let state;
  try {
    state = await api(`/api/rules/${game}${fen ? `?fen=${encodeURIComponent(fen)}` : ''}`);
  } catch (err) {
    board.notice(err.message, true);
    return;
  }
  if (board.closed) return;
  if (board.kind !== kind) board.boardView = new kind.Board($('#board'), { onSquare: (sq) => clickSquare(board, sq) });
  Object.assign(board, { kind, game, states: [state], played: [], selected: null });
  // Blocked layouts are the square boards' (square Ataxx, four-player Ataxx).
  for (const id of ['#analysis-blocks-label', '#analysis-blocks-set']) $(id).hidden = !kind.layouts;
  $('#analysis-game').value = game;
  // The address names the position set up on, so it can be shared and reloaded.
  history.replaceState(null, '', `#/analysis?game=${game}&fen=${encodeURIComponent(state.fen)}`);
  board.notice('');
  board.changed();
}

/**
 * Plays `text` from the position shown; `quiet` (a game being replayed) leaves the drawing
 * and the engine to the caller, once the last move is in.
 */
export async function play(board, text, { quiet = false } = {}) {
  board.selected = null;
  try {
    const after = await api(`/api/rules/${board.game}?fen=${encodeURIComponent(board.state().fen)}&move=${encodeURIComponent(text)}`);
    if (board.closed) return;
    board.states.push(after);
    board.played.push(after.played.move);
    board.notice('');
  } catch (err) {
    board.notice(err.message, true);
  }
  if (!quiet) board.changed();
}

/** Take back: the position before the last move. */
export function takeBack(board) {
  if (board.states.length < 2) return;
  board.states.pop();
  board.played.pop();
  board.changed();
}

/** The start of `game` on a blocked layout (a Blocks-Config code or a mask). */
export async function setUpLayout(board, game, text) {
  if (!text) { board.notice('Give a Blocks-Config code or a mask first.', true); return; }
  try {
    const layout = await api(`/api/layout/${encodeURIComponent(text)}?game=${game}`);
    if (!board.closed) await setUp(board, game, layout.fen);
  } catch (err) {
    board.notice(err.message, true);
  }
}

/** A pasted game: its start, then its moves, so that Take back steps through them. */
export async function importGame(board, text) {
  let game;
  try {
    game = await api('/api/rules/ataxx/import', { method: 'POST', text });
  } catch (err) {
    board.notice(err.message, true);
    return;
  }
  await setUp(board, game.game, game.start_fen);
  for (const move of game.moves) {
    if (board.closed || board.game !== game.game) return;
    await play(board, move, { quiet: true });
  }
  board.changed();
  const who = [game.tags.Black, game.tags.White].filter(Boolean).join(' – ');
  board.notice(`Replayed ${game.moves.length} moves${who ? ` of ${who}` : ''} (${game.format === 'pgn' ? 'PGN' : '1995 record'}), ${game.result}.`);
}

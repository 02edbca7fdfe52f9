// A game page: the live board, clocks, moves, proposals, chat, replay and analysis. This module
// holds the page's state, takes each new state of the game from the server and draws it; the
// game-*.js modules each do one part: the layout, the player bars and clocks, the status, the
// move list and replay, the chat, clicks on the board and premoves, the other actions, and the
// live stream. The rules stay on the server, which sends the legal moves and the position after
// every ply; the game's descriptor (kinds.js) says how to draw and read its boards.

import { announce, moveWords } from './announce.js';
import { attachKeyboard } from './keyboard.js';
import { gameOf } from './kinds.js';
import { setPageTitle } from './notify.js';
import { moveCells } from './position.js';
import { premoveTargets, showPremove } from './premove.js';
import { NextStep } from './rematch.js';
import { soundForMoves, sounds } from './sound.js';
import { attachActions, move, send } from './game-actions.js';
import { attachChat } from './game-chat.js';
import { clickSquare, playPremove, targetsOf } from './game-input.js';
import { gameLayout } from './game-layout.js';
import { followGame } from './game-live.js';
import { attachReplay, drawMoves } from './game-moves.js';
import { attachReview, bestArrow, drawReview } from './game-review.js';
import { Clocks, drawPlayers } from './game-players.js';
import { drawStatus, statusText } from './game-status.js';

/** Cells a move turned to the mover's colour, with their colour before: [[cell, letter]]. */
function flippedBy(kind, before, after, to) {
  const old = new Map(kind.cells(before));
  const mover = new Map(kind.cells(after)).get(to);
  return kind.cells(after)
    .filter(([cell, c]) => cell !== to && c === mover && old.get(cell) && old.get(cell) !== '-' && old.get(cell) !== mover)
    .map(([cell]) => [cell, old.get(cell)]);
}

/** A new state of the game from the server: taken in, said and sounded (`animate`: seen live), drawn. */
function setView(page, next, animate) {
  const { $, me } = page;
  const before = page.view ? page.view.moves.length : Infinity;
  const wasActive = page.view?.status === 'active';
  const view = next;
  page.view = view;
  if (page.kind !== gameOf(view.game)) {
    const kind = gameOf(view.game);
    page.kind = kind;
    page.boardView = new kind.Board($('#board'), { onSquare: (sq) => clickSquare(page, sq) });
    $('#move-input').placeholder = `Type a move: ${kind.example}`;
    // Ankor's cubes are drawn in perspective: upside down they would read wrong.
    $('#flip').hidden = !!kind.cubes;
    for (const link of ['#pgn', '#record']) $(link).download = $(link).download.replace(/^[a-z0-9]+-/, `${view.game}-`);
  }
  const { kind } = page;
  page.positions = [view.start_fen, ...view.moves.map((m) => m.fen)].map(kind.parse);
  if (animate && view.moves.length > before) {
    const fresh = view.moves.slice(before);
    for (const m of fresh) announce(moveWords(m, view.seats, me));
    soundForMoves(fresh);
  }
  page.clocks.set(view.clock);
  if (page.viewPly !== null && page.viewPly > view.moves.length) page.viewPly = null;
  // A picked piece stays picked through updates that leave the board as it was (a chat line,
  // a proposal, a snapshot after a reconnect); a move or the end lets go of it.
  if (view.moves.length !== before || view.status !== 'active') page.selected = null;
  page.animation = null;
  if (view.moves.length !== before) page.notice('');
  // An analysis is of the position it was asked for: a move or an undo ends it.
  if (view.moves.length !== before || view.status === 'active') dropAnalysis(page);
  if (animate && page.viewPly === null && view.moves.length > before) {
    // Animate the last real move (the passes after it change nothing on the board).
    let i = view.moves.length - 1;
    while (i > 0 && view.moves[i].auto) i--;
    const mv = moveCells(view.moves[i].move);
    if (mv) page.animation = { from: mv.from, to: mv.to, flipped: kind.cubes ? [] : flippedBy(kind, page.positions[i], page.positions[i + 1], mv.to) };
  }
  page.reviewView(view);
  draw(page);
  playPremove(page);
  // The end seen live (whichever event brought it): said, and sounded.
  if (wasActive && view.status === 'finished') {
    announce(statusText(page));
    sounds.end();
  }
}

/** The analysis's best move is of the position it was asked for. */
function dropAnalysis(page) {
  page.hint = null;
  page.$('#analysis').textContent = '';
}

/** Draws the page for the position shown: the board and its marks, the bars, status, moves, review and actions. */
function draw(page) {
  const { $, board, me, view, kind, selected } = page;
  if (!view) return;
  const ply = page.shown();
  // No engine help in a game in play, to its players or its spectators: analysis opens at
  // the end (the server refuses it too).
  $('#analyse').hidden = !kind.analysis || view.status === 'active';
  if (page.hint && page.hint.ply !== ply) dropAnalysis(page);
  const { hint } = page;
  const pos = page.positions[ply];
  const last = ply > 0 ? moveCells(view.moves[ply - 1].move) : null;
  const marks = { selected, lastFrom: last?.from, lastTo: last?.to, hintFrom: hint?.from, hintTo: hint?.to, arrow: bestArrow(page, moveCells) };
  if (selected) Object.assign(marks, page.myTurn() ? targetsOf(page, selected) : premoveTargets(kind, pos, selected));
  if (kind.cubes) {
    // Holes a cube may be placed on; at the end, the winning group.
    marks.places = selected ? [] : page.legal().filter((m) => !m.includes('-') && m !== 'swap' && m !== '0000');
    if (ply === view.moves.length) marks.path = view.winning_path ?? [];
  }
  page.boardView.render(pos, marks, page.animation);
  showPremove($('#board'), page.premove);
  page.animation = null;
  drawPlayers(page, pos);
  drawStatus(page);
  drawMoves(page);
  drawReview(page);
  $('#ply-label').textContent = `${ply} / ${view.moves.length}`;
  $('#image-svg').href = `/board/${board}.svg?ply=${ply}`;
  // The analysis board takes the position shown, once the game is over (no help in play).
  $('#analyse-from-here').hidden = view.status !== 'finished';
  $('#analyse-from-here').href = `#/analysis?game=${view.game}&fen=${encodeURIComponent([view.start_fen, ...view.moves.map((m) => m.fen)][ply])}`;
  $('#image-png').href = `/board/${board}.png?ply=${ply}`;
  const playing = page.mySeat() !== null && view.status === 'active';
  // Finished games and spectators have no use for them: hidden, not greyed out.
  for (const id of ['#resign', '#undo', '#draw']) Object.assign($(id), { hidden: !playing, disabled: !!view.proposal });
  // Proposals are for two-player games, against someone who may accept them.
  const declined = view.seats.length > 2 || view.seats.some((s) => s.name !== me && s.declines_proposals);
  for (const id of ['#undo', '#draw']) if (declined) $(id).hidden = true;
  page.nextStep.update(view);
  $('#swap').hidden = !page.legal().includes('swap');
  $('#move-form').hidden = !playing;
  $('#chat-form').hidden = !me;
  setPageTitle(page.myTurn() ? `Your move · board ${board} · ${kind.name}` : `Board ${board} · ${kind.name}`,
    view.status === 'active' ? view.turn : null, page.myTurn());
}

/** A line under the status: a refused move, a rejected offer, a waiting premove. */
function notice(page, text, refused = false) {
  const { $ } = page;
  $('#notice').textContent = text;
  if (!refused) return;
  const box = $('#board');
  box.classList.remove('refused');
  void box.offsetWidth; // restarts the animation
  box.classList.add('refused');
}

export function mountGame(root, { me, toast }, board) {
  root.innerHTML = gameLayout(board);
  const $ = (sel) => root.querySelector(sel);
  /** The page's state, which the game-*.js parts read and change. */
  const page = {
    root, $, board, me, toast,
    view: null, // the game as the server last sent it
    positions: [], // the positions of the game, parsed, from the start
    viewPly: null, // null: follow the game; else the number of moves shown
    selected: null, // the cell of the piece picked
    hint: null, // the analysis's best move: {from, to, ply} (the position it was asked for)
    premove: null, // a live game's move chosen before my turn: {text, from, to}
    animation: null, // the move to animate at the next drawing
    kind: null, // the game's descriptor (kinds.js)
    boardView: null,
    closed: false,
    shown: () => (page.viewPly === null ? page.positions.length - 1 : page.viewPly),
    /** My seat ({seat, name, letter, ...}), or undefined when I watch. */
    mine: () => page.view?.seats.find((s) => s.name === me),
    mySeat: () => page.mine()?.letter ?? null,
    myTurn: () => page.view && page.view.status === 'active' && page.view.to_move === me && page.viewPly === null,
    /** The legal moves, shown and played only on the latest position on my turn. */
    legal: () => (page.myTurn() ? page.view.legal_moves ?? [] : []),
    setView: (next, animate) => setView(page, next, animate),
    draw: () => draw(page),
    notice: (text, refused) => notice(page, text, refused),
    send: (word) => send(page, word),
    move: (text) => move(page, text),
    load: () => live.load(),
    reviewView: (view) => review.onView(view),
    reviewEvent: (event) => review.onEvent(event),
  };
  page.clocks = new Clocks(page);
  const detachKeyboard = attachKeyboard($('#board'));
  page.nextStep = new NextStep($('#next-step'), { me, toast });

  const review = attachReview(page);
  attachActions(page);
  attachChat(page);
  const detachReplay = attachReplay(page);
  const live = followGame(page);
  const ticker = setInterval(() => page.clocks.tick(), 250);

  return () => {
    page.closed = true;
    clearInterval(ticker);
    live.close();
    page.nextStep.close();
    detachReplay();
    detachKeyboard();
    setPageTitle('Ataxx');
  };
}

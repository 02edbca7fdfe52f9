// The lobby's lists of my games: challenges to answer (or withdraw), my games in play (my turn
// first) and the last finished ones.

import { api, esc, timeAgo, unreachable } from './api.js';

const seatOf = (game, me) => (game.x === me ? 'x' : 'o');
const opponentOf = (game, me) => (game.x === me ? game.o : game.x);

function gameRow(g, me, cls, note) {
  const score = `<span class="score"><span class="dot x"></span>${g.x_pieces} <span class="dot o"></span>${g.o_pieces}</span>`;
  return `<li data-board="${g.board}" class="${cls}"><a href="#/game/${g.board}">
      <span class="who">vs <strong>${esc(opponentOf(g, me))}</strong> <span class="muted">as ${seatOf(g, me)}</span></span>
      ${score}<span class="turn">${note}</span></a></li>`;
}

/** A challenge: mine waits for the others (Withdraw); another's I accept or decline. */
function challengeRow(g, me) {
  const mine = g.accepted[seatOf(g, me)];
  const clock = g.clock ? `${g.clock.initial_ms / 60000}+${g.clock.increment_ms / 1000}` : 'correspondence';
  const details = `<span class="muted">${esc(clock)}${g.blocks && g.blocks !== '0' ? `, blocks ${esc(g.blocks)}` : ''}</span>`;
  return mine
    ? `<li data-board="${g.board}"><span class="who">waiting for <strong>${esc(opponentOf(g, me))}</strong> ${details}</span>
         <button type="button" class="small" data-act="withdraw">Withdraw</button></li>`
    : `<li data-board="${g.board}" class="incoming"><span class="who"><strong>${esc(opponentOf(g, me))}</strong> challenges you (you play ${seatOf(g, me)}) ${details}</span>
         <span><button type="button" class="small primary" data-act="accept">Accept</button>
         <button type="button" class="small" data-act="decline">Decline</button></span></li>`;
}

function finishedRow(g, me) {
  const outcome = g.winner === me ? 'won' : g.winner ? 'lost' : 'draw';
  const how = g.termination && g.termination !== 'rules' ? ` (${esc(g.termination)})` : '';
  return gameRow(g, me, outcome, `${timeAgo(g.finished_ms)}, ${outcome}${how}`);
}

/** Loads and draws the lists; false when the server is away. */
export async function refreshLists(lobby) {
  const { $, me } = lobby;
  let open;
  let finished;
  try {
    [open, finished] = await Promise.all([
      api(`/api/games?player=${encodeURIComponent(me)}&status=challenge,active`),
      api(`/api/games?player=${encodeURIComponent(me)}&status=finished&limit=12`),
    ]);
  } catch (err) {
    // Unreachable: the lobby's retry says so once, rather than a toast for every try.
    if (unreachable(err)) return false;
    lobby.toast(err.message, 'error');
    return true;
  }
  if (lobby.closed) return true;
  const challenges = open.filter((g) => g.status === 'challenge');
  const active = open.filter((g) => g.status === 'active')
    .sort((a, b) => (b.to_move === me) - (a.to_move === me));
  $('#challenges').innerHTML = challenges.map((g) => challengeRow(g, me)).join('') || '<li class="empty">No challenges.</li>';
  $('#my-games').innerHTML = active.map((g) => (g.to_move === me
    ? gameRow(g, me, 'my-turn', 'your move')
    : gameRow(g, me, '', `${esc(g.to_move)} to move`))).join('')
    || '<li class="empty">No games in play. Start one!</li>';
  $('#finished').innerHTML = finished.map((g) => finishedRow(g, me)).join('') || '<li class="empty">No finished games yet.</li>';
  return true;
}

/** The challenges' buttons: an accepted game opens; a withdrawn or declined one leaves the list. */
export function attachChallenges(lobby) {
  lobby.$('#challenges').addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-act]');
    if (!button) return;
    const board = button.closest('[data-board]').dataset.board;
    try {
      await api(`/api/games/${board}/${button.dataset.act}`, { method: 'POST' });
      if (button.dataset.act === 'accept') location.hash = `#/game/${board}`;
      else lobby.refresh();
    } catch (err) {
      lobby.toast(err.message, 'error');
    }
  });
}

// The game page's move list and replay: the moves in one column per seat, and stepping back
// and forth through the positions (buttons, a click on a move, the arrow keys, Home and End).

import { esc } from './api.js';
import { MARKS, markOf } from './game-review.js';

/** The moves in one column per seat, a row per round. */
export function drawMoves(page) {
  const { view, kind, $ } = page;
  const rows = [];
  let row = null;
  let lastSeat = Infinity;
  view.moves.forEach((m, i) => {
    if (!row || m.seat <= lastSeat) rows.push(row = view.seats.map(() => '<td></td>'));
    lastSeat = m.seat;
    const text = m.auto ? 'pass' : m.move;
    const judged = markOf(page, i + 1);
    const title = `${m.auto ? 'forced pass' : `${m.flips} flipped`}${judged ? `, ${judged}` : ''}`;
    row[m.seat] = `<td class="mv ${m.auto ? 'auto' : ''} ${page.shown() === i + 1 ? 'current' : ''}" data-ply="${i + 1}" title="${title}">
      ${esc(text)}${judged ? `<span class="judged ${judged}">${MARKS[judged]}</span>` : ''}${m.auto || kind.cubes ? '' : `<sup>${m.flips ? `+${m.flips}` : ''}</sup>`}</td>`;
  });
  // Ankor's swap exchanges who sits where, so its columns are the colours, not the players.
  const head = view.seats.map((s) => `<th><span class="dot ${s.letter}"></span> ${kind.cubes ? s.letter.toUpperCase() : esc(s.name)}</th>`).join('');
  $('#moves').innerHTML = `<thead><tr><th></th>${head}</tr></thead><tbody>${rows.map((r, i) => `<tr><th>${i + 1}</th>${r.join('')}</tr>`).join('')}</tbody>`;
  // Follow the game in the list's own scroll area (never the page's).
  if (page.viewPly === null) $('.moves-box').scrollTop = $('.moves-box').scrollHeight;
}

/** Wires the replay buttons, the move list and the keys; returns what lets go of the keys. */
export function attachReplay(page) {
  const { root, $ } = page;
  function step(where) {
    if (!page.view) return;
    const last = page.view.moves.length;
    const current = page.shown();
    const target = { start: 0, back: Math.max(0, current - 1), forward: Math.min(last, current + 1), end: last }[where];
    page.viewPly = target === last ? null : target;
    page.selected = null;
    page.draw();
  }
  root.querySelector('.replay').addEventListener('click', (event) => {
    const button = event.target.closest('button[data-step]');
    if (button) step(button.dataset.step);
  });
  $('#moves').addEventListener('click', (event) => {
    const cell = event.target.closest('[data-ply]');
    if (!cell) return;
    const ply = Number(cell.dataset.ply);
    page.viewPly = ply === page.view.moves.length ? null : ply;
    page.draw();
  });
  const onKey = (event) => {
    if (event.target.closest('input, textarea, select')) return;
    const where = { ArrowLeft: 'back', ArrowRight: 'forward', Home: 'start', End: 'end' }[event.key];
    if (where) { event.preventDefault(); step(where); }
    if (event.key === 'Escape' && page.selected) { page.selected = null; page.draw(); }
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}

// What a player does on the game page besides clicking the board: a typed move, resigning
// (asked twice), proposals and their answers, the swap, flipping the board, and the analysis of
// the position shown. Every move and answer goes to the server, whose stream brings the change.

import { api, esc } from './api.js';
import { moveCells } from './position.js';

/** Sends a move or a proposal's word; says whether the server took it. */
export async function send(page, word) {
  const { version } = page.view;
  try {
    await api(`/api/games/${page.board}/move`, { method: 'POST', body: { move: word, guard: page.view.ply + 1 } });
    // The socket brings the change; if it has not within a moment, fetch the board.
    setTimeout(() => { if (!page.closed && page.view.version === version) page.load(); }, 1500);
    return true;
  } catch (err) {
    page.toast(err.message, 'error');
    page.notice(err.message, true);
    if (err.code === 'stale_move_number') page.load();
    return false;
  }
}

/** Plays a move chosen on the board, letting go of the pick and the hint. */
export async function move(page, text) {
  page.selected = null;
  page.hint = null;
  page.notice('');
  page.$('#analysis').textContent = '';
  page.draw();
  await send(page, text);
}

export function attachActions(page) {
  const { root, $ } = page;
  $('#move-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = $('#move-input');
    const text = input.value.trim();
    if (!text) return;
    if (await send(page, text)) input.value = '';
  });

  // Resigning asks once more on the button itself.
  let resignArmed = null;
  $('#resign').addEventListener('click', async () => {
    const button = $('#resign');
    if (!resignArmed) {
      button.textContent = 'Really resign?';
      resignArmed = setTimeout(() => { resignArmed = null; button.textContent = 'Resign'; }, 4000);
      return;
    }
    clearTimeout(resignArmed);
    resignArmed = null;
    button.textContent = 'Resign';
    await send(page, 'resign');
  });
  $('#undo').addEventListener('click', () => send(page, 'undo'));
  $('#draw').addEventListener('click', () => send(page, 'propose'));
  $('#swap').addEventListener('click', () => move(page, 'swap'));
  $('#flip').addEventListener('click', () => {
    const flipped = root.querySelector('.board-col').classList.toggle('flipped');
    $('#flip').setAttribute('aria-pressed', String(flipped));
  });
  $('#proposal').addEventListener('click', async (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    if (button.dataset.word) send(page, button.dataset.word);
    if (button.dataset.answer) {
      try { await api(`/api/games/${page.board}/${button.dataset.answer}`, { method: 'POST' }); } catch (err) { page.toast(err.message, 'error'); }
    }
  });

  $('#analyse').addEventListener('click', async () => {
    const out = $('#analysis');
    const { view } = page;
    out.textContent = 'Thinking…';
    try {
      const result = await api(`/api/analysis?fen=${encodeURIComponent([view.start_fen, ...view.moves.map((m) => m.fen)][page.shown()])}`);
      if (!result.best) { out.textContent = 'The game is over in this position.'; return; }
      if (result.best === '0000') { out.textContent = `${result.turn} has no move and must pass.`; return; }
      const score = result.outcome ? `${result.turn} ${result.outcome === 'win' ? 'wins' : 'loses'} with best play`
        : `${result.score >= 0 ? '+' : ''}${result.score.toFixed(1)} pieces for ${result.turn}`;
      out.innerHTML = `Best for ${result.turn}: <strong id="best-move">${esc(result.best)}</strong>, ${esc(score)} <span class="muted">(${esc(result.analyser)})</span>`;
      const mv = moveCells(result.best);
      page.hint = { from: mv.from, to: mv.to, ply: page.shown() };
      page.draw();
    } catch (err) {
      out.textContent = err.message;
    }
  });
}

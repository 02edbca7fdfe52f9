// The lobby's blocked-layout picker: a mini board whose clicks block a square and its mirror
// images, and a field that takes a Blocks-Config code or a mask; the server's answer
// (GET /api/layout) shows the layout's code, canonical twin, mask, count and start position.

import { api, unreachable } from './api.js';
import { Board } from './board.js';
import { gameOf } from './kinds.js';
import { parseFen, parseSquare } from './position.js';

/** The wall-mask bit of a square: its mirror image in the top-left quarter (blocks.md). */
function maskBit(name) {
  const [f, r] = parseSquare(name);
  const row = Math.min(6 - r, r);
  const column = Math.min(f, 6 - f);
  return 4 * row + column;
}

/** The server's answer about a layout, shown beside the picker. */
function showLayout(lobby, layout) {
  const { $ } = lobby;
  lobby.mask = parseInt(layout.mask, 16);
  $('#layout-code').textContent = layout.code;
  $('#layout-canonical').textContent = layout.canonical === layout.code
    ? layout.canonical : `${layout.canonical} (its mirror twin)`;
  $('#layout-mask').textContent = layout.mask;
  $('#layout-count').textContent = layout.blocks;
  $('#layout-fen').textContent = layout.fen;
}

/**
 * Wires the picker and its field; returns `preview(text)`, which shows the layout `text` names
 * (answering false when the server is away), the answers of older previews dropped.
 */
export function attachBlocks(lobby) {
  const { $, form } = lobby;
  const picker = new Board($('#blocks-board'), {
    coordinates: false,
    onSquare: (sq) => {
      const bit = maskBit(sq);
      if (bit === 0) {
        $('#blocks-error').textContent = 'The corners stay free: the players start there.';
        return;
      }
      lobby.mask ^= 1 << bit;
      const text = `0x${lobby.mask.toString(16).toUpperCase().padStart(4, '0')}`;
      form.blocks.value = text;
      preview(text);
    },
  });
  let asked = 0;
  async function preview(text) {
    const ticket = ++asked;
    const error = $('#blocks-error');
    const value = text.trim() || '0';
    try {
      // The chosen game's start on that layout: four players in the corners for four-player Ataxx.
      const game = gameOf(form.game.value)?.layouts ? form.game.value : 'ataxx';
      const layout = await api(`/api/layout/${encodeURIComponent(value)}?game=${game}`);
      if (ticket !== asked) return;
      error.textContent = '';
      showLayout(lobby, layout);
      picker.render(parseFen(layout.fen));
    } catch (err) {
      if (ticket === asked) error.textContent = err.message;
      return !unreachable(err);
    }
    return true;
  }
  form.blocks.addEventListener('input', () => preview(form.blocks.value));
  $('#blocks-clear').addEventListener('click', () => { form.blocks.value = ''; preview(''); });
  return preview;
}

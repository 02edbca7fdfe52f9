// The analysis board's explorer: the moves played from the position shown in the site's finished
// games (GET /api/explorer), a row per move with its share of wins; a click on one plays it.

import { api, esc } from './api.js';

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

/** Asks the explorer about `state`; the answer for a position left is dropped. */
export async function explore(board, state) {
  const { $ } = board;
  const current = () => !board.closed && board.state() === state;
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

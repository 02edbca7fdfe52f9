// The lobby's people: who is online (the lobby's heartbeat, POST /api/presence, answers the list;
// a click challenges one of them) and the bots (GET /api/bots, also the form's level menu).

import { api, esc, unreachable } from './api.js';
import { challengePerson, showBotChoices } from './lobby-form.js';

/** Says that I am here and shows who else is; false when the server is away. */
export async function heartbeat(lobby) {
  const { $, me } = lobby;
  try {
    const { online } = await api('/api/presence', { method: 'POST' });
    if (lobby.closed) return;
    const others = online.filter((u) => u !== me);
    $('#online').innerHTML = others.map((u) => `<li><a href="#/user/${esc(u)}">${esc(u)}</a>
      <button type="button" class="small" data-user="${esc(u)}">Challenge</button></li>`).join('')
      || '<li class="empty">Nobody else right now.</li>';
    $('#people').innerHTML = others.map((u) => `<option value="${esc(u)}">`).join('');
    return true;
  } catch (err) {
    return !unreachable(err); // shown again at the next beat
  }
}

/** Loads the bots into their list and the level menu; false when the server is away. */
export async function loadBots(lobby) {
  try {
    lobby.bots = await api('/api/bots');
  } catch (err) {
    return !unreachable(err);
  }
  if (lobby.closed) return; // the page was left meanwhile
  showBotChoices(lobby);
  lobby.$('#bots').innerHTML = lobby.bots.map((b) => `<li><a href="#/user/${esc(b.userid)}">${esc(b.level)}</a> <span class="muted">${esc(b.rating_text)}</span></li>`).join('');
  return true;
}

/** A click on Challenge beside someone online fills the form in for them. */
export function attachOnline(lobby) {
  lobby.$('#online').addEventListener('click', (event) => {
    const button = event.target.closest('button[data-user]');
    if (button) challengePerson(lobby, button.dataset.user);
  });
}

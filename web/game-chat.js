// The game page's chat: the players' lines and the spectators' apart (the players do not see
// the spectators' while they play), none from a user the reader blocked; a line's author can be
// blocked or reported from it. The form is anyone's signed in: the server files a player's line
// with the players and anyone else's with the spectators.

import { api, esc } from './api.js';

const CHANNELS = [['#chat', 'players'], ['#spectator-chat', 'spectators']];

function line(page, c) {
  const actions = page.me && c.name !== page.me
    ? ` <span class="chat-actions"><button type="button" class="link" data-block="${esc(c.name)}" aria-label="Block ${esc(c.name)}">Block</button>
        <button type="button" class="link" data-report="${esc(c.name)}" aria-label="Report ${esc(c.name)}">Report</button></span>`
    : '';
  return `<li><strong>${esc(c.name)}</strong> ${esc(c.body)}${actions}</li>`;
}

export function drawChat(page) {
  const blocked = page.blocked ?? [];
  for (const [id, channel] of CHANNELS) {
    const lines = page.view.chat.filter((c) => (c.channel ?? 'players') === channel && !blocked.includes(c.name));
    const list = page.$(id);
    list.innerHTML = lines.map((c) => line(page, c)).join('') || '<li class="empty">No messages.</li>';
    list.scrollTop = list.scrollHeight;
  }
  page.$('#spectator-chat-box').hidden = page.mySeat() !== null && page.view.status === 'active';
  page.$('#chat-input').placeholder = page.mySeat() !== null ? 'Say something to the players' : 'Say something to the spectators';
}

async function block(page, name) {
  try {
    await api('/api/blocks', { method: 'POST', body: { user: name } });
    page.blocked = [...(page.blocked ?? []), name];
    drawChat(page);
    page.toast(`${name} is blocked: you see no chat of theirs and get no challenge from them.`);
  } catch (err) {
    page.toast(err.message, 'error');
  }
}

async function report(page, name) {
  const reason = prompt(`What did ${name} do? The moderators read your report.`);
  if (!reason?.trim()) return;
  try {
    await api('/api/reports', { method: 'POST', body: { user: name, board: page.board, reason } });
    page.toast(`Thank you: ${name} is reported to the moderators.`);
  } catch (err) {
    page.toast(err.message, 'error');
  }
}

export function attachChat(page) {
  if (page.me) {
    api('/api/blocks').then(({ blocked }) => {
      page.blocked = blocked;
      if (page.view) drawChat(page);
    }).catch(() => { /* no blocks known: every line shows */ });
  }
  page.$('.chat').addEventListener('click', (event) => {
    const button = event.target.closest('[data-block], [data-report]');
    if (button?.dataset.block) block(page, button.dataset.block);
    else if (button?.dataset.report) report(page, button.dataset.report);
  });
  page.$('#chat-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = page.$('#chat-input');
    const text = input.value.trim();
    if (!text) return;
    try {
      await api(`/api/games/${page.board}/chat`, { method: 'POST', body: { text } });
      input.value = '';
    } catch (err) {
      page.toast(err.message, 'error');
    }
  });
}

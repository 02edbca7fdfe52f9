// The game page's chat: the messages, and the form that sends one (shown to the players).

import { api, esc } from './api.js';

export function drawChat(page) {
  const chat = page.$('#chat');
  chat.innerHTML = page.view.chat.map((c) => `<li><strong>${esc(c.name)}</strong> ${esc(c.body)}</li>`).join('')
    || '<li class="empty">No messages.</li>';
  chat.scrollTop = chat.scrollHeight;
}

export function attachChat(page) {
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

// Your turn, wherever you are: the tab title and favicon show how many of your games and
// challenges wait for you and, on a game page, whose move it is; opt-in browser notifications tell of a
// correspondence opponent's move or a new challenge while the page is in the background. One
// socket on the signed-in user's event stream (/api/ws) feeds them on every page.

import { api, LiveSocket } from './api.js';

const KEY = 'notifications';
/** Piece colours of the classic style, by letter (the favicon has no style sheet). */
const COLOURS = { x: '#d1343e', o: '#2f6fd6', r: '#d1343e', b: '#2f6fd6', g: '#2e9a52', y: '#e0b21b' };

const state = { me: null, socket: null, waiting: 0, title: 'Ataxx', turn: null, mine: false };

/** The favicon as an SVG: the side to move as a big disc (ringed when it is yours), and the
 * number of games waiting for you in a badge. */
export function faviconSvg({ waiting, turn, mine }) {
  const disc = turn
    ? `<circle cx="14" cy="18" r="11" fill="${COLOURS[turn] ?? '#888'}"${mine ? ' stroke="#fff" stroke-width="3"' : ''}/>`
    : '<circle cx="10" cy="10" r="7" fill="#d1343e"/><circle cx="22" cy="22" r="7" fill="#2f6fd6"/><circle cx="22" cy="10" r="7" fill="#d1343e" opacity=".55"/>';
  const badge = waiting
    ? `<circle cx="23" cy="9" r="9" fill="#f4b400" stroke="#2b3a42" stroke-width="1.5"/><text x="23" y="13.5" font-family="sans-serif" font-size="${waiting > 9 ? 10 : 13}" font-weight="bold" text-anchor="middle" fill="#111">${waiting > 99 ? '99' : waiting}</text>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2b3a42"/>${disc}${badge}</svg>`;
}

function show() {
  document.title = state.waiting ? `(${state.waiting}) ${state.title}` : state.title;
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  link.type = 'image/svg+xml';
  link.href = `data:image/svg+xml,${encodeURIComponent(faviconSvg(state))}`;
  link.dataset.waiting = state.waiting;
  link.dataset.turn = state.turn ?? '';
}

/** A page sets its own title and, on a game, whose move it is (`turn` a letter, `mine` if it
 * is the reader's); the waiting count is put in front. */
export function setPageTitle(title, turn = null, mine = false) {
  Object.assign(state, { title, turn, mine });
  show();
}

async function countWaiting() {
  if (!state.me) { state.waiting = 0; show(); return; }
  try {
    // My move in a game, or a challenge to me that waits for my answer.
    const games = await api(`/api/games?player=${encodeURIComponent(state.me)}&status=challenge,active`);
    state.waiting = games.filter((game) => (game.status === 'active'
      ? game.to_move === state.me
      : game.seats.some((seat) => seat.name === state.me && !seat.accepted))).length;
    show();
  } catch { /* the next event or round tries again */ }
}

export const notificationsOn = () => localStorage.getItem(KEY) === 'on'
  && 'Notification' in window && Notification.permission === 'granted';

/** What an event on my stream should tell me while I look elsewhere, if anything. */
function noticeOf(event, me) {
  const game = event.game;
  if (!game) return null;
  const seat = game.seats?.find((s) => s.name === me);
  if (!seat) return null;
  if (event.type === 'challenge' && !seat.accepted) {
    const from = game.seats.filter((s) => s.accepted).map((s) => s.name).join(', ');
    return { title: `${from} challenges you`, body: `${game.game} on board ${game.board}` };
  }
  // Live games are played with the page in view; a correspondence move can come any time.
  if (event.type === 'moves' && !game.clock && game.status === 'active' && game.to_move === me) {
    const mover = event.moves?.filter((m) => !m.auto).map((m) => game.seats[m.seat]?.name).find((n) => n && n !== me);
    const played = event.moves?.filter((m) => !m.auto).map((m) => m.move).join(', ');
    return { title: `Your move on board ${game.board}`, body: `${mover ?? 'Your opponent'} played ${played}.` };
  }
  return null;
}

function notify(event) {
  if (document.visibilityState !== 'hidden' || !notificationsOn()) return;
  const notice = noticeOf(event, state.me);
  if (!notice) return;
  const note = new Notification(notice.title, { body: notice.body, tag: `board-${event.board}`, icon: '/static/favicon.svg' });
  note.onclick = () => {
    window.focus();
    location.hash = `#/game/${event.board}`;
    note.close();
  };
}

/** Follows `me`'s stream (null: nobody signed in). Called at start and after signing in or out. */
export function watchUser(me) {
  if (state.me === me && state.socket) return;
  state.socket?.close();
  state.socket = null;
  state.me = me;
  countWaiting();
  if (!me) return;
  let pending;
  state.socket = new LiveSocket(() => '/api/ws', {
    onMessage: (event) => {
      // The greeting and the answers to pings change no game.
      if (event.type === 'hello' || event.type === 'pong') return;
      notify(event);
      clearTimeout(pending);
      pending = setTimeout(countWaiting, 150);
    },
    onStatus: (status, { again } = {}) => { if (status === 'live' && again) countWaiting(); },
  });
}

/** The nav's checkbox for notifications; turning it on asks the browser's permission. */
export function notificationToggle(toast) {
  const label = document.createElement('label');
  label.className = 'style-toggle';
  label.title = 'Tell me of a correspondence move or a challenge while this page is in the background';
  label.innerHTML = `<input type="checkbox" id="notify-toggle" ${notificationsOn() ? 'checked' : ''}> Notifications`;
  const box = label.querySelector('input');
  box.addEventListener('change', async () => {
    if (!box.checked) { localStorage.setItem(KEY, 'off'); return; }
    if (!('Notification' in window)) {
      box.checked = false;
      toast('This browser cannot show notifications.', 'error');
      return;
    }
    const permission = await Notification.requestPermission();
    box.checked = permission === 'granted';
    localStorage.setItem(KEY, box.checked ? 'on' : 'off');
    if (!box.checked) toast('Notifications are blocked for this site in the browser settings.', 'error');
  });
  return label;
}

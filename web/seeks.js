// The seeks page (#/seeks): quick pairing (1+0, 3+2, 5+3, 10+5, correspondence: take the oldest
// matching seek or post one), the open seeks kept current by the lobby socket (take one,
// withdraw mine), and the form that posts a seek with every term. Anyone may read the list;
// taking and posting need an account. An open lobby socket is what keeps my live seeks open
// (the server withdraws them when my last page closes).

import { api, esc, LiveSocket } from './api.js';
import { CLOCKS, GAME_KINDS } from './lobby.js';

/** The quick-pairing buttons: their clock (null: correspondence) and label. */
const QUICK = [['1+0', 'Bullet'], ['3+2', 'Blitz'], ['5+3', 'Blitz'], ['10+5', 'Rapid'], [null, 'Days per move']];

/** Seeks are for two players: every game but four-player Ataxx. */
const SEEK_GAMES = GAME_KINDS.filter(([game]) => game !== 'ataxx4');

const gameTitle = (name) => GAME_KINDS.find(([g]) => g === name)?.[1] ?? name;

function seekRow(seek, me) {
  const mine = seek.owner === me;
  const range = seek.rating_min === null && seek.rating_max === null ? 'any'
    : `${seek.rating_min ?? '…'}–${seek.rating_max ?? '…'}`;
  const size = seek.size ? ` ${seek.size}` : '';
  const blocks = seek.blocks && seek.blocks !== '0' ? `, blocks ${esc(seek.blocks)}` : '';
  const action = mine
    ? '<button type="button" class="small" data-act="withdraw">Withdraw</button>'
    : me ? '<button type="button" class="small primary" data-act="accept">Play</button>'
      : '<a class="button small" href="#/login">Sign in to play</a>';
  return `<tr data-seek="${seek.id}" data-owner="${esc(seek.owner)}" class="${mine ? 'mine' : ''}">
    <td><a href="#/user/${encodeURIComponent(seek.owner)}">${esc(seek.owner)}</a> <span class="muted">${esc(seek.owner_rating)}</span></td>
    <td>${esc(gameTitle(seek.game))}${esc(size)}${blocks}</td>
    <td>${esc(seek.clock ?? 'correspondence')}</td>
    <td>${seek.rated ? 'rated' : 'casual'}</td>
    <td>${seek.color === 'random' ? 'either' : `plays ${esc(seek.color)}`}</td>
    <td>${esc(range)}</td>
    <td>${action}</td></tr>`;
}

export function mountSeeks(root, { me, toast }) {
  const signedOut = me ? '' : 'disabled title="Sign in to play"';
  root.innerHTML = `
    <div class="seeks-page">
      <section class="card">
        <h1>Quick pairing</h1>
        <p class="muted">Rated Ataxx on the 7×7 board: takes the first matching seek, or posts yours and waits.</p>
        <div class="quick-pairing" id="quick-pairing">
          ${QUICK.map(([clock, label]) => `<button type="button" class="quick" data-clock="${clock ?? ''}" ${signedOut}>
            <strong>${clock ?? 'Correspondence'}</strong><span class="muted">${label}</span></button>`).join('')}
        </div>
        <p id="pair-status" class="pair-status" role="status"></p>
        ${me ? '' : '<p><a href="#/login">Sign in or create an account</a> to play.</p>'}
      </section>
      <section class="card">
        <h2>Open seeks</h2>
        <table class="seeks" id="seek-table">
          <thead><tr><th>Player</th><th>Game</th><th>Time</th><th>Mode</th><th>Colour</th><th>Ratings</th><th></th></tr></thead>
          <tbody id="seek-list"></tbody>
        </table>
        <p class="muted" id="no-seeks">No open seeks. Post one!</p>
      </section>
      <section class="card">
        <h2>Post a seek</h2>
        <form id="seek-form" class="seek-form">
          <label>Game <select name="game">${SEEK_GAMES.map(([v, t]) => `<option value="${v}">${esc(t)}</option>`).join('')}</select></label>
          <label>Board <select name="size"></select></label>
          <label>Time <select name="clock">${CLOCKS.map(([v, t]) => `<option value="${v}">${esc(t)}</option>`).join('')}</select></label>
          <label><input type="checkbox" name="rated" checked> Rated</label>
          <label>You play <select name="color">
            <option value="random">either colour</option><option value="x">x, moves first</option><option value="o">o, moves second</option>
          </select></label>
          <label>Opponent rating from <input name="rating_min" type="number" step="50" min="0" max="4000" placeholder="any"></label>
          <label>to <input name="rating_max" type="number" step="50" min="0" max="4000" placeholder="any"></label>
          <button type="submit" class="primary" id="seek-submit" ${signedOut}>Post seek</button>
          <p class="error" id="seek-error" role="alert"></p>
        </form>
      </section>
    </div>`;
  const form = root.querySelector('#seek-form');
  const seeks = new Map();
  let closed = false;
  /** The quick-pairing seek I am waiting on: {id, clock}. */
  let waiting = null;

  const mine = () => [...seeks.values()].filter((s) => s.owner === me);

  function drawList() {
    const list = [...seeks.values()].sort((a, b) => a.created_ms - b.created_ms);
    root.querySelector('#seek-list').innerHTML = list.map((s) => seekRow(s, me)).join('');
    root.querySelector('#no-seeks').hidden = list.length > 0;
    if (waiting && !seeks.has(waiting.id)) setWaiting(null);
  }

  function setWaiting(next) {
    waiting = next;
    root.querySelectorAll('.quick').forEach((b) => b.setAttribute('aria-pressed', String(!!waiting && b.dataset.clock === waiting.clock)));
    root.querySelector('#pair-status').innerHTML = waiting
      ? `Waiting for an opponent for ${esc(waiting.clock || 'correspondence')}… <button type="button" class="small" id="pair-cancel">Cancel</button>`
      : '';
    root.querySelector('#pair-cancel')?.addEventListener('click', () => withdraw(waiting.id));
  }

  const showSizes = () => {
    const [, , sizes, label] = GAME_KINDS.find(([g]) => g === form.game.value);
    form.size.innerHTML = sizes.map((n) => `<option value="${n}">${label(n)}</option>`).join('');
  };
  form.game.addEventListener('change', showSizes);
  showSizes();

  async function reload() {
    try {
      const list = await api('/api/seeks');
      if (closed) return;
      seeks.clear();
      for (const s of list) seeks.set(s.id, s);
      drawList();
    } catch (err) {
      toast(err.message, 'error');
    }
  }

  async function withdraw(id) {
    try {
      await api(`/api/seeks/${id}`, { method: 'DELETE' });
      seeks.delete(id);
      drawList();
    } catch (err) {
      toast(err.message, 'error');
    }
  }

  const lobby = new LiveSocket(() => '/api/lobby/ws', {
    onMessage: (message) => {
      switch (message.type) {
        case 'lobby':
          seeks.clear();
          for (const s of message.seeks) seeks.set(s.id, s);
          drawList();
          break;
        case 'seek_added':
          seeks.set(message.seek.id, message.seek);
          drawList();
          break;
        case 'seek_removed':
          seeks.delete(message.id);
          drawList();
          break;
        case 'game_started':
          // Someone took one of my seeks: the game is on.
          if (me && (waiting || mine().length) && message.game.seats.some((s) => s.name === me)) {
            location.hash = `#/game/${message.game.board}`;
          }
          break;
        case 'resync':
          reload();
          break;
        default:
          break;
      }
    },
  });

  root.querySelector('#quick-pairing').addEventListener('click', async (event) => {
    const button = event.target.closest('.quick');
    if (!button || !me) return;
    const clock = button.dataset.clock || null;
    if (waiting) {
      // Another press of the same button cancels; another button moves my wait there.
      const same = waiting.clock === (clock ?? '');
      await withdraw(waiting.id);
      setWaiting(null);
      if (same) return;
    }
    try {
      const paired = await api('/api/seeks/pair', { method: 'POST', body: { game: 'ataxx', clock, rated: true, color: 'random' } });
      if (paired.game) location.hash = `#/game/${paired.game.board}`;
      else {
        seeks.set(paired.seek.id, paired.seek);
        drawList();
        setWaiting({ id: paired.seek.id, clock: clock ?? '' });
      }
    } catch (err) {
      toast(err.message, 'error');
    }
  });

  root.querySelector('#seek-list').addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-act]');
    if (!button) return;
    const id = Number(button.closest('[data-seek]').dataset.seek);
    if (button.dataset.act === 'withdraw') { withdraw(id); return; }
    try {
      const game = await api(`/api/seeks/${id}/accept`, { method: 'POST' });
      location.hash = `#/game/${game.board}`;
    } catch (err) {
      toast(err.message, 'error');
    }
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = root.querySelector('#seek-error');
    error.textContent = '';
    const [, , sizes] = GAME_KINDS.find(([g]) => g === form.game.value);
    const body = { game: form.game.value, clock: form.clock.value || null, rated: form.rated.checked, color: form.color.value };
    if (Number(form.size.value) !== sizes[0]) body.size = Number(form.size.value);
    for (const bound of ['rating_min', 'rating_max']) {
      if (form[bound].value.trim()) body[bound] = Number(form[bound].value);
    }
    try {
      const seek = await api('/api/seeks', { method: 'POST', body });
      seeks.set(seek.id, seek);
      drawList();
      toast(`Seek posted: ${seek.clock ?? 'correspondence'} ${gameTitle(seek.game)}.`);
    } catch (err) {
      error.textContent = err.message;
    }
  });

  drawList();
  return () => {
    closed = true;
    lobby.close();
  };
}

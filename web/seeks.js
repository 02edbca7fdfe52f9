// Seeks: quick pairing (1+0, 3+2, 5+3, 10+5, correspondence, in the game and mode chosen: take
// the oldest matching seek or post one), the open seeks kept current by the lobby socket (take
// one, withdraw mine), and the seeks page (#/seeks) that puts both above the form posting a seek
// with every term. The lobby shows the first two as well. Anyone may read the list; taking and
// posting need an account. An open lobby socket is what keeps my live seeks open (the server
// withdraws them when my last page closes).

import { api, ask, esc, LiveSocket } from './api.js';
import { CLOCKS, gameOf, gamesLoaded } from './kinds.js';

/** The quick-pairing buttons: their clock (null: correspondence) and label. */
const QUICK = [['1+0', 'Bullet'], ['3+2', 'Blitz'], ['5+3', 'Blitz'], ['10+5', 'Rapid'], [null, 'Days per move']];

/** Seeks are for two players (the server refuses others). */
const twoSeats = (game) => game.seats.length === 2;

const gameTitle = (id) => gameOf(id)?.name ?? id;

/** What quick pairing plays: the game on its default board, named with it where the game says so. */
function pairTitle(id) {
  const game = gameOf(id);
  return game.pairsWithSize ? `${game.name} ${game.sizeLabel(game.default_size)}` : game.name;
}

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

/**
 * The open seeks as a table kept current by the lobby socket: *Play* takes one, *Withdraw* my
 * own. A seek of mine taken by someone opens the game. Returns the list's handle: `add` a seek
 * just posted, `withdraw` one of mine, `watch` changes, `close`.
 */
export function mountSeekList(container, { me, toast }) {
  container.innerHTML = `
    <table class="seeks" id="seek-table">
      <thead><tr><th>Player</th><th>Game</th><th>Time</th><th>Mode</th><th>Colour</th><th>Ratings</th><th><span class="sr-only">Action</span></th></tr></thead>
      <tbody id="seek-list"></tbody>
    </table>
    <p class="muted" id="no-seeks">No open seeks. Post one!</p>
    <p class="error" id="seek-taken" role="alert"></p>`;
  const seeks = new Map();
  const watchers = [];
  let closed = false;
  /** Whether I had a seek open while the page showed: a game of mine starting then is its taking. */
  let seeking = false;

  function draw() {
    const list = [...seeks.values()].sort((a, b) => a.created_ms - b.created_ms);
    container.querySelector('#seek-list').innerHTML = list.map((s) => seekRow(s, me)).join('');
    container.querySelector('#no-seeks').hidden = list.length > 0;
    seeking ||= list.some((s) => s.owner === me);
    for (const watcher of watchers) watcher(seeks);
  }

  function replace(list) {
    seeks.clear();
    for (const s of list) seeks.set(s.id, s);
    draw();
  }

  async function reload() {
    try {
      const list = await api('/api/seeks');
      if (!closed) replace(list);
    } catch (err) {
      toast(err.message, 'error');
    }
  }

  async function withdraw(id) {
    try {
      await api(`/api/seeks/${id}`, { method: 'DELETE' });
      seeks.delete(id);
      draw();
    } catch (err) {
      toast(err.message, 'error');
    }
  }

  const lobby = new LiveSocket(() => '/api/lobby/ws', {
    onMessage: (message) => {
      switch (message.type) {
        case 'lobby':
          replace(message.seeks);
          break;
        case 'seek_added':
          seeks.set(message.seek.id, message.seek);
          draw();
          break;
        case 'seek_removed':
          seeks.delete(message.id);
          draw();
          break;
        case 'game_started':
          // Someone took one of my seeks: the game is on.
          if (me && seeking && message.game.seats.some((s) => s.name === me)) {
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

  container.querySelector('#seek-list').addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-act]');
    if (!button) return;
    const id = Number(button.closest('[data-seek]').dataset.seek);
    const taken = container.querySelector('#seek-taken');
    taken.textContent = '';
    if (button.dataset.act === 'withdraw') { withdraw(id); return; }
    try {
      const game = await api(`/api/seeks/${id}/accept`, { method: 'POST' });
      location.hash = `#/game/${game.board}`;
    } catch (err) {
      if (err.code !== 'unknown_seek') { toast(err.message, 'error'); return; }
      // Another player's accept came first (or the owner withdrew it): say so where I looked.
      seeks.delete(id);
      draw();
      taken.textContent = 'Too late: someone else took that seek (or its owner withdrew it) just before you. Pick another or post your own.';
    }
  });

  draw();
  return {
    add: (seek) => { seeks.set(seek.id, seek); draw(); },
    withdraw,
    watch: (watcher) => watchers.push(watcher),
    close: () => { closed = true; lobby.close(); },
  };
}

/**
 * Quick pairing: the game (every two-player game, on its default board), rated or casual, and a
 * button per clock that takes the oldest matching seek or posts one and waits; another press of
 * the same button, or *Cancel*, withdraws it. `list` is the page's seek list.
 */
export function mountQuickPairing(container, { me, toast, list }) {
  const signedOut = me ? '' : 'disabled title="Sign in to play"';
  const radio = (name, value, text, checked) => `<label><input type="radio" name="${name}" value="${value}" ${checked ? 'checked' : ''}> ${esc(text)}</label>`;
  container.innerHTML = `
    <div class="pair-terms">
      <fieldset class="segmented" id="pair-game"><legend>Game</legend></fieldset>
      <fieldset class="segmented" id="pair-mode"><legend>Mode</legend>
        ${radio('pair-mode', 'rated', 'Rated', true)}${radio('pair-mode', 'casual', 'Casual', false)}</fieldset>
    </div>
    <div class="quick-pairing" id="quick-pairing">
      ${QUICK.map(([clock, label]) => `<button type="button" class="quick" data-clock="${clock ?? ''}" ${signedOut}>
        <strong>${clock ?? 'Correspondence'}</strong><span class="muted">${label}</span></button>`).join('')}
    </div>
    <p id="pair-status" class="pair-status" role="status"></p>
    ${me ? '' : '<p><a href="#/login">Sign in or create an account</a> to play.</p>'}`;
  /** The quick-pairing seek I am waiting on: {id, clock, game, rated}. */
  let waiting = null;

  // No game is checked until the games have loaded.
  const terms = () => ({
    game: container.querySelector('[name=pair-game]:checked')?.value,
    rated: container.querySelector('[name=pair-mode]:checked').value === 'rated',
  });
  const isWait = (clock, { game, rated }) => !!waiting && waiting.clock === clock && waiting.game === game && waiting.rated === rated;

  function showPressed() {
    const now = terms();
    container.querySelectorAll('.quick').forEach((b) => b.setAttribute('aria-pressed', String(isWait(b.dataset.clock, now))));
  }

  function setWaiting(next) {
    waiting = next;
    showPressed();
    container.querySelector('#pair-status').innerHTML = waiting
      ? `Waiting for an opponent for ${esc(waiting.clock || 'correspondence')} (${waiting.rated ? 'rated' : 'casual'} ${esc(pairTitle(waiting.game))})… <button type="button" class="small" id="pair-cancel">Cancel</button>`
      : '';
    container.querySelector('#pair-cancel')?.addEventListener('click', () => list.withdraw(waiting.id));
  }

  list.watch((seeks) => { if (waiting && !seeks.has(waiting.id)) setWaiting(null); });
  container.querySelector('.pair-terms').addEventListener('change', showPressed);
  gamesLoaded.then((games) => {
    container.querySelector('#pair-game').insertAdjacentHTML('beforeend', games.filter(twoSeats)
      .map((game, i) => radio('pair-game', game.id, pairTitle(game.id), i === 0)).join(''));
    showPressed();
  });

  container.querySelector('#quick-pairing').addEventListener('click', async (event) => {
    const button = event.target.closest('.quick');
    const wanted = terms();
    if (!button || !me || !wanted.game) return;
    const clock = button.dataset.clock;
    if (waiting) {
      // Another press of the same button cancels; another button moves my wait there.
      const same = isWait(clock, wanted);
      await list.withdraw(waiting.id);
      setWaiting(null);
      if (same) return;
    }
    try {
      const body = { game: wanted.game, clock: clock || null, rated: wanted.rated, color: 'random' };
      const paired = await api('/api/seeks/pair', { method: 'POST', body });
      if (paired.game) location.hash = `#/game/${paired.game.board}`;
      else {
        list.add(paired.seek);
        setWaiting({ id: paired.seek.id, clock, ...wanted });
      }
    } catch (err) {
      toast(err.message, 'error');
    }
  });
  showPressed();
}

export function mountSeeks(root, { me, toast }) {
  const signedOut = me ? '' : 'disabled title="Sign in to play"';
  root.innerHTML = `
    <div class="seeks-page">
      <section class="card">
        <h1>Quick pairing</h1>
        <p class="muted">Takes the first matching seek, or posts yours and waits.</p>
        <div id="pairing"></div>
      </section>
      <section class="card">
        <h2>Open seeks</h2>
        <div id="seek-box"></div>
      </section>
      <section class="card">
        <h2>Post a seek</h2>
        <form id="seek-form" class="seek-form">
          <label>Game <select name="game"></select></label>
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
  const list = mountSeekList(root.querySelector('#seek-box'), { me, toast });
  mountQuickPairing(root.querySelector('#pairing'), { me, toast, list });

  const showSizes = () => {
    const game = gameOf(form.game.value);
    form.size.innerHTML = game ? game.sizes.map((n) => `<option value="${n}">${game.sizeLabel(n)}</option>`).join('') : '';
  };
  form.game.addEventListener('change', showSizes);
  gamesLoaded.then((games) => {
    form.game.innerHTML = games.filter(twoSeats).map((g) => `<option value="${g.id}">${esc(g.name)}</option>`).join('');
    showSizes();
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { game: form.game.value, clock: form.clock.value || null, rated: form.rated.checked, color: form.color.value };
    if (Number(form.size.value) !== gameOf(body.game)?.default_size) body.size = Number(form.size.value);
    for (const bound of ['rating_min', 'rating_max']) {
      if (form[bound].value.trim()) body[bound] = Number(form[bound].value);
    }
    const seek = await ask(root.querySelector('#seek-error'), '/api/seeks', { method: 'POST', body });
    if (!seek) return;
    list.add(seek);
    toast(`Seek posted: ${seek.clock ?? 'correspondence'} ${gameTitle(seek.game)}.`);
  });

  return list.close;
}

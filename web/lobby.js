// The lobby: quick pairing and the open seeks (seeks.js), challenges to answer, my games (my turn
// first), who is online, the bots, and the form that starts a game, with its blocked-layout picker.

import { api, esc, LiveSocket, timeAgo } from './api.js';
import { Board } from './board.js';
import { parseFen, parseSquare } from './position.js';
import { allGames, CLOCKS, gameOf, gamesLoaded, loadGames } from './kinds.js';
import { mountQuickPairing, mountSeekList } from './seeks.js';

/** The wall-mask bit of a square: its mirror image in the top-left quarter (blocks.md). */
function maskBit(name) {
  const [f, r] = parseSquare(name);
  const row = Math.min(6 - r, r);
  const column = Math.min(f, 6 - f);
  return 4 * row + column;
}

/** Whether a refused request means the server is away (rather than a refusal to show). */
const unreachable = (err) => err.status === 0 || err.status >= 500;

/** The colours of the pieces' letters, as the colour note names them. */
const COLOURS = { x: 'red', o: 'blue', r: 'red', b: 'blue', g: 'green', y: 'yellow' };
const capitalised = (word) => word[0].toUpperCase() + word.slice(1);

const seatOf = (game, me) => (game.x === me ? 'x' : 'o');
const opponentOf = (game, me) => (game.x === me ? game.o : game.x);

export function mountLobby(root, { me, toast }) {
  root.innerHTML = `
    <div class="lobby">
      <section class="card new-game">
        <h2>New game</h2>
        <p class="error" id="lobby-offline" role="alert" hidden></p>
        <form id="challenge-form">
          <label>Game <select name="game" id="game-select"></select></label>
          <fieldset class="segmented">
            <legend>Opponent</legend>
            <label><input type="radio" name="kind" value="bot" checked> Computer</label>
            <label><input type="radio" name="kind" value="person"> Person</label>
          </fieldset>
          <label class="bot-only">Level <select name="bot" id="bot-select"></select></label>
          <p class="bot-only hint" id="bot-description"></p>
          <label class="person-only" hidden>User name
            <input name="opponent" list="people" autocomplete="off" placeholder="who to challenge">
          </label>
          <label class="four-only" hidden>Third player <input name="opponent3" list="people" autocomplete="off" placeholder="plays green"></label>
          <label class="four-only" hidden>Fourth player <input name="opponent4" list="people" autocomplete="off" placeholder="plays yellow"></label>
          <datalist id="people"></datalist>
          <div class="row">
            <label>You play <select name="color">
              <option value="x">the first colour (moves first)</option>
              <option value="o">the second colour</option>
              <option value="random">random</option>
            </select></label>
            <label>Board <select name="size"></select></label>
          </div>
          <p class="hint" id="colour-note"></p>
          <label>Time <select name="clock">${CLOCKS.map(([v, t]) => `<option value="${v}">${esc(t)}</option>`).join('')}</select></label>
          <div class="blocks" id="blocks">
            <label>Blocked squares <input name="blocks" id="blocks-input" placeholder="Blocks-Config code (6bch) or mask (0x0F00)" autocomplete="off" spellcheck="false"></label>
            <div class="blocks-body">
              <div class="mini-board" id="blocks-board" title="Click squares to block them; the mirror images follow"></div>
              <div class="blocks-info">
                <p>Code <strong id="layout-code">0</strong></p>
                <p>Canonical <strong id="layout-canonical">0</strong></p>
                <p>Mask <code id="layout-mask">0x0000</code></p>
                <p><span id="layout-count">0</span> blocked</p>
                <p class="fen"><code id="layout-fen">x5o/7/7/7/7/7/o5x x 0 1</code></p>
                <button type="button" class="small" id="blocks-clear">Clear</button>
              </div>
            </div>
            <p class="error" id="blocks-error" role="alert"></p>
          </div>
          <p class="error" id="challenge-error" role="alert"></p>
          <button type="submit" class="primary" id="challenge-submit">Play</button>
        </form>
      </section>
      <div class="lobby-lists">
        <section class="card"><h2>Quick pairing</h2><div id="lobby-pairing"></div></section>
        <section class="card"><h2>Open seeks</h2><div id="lobby-seeks"></div>
          <p><a href="#/seeks">Post a seek with your own terms</a></p></section>
        <section class="card"><h2>Challenges</h2><ul class="games" id="challenges"></ul></section>
        <section class="card"><h2>My games</h2><ul class="games" id="my-games"></ul></section>
        <section class="card two">
          <div><h2>Players online</h2><ul class="people" id="online"></ul></div>
          <div><h2>Bots</h2><ul class="people" id="bots"></ul></div>
        </section>
        <section class="card"><h2>Finished</h2><ul class="games" id="finished"></ul></section>
      </div>
    </div>`;
  const form = root.querySelector('#challenge-form');
  const seeks = mountSeekList(root.querySelector('#lobby-seeks'), { me, toast });
  mountQuickPairing(root.querySelector('#lobby-pairing'), { me, toast, list: seeks });
  let bots = [];
  let mask = 0;
  let closed = false;

  // --- the challenge form
  const showKind = () => {
    const person = form.kind.value === 'person';
    root.querySelectorAll('.person-only').forEach((e) => { e.hidden = !person; });
    root.querySelectorAll('.bot-only').forEach((e) => { e.hidden = person; });
    root.querySelector('#challenge-submit').textContent = person ? 'Send challenge' : 'Play';
  };
  form.querySelectorAll('[name=kind]').forEach((r) => r.addEventListener('change', showKind));
  const showBot = () => {
    const bot = bots.find((b) => b.userid === form.bot.value);
    // A built-in level plays each game its own way; an engine has one description.
    root.querySelector('#bot-description').textContent = bot ? (bot.descriptions?.[form.game.value] ?? bot.description) : '';
  };
  form.bot.addEventListener('change', showBot);
  /** The bots that play `game`: the built-in levels whose table has it, and every engine (an engine that does not play it declines, saying why). */
  const botsFor = (game) => bots.filter((b) => b.engine || b.games.includes(game));

  // The level menu offers the bots that play the chosen game, keeping the choice where it can.
  // Engines put on the server with `ataxx bot` come after the built-in levels, marked.
  const showBotChoices = () => {
    const chosen = form.bot.value;
    const offered = botsFor(form.game.value);
    // Each bot's rating in the chosen game (the server gives one for every game it is offered in).
    const rating = (b) => b.ratings?.[form.game.value]?.rating_text ?? b.rating_text;
    form.bot.innerHTML = offered.map((b) => `<option value="${esc(b.userid)}">${esc(b.level)}${b.engine ? ' · engine' : ''} (${esc(rating(b))})</option>`).join('');
    if (offered.some((b) => b.userid === chosen)) form.bot.value = chosen;
    showBot();
  };
  form.game.addEventListener('change', showBotChoices);
  // Which colour moves first and which one the player gets ("You play x" picks the first seat).
  const showColour = () => {
    const game = gameOf(form.game.value);
    if (!game) return;
    const named = { ...COLOURS };
    if (document.body.classList.contains('cb')) named.x = 'orange';
    const first = game.seats;
    const piece = (seat) => `<span class="dot ${first[seat]}"></span>${first[seat]} (${named[first[seat]]})`;
    const seat = { x: 0, o: 1 }[form.color.value];
    const names = first.map((letter) => named[letter]);
    root.querySelector('#colour-note').innerHTML = first.length > 2
      ? `${capitalised(names[0])} moves first, then ${names.slice(1, -1).join(', ')} and ${names.at(-1)}. You play ${names[seat] ?? 'a seat drawn at random'}.`
      : `${piece(0)} moves first. You play ${seat === undefined ? 'a colour drawn at random' : piece(seat)}.`;
  };
  form.color.addEventListener('change', showColour);
  form.game.addEventListener('change', showColour);
  const showBlocks = () => { root.querySelector('#blocks').hidden = form.size.value !== '7' || !gameOf(form.game.value)?.layouts; };
  form.size.addEventListener('change', showBlocks);
  // Each game has its own sizes and options; four-player games name three opponents.
  const showGame = () => {
    const game = gameOf(form.game.value);
    if (!game) return;
    form.size.innerHTML = game.sizes.map((n) => `<option value="${n}">${game.sizeLabel(n)}</option>`).join('');
    const fourPeople = game.seats.length > 2 && form.kind.value === 'person';
    root.querySelectorAll('.four-only').forEach((e) => { e.hidden = !fourPeople; });
    root.querySelectorAll('[data-game-option]').forEach((e) => { e.hidden = e.dataset.gameOption !== game.id; });
    showBlocks();
  };
  form.game.addEventListener('change', showGame);
  form.game.addEventListener('change', () => preview(form.blocks.value));
  form.querySelectorAll('[name=kind]').forEach((r) => r.addEventListener('change', showGame));

  /** The games as the server names them, each with the options of its own (hidden until chosen). */
  const showGames = (games) => {
    form.game.innerHTML = games.map((g) => `<option value="${g.id}">${esc(g.name)}</option>`).join('');
    for (const game of games.filter((g) => g.fields)) {
      const fields = document.createElement('template');
      fields.innerHTML = game.fields;
      for (const field of fields.content.children) Object.assign(field.dataset, { gameOption: game.id });
      root.querySelector('#people').before(fields.content);
    }
    showGame();
    showColour();
    showBotChoices();
  };

  // --- the blocked-layout picker
  const picker = new Board(root.querySelector('#blocks-board'), {
    coordinates: false,
    onSquare: (sq) => {
      const bit = maskBit(sq);
      if (bit === 0) {
        root.querySelector('#blocks-error').textContent = 'The corners stay free: the players start there.';
        return;
      }
      mask ^= 1 << bit;
      const text = `0x${mask.toString(16).toUpperCase().padStart(4, '0')}`;
      form.blocks.value = text;
      preview(text);
    },
  });
  let asked = 0;
  async function preview(text) {
    const ticket = ++asked;
    const error = root.querySelector('#blocks-error');
    const value = text.trim() || '0';
    try {
      // The chosen game's start on that layout: four players in the corners for four-player Ataxx.
      const game = gameOf(form.game.value)?.layouts ? form.game.value : 'ataxx';
      const layout = await api(`/api/layout/${encodeURIComponent(value)}?game=${game}`);
      if (ticket !== asked) return;
      error.textContent = '';
      mask = parseInt(layout.mask, 16);
      root.querySelector('#layout-code').textContent = layout.code;
      root.querySelector('#layout-canonical').textContent = layout.canonical === layout.code
        ? layout.canonical : `${layout.canonical} (its mirror twin)`;
      root.querySelector('#layout-mask').textContent = layout.mask;
      root.querySelector('#layout-count').textContent = layout.blocks;
      root.querySelector('#layout-fen').textContent = layout.fen;
      picker.render(parseFen(layout.fen));
    } catch (err) {
      if (ticket === asked) error.textContent = err.message;
      return !unreachable(err);
    }
    return true;
  }
  form.blocks.addEventListener('input', () => preview(form.blocks.value));
  root.querySelector('#blocks-clear').addEventListener('click', () => { form.blocks.value = ''; preview(''); });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = root.querySelector('#challenge-error');
    error.textContent = '';
    const person = form.kind.value === 'person';
    const opponent = person ? form.opponent.value.trim() : form.bot.value;
    if (!opponent) {
      error.textContent = person ? 'Whom do you want to play? Type a user name.' : 'The computer levels have not loaded yet: the server cannot be reached.';
      return;
    }
    const game = form.game.value;
    if (!gameOf(game)) { error.textContent = 'The games have not loaded yet: the server cannot be reached.'; return; }
    const { default_size: defaultSize, readOptions, seats } = gameOf(game);
    const options = {};
    if (Number(form.size.value) !== defaultSize) options.size = form.size.value;
    else if (mask && !root.querySelector('#blocks').hidden) options.blocks = root.querySelector('#layout-code').textContent;
    Object.assign(options, readOptions?.(form));
    // Four players: three people, or three computer players (one account takes one seat).
    const opponents = seats.length === 2 ? [opponent]
      : person ? [opponent, form.opponent3.value.trim(), form.opponent4.value.trim()] : computerSeats(game, opponent);
    if (opponents.some((name) => !name)) { error.textContent = 'A four-player game needs three opponents.'; return; }
    if (form.clock.value) options.clock = form.clock.value;
    try {
      const created = await api('/api/games', { method: 'POST', body: { game, opponents, color: form.color.value, options } });
      if (person) {
        toast(`Challenge sent to ${opponents.join(', ')} (board ${created.board}).`);
        refresh();
      } else {
        location.hash = `#/game/${created.board}`;
      }
    } catch (err) {
      error.textContent = err.message;
    }
  });

  /** The computer players of a four-player game: the level chosen and the two built-in levels after it. */
  function computerSeats(game, chosen) {
    const ids = botsFor(game).filter((b) => !b.engine || b.userid === chosen).map((b) => b.userid);
    const at = Math.max(ids.indexOf(chosen), 0);
    return [...ids.slice(at), ...ids.slice(0, at)].slice(0, 3);
  }

  // --- the lists
  const gameRow = (g, cls, note) => {
    const score = `<span class="score"><span class="dot x"></span>${g.x_pieces} <span class="dot o"></span>${g.o_pieces}</span>`;
    return `<li data-board="${g.board}" class="${cls}"><a href="#/game/${g.board}">
      <span class="who">vs <strong>${esc(opponentOf(g, me))}</strong> <span class="muted">as ${seatOf(g, me)}</span></span>
      ${score}<span class="turn">${note}</span></a></li>`;
  };

  async function refresh() {
    let open;
    let finished;
    try {
      [open, finished] = await Promise.all([
        api(`/api/games?player=${encodeURIComponent(me)}&status=challenge,active`),
        api(`/api/games?player=${encodeURIComponent(me)}&status=finished&limit=12`),
      ]);
    } catch (err) {
      // Unreachable: the lobby's retry says so once, rather than a toast for every try.
      if (unreachable(err)) return false;
      toast(err.message, 'error');
      return true;
    }
    if (closed) return true;
    const challenges = open.filter((g) => g.status === 'challenge');
    const active = open.filter((g) => g.status === 'active')
      .sort((a, b) => (b.to_move === me) - (a.to_move === me));
    root.querySelector('#challenges').innerHTML = challenges.map((g) => {
      const mine = g.accepted[seatOf(g, me)];
      const clock = g.clock ? `${g.clock.initial_ms / 60000}+${g.clock.increment_ms / 1000}` : 'correspondence';
      const details = `<span class="muted">${esc(clock)}${g.blocks && g.blocks !== '0' ? `, blocks ${esc(g.blocks)}` : ''}</span>`;
      return mine
        ? `<li data-board="${g.board}"><span class="who">waiting for <strong>${esc(opponentOf(g, me))}</strong> ${details}</span>
             <button type="button" class="small" data-act="withdraw">Withdraw</button></li>`
        : `<li data-board="${g.board}" class="incoming"><span class="who"><strong>${esc(opponentOf(g, me))}</strong> challenges you (you play ${seatOf(g, me)}) ${details}</span>
             <span><button type="button" class="small primary" data-act="accept">Accept</button>
             <button type="button" class="small" data-act="decline">Decline</button></span></li>`;
    }).join('') || '<li class="empty">No challenges.</li>';
    root.querySelector('#my-games').innerHTML = active.map((g) => (g.to_move === me
      ? gameRow(g, 'my-turn', 'your move')
      : gameRow(g, '', `${esc(g.to_move)} to move`))).join('')
      || '<li class="empty">No games in play. Start one!</li>';
    root.querySelector('#finished').innerHTML = finished.map((g) => {
      const outcome = g.winner === me ? 'won' : g.winner ? 'lost' : 'draw';
      const how = g.termination && g.termination !== 'rules' ? ` (${esc(g.termination)})` : '';
      return gameRow(g, outcome, `${timeAgo(g.finished_ms)}, ${outcome}${how}`);
    }).join('') || '<li class="empty">No finished games yet.</li>';
    return true;
  }

  root.querySelector('#challenges').addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-act]');
    if (!button) return;
    const board = button.closest('[data-board]').dataset.board;
    try {
      await api(`/api/games/${board}/${button.dataset.act}`, { method: 'POST' });
      if (button.dataset.act === 'accept') location.hash = `#/game/${board}`;
      else refresh();
    } catch (err) {
      toast(err.message, 'error');
    }
  });

  const challengePerson = (name) => {
    form.querySelector('[name=kind][value=person]').checked = true;
    showKind();
    form.opponent.value = name;
    form.opponent.focus();
  };
  root.querySelector('#online').addEventListener('click', (event) => {
    const button = event.target.closest('button[data-user]');
    if (button) challengePerson(button.dataset.user);
  });

  async function heartbeat() {
    try {
      const { online } = await api('/api/presence', { method: 'POST' });
      if (closed) return;
      const others = online.filter((u) => u !== me);
      root.querySelector('#online').innerHTML = others.map((u) => `<li><a href="#/user/${esc(u)}">${esc(u)}</a>
        <button type="button" class="small" data-user="${esc(u)}">Challenge</button></li>`).join('')
        || '<li class="empty">Nobody else right now.</li>';
      root.querySelector('#people').innerHTML = others.map((u) => `<option value="${esc(u)}">`).join('');
      return true;
    } catch (err) {
      return !unreachable(err); // shown again at the next beat
    }
  }

  async function loadBots() {
    try {
      bots = await api('/api/bots');
    } catch (err) {
      return !unreachable(err);
    }
    if (closed) return; // the page was left meanwhile
    showBotChoices();
    root.querySelector('#bots').innerHTML = bots.map((b) => `<li><a href="#/user/${esc(b.userid)}">${esc(b.level)}</a> <span class="muted">${esc(b.rating_text)}</span></li>`).join('');
    return true;
  }

  // A lobby opened while the server is away tries again with growing delays (as the game
  // page's socket does) until everything has loaded, then clears its error.
  const offline = root.querySelector('#lobby-offline');
  let retry;
  let retryDelay = 1000;
  async function load() {
    clearTimeout(retry);
    const games = allGames().length > 0 || loadGames().then(() => true, (err) => !unreachable(err));
    const loaded = await Promise.all([games, bots.length > 0 || loadBots(), preview(form.blocks.value), refresh(), heartbeat()]);
    if (closed) return;
    offline.hidden = loaded.every(Boolean);
    if (offline.hidden) { retryDelay = 1000; return; }
    offline.textContent = 'The server cannot be reached: trying again…';
    retry = setTimeout(load, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 8000);
  }
  showKind();
  gamesLoaded.then((games) => { if (!closed) showGames(games); });
  load();
  const beat = setInterval(heartbeat, 30000);

  // Events on my games refresh the lists; a game I am in that starts opens.
  let pending;
  const socket = new LiveSocket(() => '/api/ws', {
    onMessage: (event) => {
      // The greeting and the answers to pings change no game.
      if (event.type === 'hello' || event.type === 'pong') return;
      if (event.type === 'started' && event.game && (event.game.x === me || event.game.o === me)) {
        location.hash = `#/game/${event.board}`;
        return;
      }
      clearTimeout(pending);
      pending = setTimeout(refresh, 100);
    },
    // The first connection finds the lists just loaded; a reconnection, or the server back
    // after a start without it, loads them again.
    onStatus: (status, { again } = {}) => {
      if (status !== 'live') return;
      if (!offline.hidden) load();
      else if (again) refresh();
    },
  });
  return () => {
    closed = true;
    clearInterval(beat);
    clearTimeout(pending);
    clearTimeout(retry);
    socket.close();
    seeks.close();
  };
}


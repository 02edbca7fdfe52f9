// Tournaments (#/tournaments and #/tournament/<id>): the list of upcoming, running and finished
// ones with a form to create one, and a page per tournament with its countdown, a join or
// withdraw button, the standings (and an engine league's Elo table), every round's pairings,
// small live boards of the games in play and the PGN of all its games. A tournament's socket sends it again after each change;
// a player who is paired while on its page is taken to the new game, as on lichess.

import { api, ask, esc, formatClock, LiveSocket } from './api.js';
import { LiveTile } from './front.js';
import { allGames, gameOf, loadGames } from './kinds.js';

const KIND_NAMES = { arena: 'Arena', swiss: 'Swiss', league: 'Engine league' };

/** "3+2 Ataxx arena", "2 days a move Hexxagon Swiss". */
function describe(t) {
  const pace = t.clock ? t.clock : t.days ? `${t.days} ${t.days === 1 ? 'day' : 'days'} a move` : '';
  return `${pace} ${gameOf(t.game)?.name ?? t.game} ${KIND_NAMES[t.kind] ?? t.kind}`.trim();
}

/** What the clock of a tournament says now: when it starts, when it ends, or its round. */
function countdown(t, now = Date.now()) {
  if (t.status === 'open') return t.starts_ms ? `Starts in ${formatClock(t.starts_ms - now)}` : 'Starts when its creator starts it';
  if (t.status === 'finished') return 'Finished';
  if (t.kind === 'arena' && t.ends_ms) return t.ends_ms > now ? `Ends in ${formatClock(t.ends_ms - now)}` : 'Time is up: the last games are being played';
  const unit = t.kind === 'league' ? 'Cycle' : 'Round';
  if (t.kind === 'league' && !t.total_rounds) return `${unit} ${t.round}, with no end until its creator stops it`;
  return `${unit} ${t.round} of ${t.total_rounds}`;
}

export function mountTournaments(root, ctx) {
  root.innerHTML = `
    <section class="card tournaments">
      <h1>Tournaments</h1>
      <h2>Running</h2><ul class="games" id="tour-running"></ul>
      <h2>Starting soon</h2><ul class="games" id="tour-open"></ul>
      <h2>Finished</h2><ul class="games" id="tour-finished"></ul>
    </section>
    ${ctx.me ? `<section class="card">
      <h2>New tournament</h2>
      <form id="tour-form" class="tour-form">
        <label>Name <input name="name" required maxlength="60"></label>
        <label>Kind <select name="kind"><option value="arena">Arena</option><option value="swiss">Swiss</option><option value="league">Engine league (bots)</option></select></label>
        <label>Game <select name="game" id="tour-game"></select></label>
        <label>Clock <input name="clock" value="3+2" pattern="\\d+(\\.\\d+)?\\+\\d+" title="minutes+seconds, as 3+2"></label>
        <label class="arena-only">Minutes <input name="minutes" type="number" min="1" value="30"></label>
        <label class="rounds-only" hidden><span id="tour-rounds-label">Rounds</span> <input name="rounds" type="number" min="1" max="30" value="3" aria-describedby="tour-rounds-hint"></label>
        <p class="muted league-only" id="tour-rounds-hint" hidden>A league's cycles: each engine meets every other twice, colours swapped. 0 cycles: no end until you stop it.</p>
        <label class="check"><input name="rated" type="checkbox" checked> Rated</label>
        <p class="error" id="tour-error" role="alert"></p>
        <button type="submit" class="primary">Create</button>
      </form></section>` : ''}`;
  let closed = false;
  let ticking;

  async function refresh() {
    let list;
    try {
      [list] = await Promise.all([api('/api/tournaments'), loadGames()]);
    } catch (err) {
      ctx.toast(err.message, 'error');
      return;
    }
    if (closed) return;
    for (const status of ['running', 'open', 'finished']) {
      const items = list.filter((t) => t.status === status);
      root.querySelector(`#tour-${status}`).innerHTML = items.map((t) => `<li data-tournament="${t.id}">
        <a href="#/tournament/${t.id}"><span class="who">${esc(t.name)}</span>
        <span class="muted">${esc(describe(t))}</span>
        <span class="turn">${t.players} ${t.players === 1 ? 'player' : 'players'}</span>
        <span class="muted countdown" data-countdown="${t.id}">${esc(countdown(t))}</span></a></li>`).join('')
        || `<li class="empty">${status === 'open' ? 'None planned.' : 'None.'}</li>`;
    }
    clearInterval(ticking);
    ticking = setInterval(() => {
      for (const t of list) {
        const node = root.querySelector(`[data-countdown="${t.id}"]`);
        if (node) node.textContent = countdown(t);
      }
    }, 1000);
  }

  const form = root.querySelector('#tour-form');
  if (form) {
    loadGames().then(() => {
      form.game.innerHTML = allGames().map((g) => `<option value="${esc(g.id)}">${esc(g.name)}</option>`).join('');
    }).catch(() => {});
    form.kind.addEventListener('change', () => {
      const arena = form.kind.value === 'arena';
      form.querySelector('.arena-only').hidden = !arena;
      const league = form.kind.value === 'league';
      form.querySelector('.rounds-only').hidden = arena;
      form.querySelector('.league-only').hidden = !league;
      form.querySelector('#tour-rounds-label').textContent = league ? 'Cycles' : 'Rounds';
      form.rounds.min = league ? '0' : '1';
    });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const arena = form.kind.value === 'arena';
      const body = { kind: form.kind.value, name: form.name.value.trim(), game: form.game.value, clock: form.clock.value.trim(), rated: form.rated.checked };
      if (arena) body.minutes = Number(form.minutes.value); else body.rounds = Number(form.rounds.value);
      const created = await ask(root.querySelector('#tour-error'), '/api/tournaments', { method: 'POST', body });
      if (created) location.hash = `#/tournament/${created.id}`;
    });
  }

  // The lobby's stream announces every change of any tournament.
  let pending;
  const lobby = new LiveSocket(() => '/api/lobby/ws', {
    onMessage: (message) => {
      if (message.type !== 'tournament') return;
      clearTimeout(pending);
      pending = setTimeout(refresh, 200);
    },
  });
  refresh();
  return () => {
    closed = true;
    clearTimeout(pending);
    clearInterval(ticking);
    lobby.close();
  };
}

/** A standings line's tie breaks in words. */
function tiebreaks(t, line) {
  const tb = line.tiebreaks ?? {};
  if (t.kind === 'arena') return `${tb.wins ?? 0} ${tb.wins === 1 ? 'win' : 'wins'}${tb.fire ? ' <span class="fire" title="On a streak: games count double">🔥</span>' : ''}`;
  return `Buchholz ${tb.buchholz ?? 0} · SB ${tb.sonneborn_berger ?? 0}`;
}

/** A tournament's page before it has loaded. */
const tournamentLayout = (id) => `<section class="card tournament" data-tournament="${id}">
      <header class="tour-head"><h1 id="tour-name">Tournament ${id}</h1>
        <p class="muted" id="tour-what"></p>
        <p class="countdown" id="tour-clock" aria-live="polite"></p>
        <div class="tour-actions"><button type="button" class="primary" id="tour-join" hidden>Join</button>
          <button type="button" id="tour-withdraw" hidden>Withdraw</button>
          <button type="button" id="tour-start" hidden>Start now</button>
          <button type="button" id="tour-stop" hidden title="No round starts after the one in play">Stop after this round</button>
          <a id="tour-pgn" href="/api/tournaments/${id}/pgn" download="tournament-${id}.pgn">Games as PGN</a></div>
        <p id="tour-mine"></p>
        <p class="muted" id="tour-engines" hidden>Engines join by running <code>ataxx bot --tournament ${id}</code> with a bot account.</p>
      </header>
    </section>
    <section class="card"><h2>Standings</h2>
      <table class="standings" id="tour-standings"><thead><tr><th scope="col">#</th><th scope="col">Player</th><th scope="col">Points</th><th scope="col">Tie breaks</th><th scope="col">Games</th></tr></thead><tbody></tbody></table>
    </section>
    <section class="card" id="tour-cross-card" hidden><h2>Crosstable</h2>
      <p class="muted">Each game: the opponent's place, the side played and the result; + a bye, − not played, * in play.</p>
      <table class="standings" id="tour-cross"><thead><tr><th scope="col">#</th><th scope="col">Player</th><th scope="col">Games</th></tr></thead><tbody></tbody></table>
    </section>
    <section class="card" id="tour-league-card" hidden><h2>Engines against the field</h2>
      <table class="standings" id="tour-league"><thead><tr><th scope="col">Engine</th><th scope="col">Games</th><th scope="col">Score</th><th scope="col">Elo</th>
        <th scope="col"><abbr title="Pairs of games with the same opening by the engine's points: 0, ½, 1, 1½, 2 (LL, LD, DD/WL, WD, WW)">Pairs</abbr></th></tr></thead><tbody></tbody></table>
    </section>
    <section class="card"><h2>Being played now</h2><ul class="live-tiles" id="tour-live"><li class="empty">No game in play.</li></ul></section>
    <section class="card"><h2>Pairings</h2><div id="tour-rounds"></div></section>`;

/** The standings as table rows (before the first game: the players, on no points). */
function standingsRows(t, me) {
  const ranked = t.standings.length ? t.standings : t.players.map((p) => ({ name: p.name, points: 0, tiebreaks: {}, games: 0 }));
  return ranked.map((line, i) => `<tr data-player="${esc(line.name)}"${line.name === me ? ' class="me"' : ''}>
      <td>${i + 1}</td><td><a href="#/user/${encodeURIComponent(line.name)}">${esc(line.name)}</a>${t.players.find((p) => p.name === line.name)?.withdrawn ? ' <span class="muted">(withdrawn)</span>' : ''}</td>
      <td class="points">${line.points}</td><td>${tiebreaks(t, line)}</td><td>${line.games}</td></tr>`).join('')
    || '<tr><td colspan="5" class="empty">Nobody has joined yet.</td></tr>';
}

/** The crosstable's rows: every player's games in the order they were paired. */
function crossRows(cross) {
  const crossGame = (g) => (g.opponent == null ? esc(g.result)
    : `${g.opponent}${g.side}${g.result === '-' ? '−' : esc(g.result)}`);
  return cross.map((line) => `<tr data-player="${esc(line.name)}">
      <td>${line.place}</td><td>${esc(line.name)}</td>
      <td><div class="cross-games">${line.games.map((g) => `<span class="cross-game">${crossGame(g)}</span>`).join(' ')}</div></td></tr>`).join('');
}

/** A league's table: each engine's Elo against the field, as `ataxx match` computes it. */
function leagueRows(league) {
  const elo = (line) => (line.elo == null ? (line.score >= 0.5 ? '+∞' : '−∞')
    : `${line.elo >= 0 ? '+' : '−'}${Math.abs(line.elo).toFixed(0)}${line.error == null ? '' : ` ± ${line.error.toFixed(0)}`}`);
  return league.map((line) => `<tr data-engine="${esc(line.name)}">
      <td><a href="#/user/${encodeURIComponent(line.name)}">${esc(line.name)}</a></td><td>${line.games}</td>
      <td>${(100 * line.score).toFixed(1)} %</td><td class="elo">${elo(line)}</td><td>${line.pentanomial.join(' · ')}</td></tr>`).join('');
}

/** The pairings of every round, the latest first. */
function roundTables(t) {
  const roundName = { arena: 'Wave', swiss: 'Round', league: 'Cycle' }[t.kind] ?? 'Round';
  return t.rounds.slice().reverse().map((r) => `<h3>${roundName} ${r.round}</h3>
      <table class="pairings"><thead><tr><th scope="col">Board</th><th scope="col">x</th><th scope="col">o</th><th scope="col">Result</th></tr></thead><tbody>
      ${r.pairings.map((p) => `<tr data-board="${p.game ?? ''}"><td>${p.game ? `<a href="#/game/${p.game}">${p.game}</a>` : p.board}</td>
        <td>${esc(p.x)}</td><td>${esc(p.o)}</td><td class="result">${p.result === '*' ? 'playing' : esc(p.result)}</td></tr>`).join('')}
      ${r.bye ? `<tr><td>bye</td><td colspan="2">${esc(r.bye)}</td><td class="result">1</td></tr>` : ''}
      </tbody></table>`).join('') || '<p class="empty">No round has been paired yet.</p>';
}

export function mountTournament(root, ctx, id) {
  root.innerHTML = tournamentLayout(id);
  let closed = false;
  let shown = null;
  const tiles = new Map();
  // Boards of mine already seen: only a new one takes the page to its game.
  let myBoards = null;

  const act = (what) => async () => {
    try {
      draw(await api(`/api/tournaments/${id}/${what}`, { method: 'POST' }));
    } catch (err) {
      ctx.toast(err.message, 'error');
    }
  };
  root.querySelector('#tour-join').addEventListener('click', act('join'));
  root.querySelector('#tour-withdraw').addEventListener('click', act('withdraw'));
  root.querySelector('#tour-start').addEventListener('click', act('start'));
  root.querySelector('#tour-stop').addEventListener('click', act('stop'));

  async function drawLive(t) {
    const playing = t.rounds.flatMap((r) => r.pairings).filter((p) => p.result === '*' && p.game);
    const wanted = new Set(playing.map((p) => p.game));
    for (const [board, tile] of tiles) {
      if (!wanted.has(board)) { tile.close(); tile.node.remove(); tiles.delete(board); }
    }
    const list = root.querySelector('#tour-live');
    for (const pairing of playing) {
      if (tiles.has(pairing.game)) continue;
      let game;
      try { game = await api(`/api/games/${pairing.game}`); } catch { continue; }
      if (closed || tiles.has(pairing.game)) return;
      tiles.set(pairing.game, new LiveTile({ game }));
      list.appendChild(tiles.get(pairing.game).node);
    }
    list.querySelector('.empty')?.remove();
    if (!tiles.size) list.innerHTML = '<li class="empty">No game in play.</li>';
  }

  function draw(t) {
    if (closed) return;
    shown = t;
    root.querySelector('#tour-name').textContent = t.name;
    root.querySelector('#tour-what').textContent = `${describe(t)}${t.rated ? ', rated' : ', casual'} · created by ${t.creator}`;
    root.querySelector('#tour-clock').textContent = countdown(t);
    const me = ctx.me;
    const entry = t.players.find((p) => p.name === me);
    const joined = entry && !entry.withdrawn;
    // People do not play in a league: its engines join through `ataxx bot`.
    root.querySelector('#tour-join').hidden = !me || joined || t.status === 'finished' || t.kind === 'league';
    root.querySelector('#tour-engines').hidden = t.kind !== 'league' || t.status === 'finished';
    root.querySelector('#tour-withdraw').hidden = !joined || t.status === 'finished';
    root.querySelector('#tour-start').hidden = !me || me !== t.creator || t.status !== 'open';
    // A Swiss or league its creator may cut short; not once its last round is under way.
    const lastRound = t.total_rounds && t.round >= t.total_rounds;
    root.querySelector('#tour-stop').hidden = !me || me !== t.creator || t.kind === 'arena' || t.status === 'finished' || (t.status === 'running' && lastRound);
    root.querySelector('#tour-stop').textContent = t.status === 'open' ? 'Cancel' : `Stop after this ${t.kind === 'league' ? 'cycle' : 'round'}`;

    root.querySelector('#tour-standings tbody').innerHTML = standingsRows(t, me);
    const cross = t.crosstable ?? [];
    root.querySelector('#tour-cross-card').hidden = !cross.some((line) => line.games.length);
    root.querySelector('#tour-cross tbody').innerHTML = crossRows(cross);
    const league = t.league ?? [];
    root.querySelector('#tour-league-card').hidden = !league.length;
    root.querySelector('#tour-league tbody').innerHTML = leagueRows(league);
    root.querySelector('#tour-rounds').innerHTML = roundTables(t);

    const mine = t.rounds.flatMap((r) => r.pairings).filter((p) => p.game && (p.x === me || p.o === me));
    const current = mine.find((p) => p.result === '*');
    root.querySelector('#tour-mine').innerHTML = current
      ? `<a class="button" id="tour-my-game" href="#/game/${current.game}">Your game: board ${current.game}</a>` : '';
    if (myBoards && current && !myBoards.has(current.game)) location.hash = `#/game/${current.game}`;
    myBoards = new Set(mine.map((p) => p.game));
    drawLive(t);
  }

  const ticking = setInterval(() => { if (shown) root.querySelector('#tour-clock').textContent = countdown(shown); }, 1000);
  let socket = null;
  (async () => {
    let first;
    try {
      [first] = await Promise.all([api(`/api/tournaments/${id}`), loadGames()]);
    } catch (err) {
      if (closed) return;
      if (err.status === 404) root.innerHTML = `<section class="card no-such-game"><h1>No such tournament</h1><p>${esc(err.message)}</p><p><a href="#/tournaments">All tournaments</a></p></section>`;
      else ctx.toast(err.message, 'error');
      return;
    }
    if (closed) return;
    draw(first);
    socket = new LiveSocket(() => `/api/tournaments/${id}/ws`, {
      onMessage: (message) => { if (message.type === 'tournament' && message.tournament?.id === id) draw(message.tournament); },
    });
  })();
  return () => {
    closed = true;
    clearInterval(ticking);
    socket?.close();
    for (const tile of tiles.values()) tile.close();
  };
}

// A game page: the live board, clocks, moves, proposals, chat, replay and analysis.

import { api, esc, formatClock, LiveSocket } from './api.js';
import { Board } from './board.js';
import { HexBoard } from './hexboard.js';
import { AnkorBoard } from './ankorboard.js';
import { hexDistance, moveCells, parseAnkor, parseFen, parseHexFen, squareCells, squareDistance } from './position.js';
import { NextStep } from './rematch.js';
import { premoveTargets, showPremove } from './premove.js';
import { announce, moveWords } from './announce.js';
import { attachKeyboard } from './keyboard.js';
import { setPageTitle } from './notify.js';
import { soundForMoves, sounds } from './sound.js';

/**
 * What the page needs to know of each game: its board, how to read its positions, which cells
 * a piece touches (for single-move targets), and how moves are typed. The rules themselves
 * stay on the server, which sends the legal moves and the position after every ply.
 */
const SQUARE = { Board, parse: parseFen, cells: squareCells, distance: squareDistance, example: 'd4 or c3b5' };
export const GAMES = {
  ataxx: { ...SQUARE, title: 'Ataxx' },
  ataxx4: { ...SQUARE, title: 'Four-player Ataxx' },
  hexxagon: { Board: HexBoard, parse: parseHexFen, cells: (pos) => [...pos.cells], distance: hexDistance, example: 'e5 or a1c3', title: 'Hexxagon' },
  ankor: { Board: AnkorBoard, parse: parseAnkor, cells: (pos) => pos.cells.map((c) => [c.label, c.cube]), cubes: true, example: "d3 or d3-f4'", title: 'Ankor' },
};

/** Cells a move turned to the mover's colour, with their colour before: [[cell, letter]]. */
function flippedBy(kind, before, after, to) {
  const old = new Map(kind.cells(before));
  const mover = new Map(kind.cells(after)).get(to);
  return kind.cells(after)
    .filter(([cell, c]) => cell !== to && c === mover && old.get(cell) && old.get(cell) !== '-' && old.get(cell) !== mover)
    .map(([cell]) => [cell, old.get(cell)]);
}

const TERMINATIONS = {
  rules: '',
  resignation: 'by resignation',
  'time forfeit': 'on time',
  agreement: 'by agreement',
};

export function mountGame(root, { me, toast }, board) {
  root.innerHTML = `
    <div class="game" data-board="${board}">
      <div class="board-col">
        <div class="player-bars" id="bar-top"></div>
        <div id="board" class="board-box"></div>
        <div class="player-bars" id="bar-bottom"></div>
        <div class="replay" role="group" aria-label="replay">
          <button type="button" data-step="start" title="First position (Home)" aria-label="first position"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5h2v14H6zM20 5v14L9 12z"/></svg></button>
          <button type="button" data-step="back" title="Back (←)" aria-label="back"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M17 5v14L6 12z"/></svg></button>
          <span id="ply-label">0 / 0</span>
          <button type="button" data-step="forward" title="Forward (→)" aria-label="forward"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 5v14l11-7z"/></svg></button>
          <button type="button" data-step="end" title="Latest position (End)" aria-label="latest position"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M16 5h2v14h-2zM4 5v14l11-7z"/></svg></button>
          <button type="button" id="flip" title="Flip the board" aria-label="flip the board" aria-pressed="false"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 3l-4 4h3v10h2V7h3zM17 21l4-4h-3V7h-2v10h-3z"/></svg></button>
        </div>
      </div>
      <aside class="side">
        <div class="card status-card">
          <p id="status" class="status"></p>
          <p id="notice" class="notice" role="status"></p>
          <p id="connection" class="connection"></p>
          <div id="proposal"></div>
          <div id="next-step" class="next-step"></div>
          <form id="move-form" class="move-form" autocomplete="off" hidden>
            <input id="move-input" placeholder="Type a move" aria-label="move" spellcheck="false">
            <button type="submit">Move</button>
          </form>
          <div class="actions">
            <button type="button" id="swap" class="primary" hidden title="Take over O's opening: the players exchange colours">Swap</button>
            <button type="button" id="resign" class="danger" hidden>Resign</button>
            <button type="button" id="undo" hidden>Propose undo</button>
            <button type="button" id="draw" hidden>Offer draw</button>
            <button type="button" id="analyse">Analyse</button>
            <a class="button" id="pgn" href="/api/games/${board}/pgn" download="ataxx-${board}.pgn">Download PGN</a>
            <a class="button" id="record" href="/api/games/${board}/record" download="ataxx-${board}.txt" title="The 1995 two-column record">Record</a>
            <span class="share">Board image: <a id="image-svg" target="_blank" rel="noopener">SVG</a> · <a id="image-png" target="_blank" rel="noopener">PNG</a></span>
          </div>
          <p id="analysis" class="analysis"></p>
        </div>
        <div class="card"><h3>Moves</h3><div class="moves-box"><table class="moves" id="moves"></table></div></div>
        <div class="card chat">
          <h3>Chat</h3>
          <ul id="chat"></ul>
          <form id="chat-form" autocomplete="off" hidden><input id="chat-input" placeholder="Say something" maxlength="2000" aria-label="chat message"><button type="submit">Send</button></form>
        </div>
      </aside>
    </div>`;
  const $ = (sel) => root.querySelector(sel);
  const detachKeyboard = attachKeyboard($('#board'));
  let lowTimeWarned = false;
  let view = null;
  let positions = [];
  let viewPly = null; // null: follow the game; else the number of moves shown
  let selected = null;
  let hint = null;
  let clockBase = null;
  let closed = false;
  let animation = null;
  let kind = null;
  let boardView = null;
  let premove = null; // a live game's move chosen before my turn: {text, from, to}
  const nextStep = new NextStep(root.querySelector('#next-step'), { me, toast });

  const shown = () => (viewPly === null ? positions.length - 1 : viewPly);
  /** My seat ({seat, name, letter, ...}), or undefined when I watch. */
  const mine = () => view?.seats.find((s) => s.name === me);
  const mySeat = () => mine()?.letter ?? null;
  const myTurn = () => view && view.status === 'active' && view.to_move === me && viewPly === null;

  function setView(next, animate) {
    const before = view ? view.moves.length : Infinity;
    const wasActive = view?.status === 'active';
    view = next;
    if (!kind || kind !== GAMES[view.game]) {
      kind = GAMES[view.game] ?? GAMES.ataxx;
      boardView = new kind.Board($('#board'), { onSquare: clickSquare });
      $('#move-input').placeholder = `Type a move: ${kind.example}`;
      $('#analyse').hidden = view.game !== 'ataxx';
      // Ankor's cubes are drawn in perspective: upside down they would read wrong.
      $('#flip').hidden = !!kind.cubes;
      for (const link of ['#pgn', '#record']) $(link).download = $(link).download.replace(/^[a-z0-9]+-/, `${view.game}-`);
    }
    positions = [view.start_fen, ...view.moves.map((m) => m.fen)].map(kind.parse);
    if (animate && view.moves.length > before) {
      const fresh = view.moves.slice(before);
      for (const m of fresh) announce(moveWords(m, view.seats, me));
      soundForMoves(fresh);
    }
    clockBase = view.clock ? { ...view.clock, at: performance.now() } : null;
    if (viewPly !== null && viewPly > view.moves.length) viewPly = null;
    // A picked piece stays picked through updates that leave the board as it was (a chat line,
    // a proposal, a snapshot after a reconnect); a move or the end lets go of it.
    if (view.moves.length !== before || view.status !== 'active') selected = null;
    animation = null;
    if (view.moves.length !== before) notice('');
    if (animate && viewPly === null && view.moves.length > before) {
      // Animate the last real move (the passes after it change nothing on the board).
      let i = view.moves.length - 1;
      while (i > 0 && view.moves[i].auto) i--;
      const mv = moveCells(view.moves[i].move);
      if (mv) animation = { from: mv.from, to: mv.to, flipped: kind.cubes ? [] : flippedBy(kind, positions[i], positions[i + 1], mv.to) };
    }
    draw();
    playPremove();
    // The end seen live (whichever event brought it): said, and sounded.
    if (wasActive && view.status === 'finished') {
      announce(statusText());
      sounds.end();
    }
  }

  /** The legal moves, shown and played only on the latest position on my turn. */
  const legal = () => (myTurn() ? view.legal_moves ?? [] : []);

  /** Where the piece or cube on `cell` may go: {singles, jumps} (square, hex) or {moves} (Ankor). */
  function targetsOf(cell) {
    const moves = legal();
    if (kind.cubes) return { moves: moves.filter((m) => m.startsWith(`${cell}-`)).map((m) => m.split('-')[1]) };
    return {
      singles: moves.filter((m) => m.length === 2 && kind.distance(m, cell) === 1),
      jumps: moves.filter((m) => m.length === 4 && m.startsWith(cell)).map((m) => m.slice(2)),
    };
  }

  function draw() {
    if (!view) return;
    const ply = shown();
    const pos = positions[ply];
    const last = ply > 0 ? moveCells(view.moves[ply - 1].move) : null;
    const marks = { selected, lastFrom: last?.from, lastTo: last?.to, hintFrom: hint?.from, hintTo: hint?.to };
    if (selected) Object.assign(marks, myTurn() ? targetsOf(selected) : premoveTargets(kind, pos, selected));
    if (kind.cubes) {
      // Holes a cube may be placed on; at the end, the winning group.
      marks.places = selected ? [] : legal().filter((m) => !m.includes('-') && m !== 'swap' && m !== '0000');
      if (ply === view.moves.length) marks.path = view.winning_path ?? [];
    }
    boardView.render(pos, marks, animation);
    showPremove($('#board'), premove);
    animation = null;
    drawPlayers(pos);
    drawStatus();
    drawMoves();
    $('#ply-label').textContent = `${ply} / ${view.moves.length}`;
    $('#image-svg').href = `/board/${board}.svg?ply=${ply}`;
    $('#image-png').href = `/board/${board}.png?ply=${ply}`;
    const playing = mySeat() !== null && view.status === 'active';
    // Finished games and spectators have no use for them: hidden, not greyed out.
    for (const id of ['#resign', '#undo', '#draw']) Object.assign($(id), { hidden: !playing, disabled: !!view.proposal });
    // Proposals are for two-player games.
    for (const id of ['#undo', '#draw']) if (view.seats.length > 2) $(id).hidden = true;
    nextStep.update(view);
    $('#swap').hidden = !legal().includes('swap');
    $('#move-form').hidden = !playing;
    $('#chat-form').hidden = mySeat() === null;
    setPageTitle(myTurn() ? `Your move · board ${board} · ${kind.title}` : `Board ${board} · ${kind.title}`,
      view.status === 'active' ? view.turn : null, myTurn());
  }

  /** Seat rows of the player bars: me (or seat 0) at the bottom, the others above. */
  function drawPlayers(pos) {
    const counts = {};
    for (const [, c] of kind.cells(pos)) counts[c] = (counts[c] ?? 0) + 1;
    const bottom = mine() ?? view.seats[0];
    const rows = (seats) => seats.map((seat) => {
      const moving = view.status === 'active' && view.to_move === seat.name && view.turn === seat.letter;
      // A four-player colour without pieces is out: its turn never comes again.
      const out = view.seats.length > 2 && view.status === 'active' && !counts[seat.letter];
      const change = seat.rating_change;
      const rank = view.seats.length > 2 && seat.rank != null ? `<span class="rank">${ordinal(seat.rank)}</span>` : '';
      const reserve = pos.reserves ? `<span class="muted reserve" data-reserve="${seat.letter}">${pos.reserves[seat.letter]} in reserve</span>` : '';
      return `<div class="player-bar ${moving ? 'to-move' : ''} ${out ? 'out' : ''}" data-seat="${seat.letter}">
        <span class="dot ${seat.letter}"></span>
        <a class="name" href="#/user/${esc(seat.name)}">${esc(seat.name)}</a>
        ${change != null ? `<span class="muted">${change >= 0 ? '+' : ''}${Math.round(change)}</span>` : ''}
        ${out ? '<span class="muted out-tag">out</span>' : ''}${rank}${reserve}
        <span class="pieces" data-pieces="${seat.letter}">${counts[seat.letter] ?? 0}</span>
        <span class="clock ${view.clock ? '' : 'hidden'}" data-clock="${seat.letter}"></span></div>`;
    }).join('');
    $('#bar-top').innerHTML = rows(view.seats.filter((s) => s !== bottom).reverse());
    $('#bar-bottom').innerHTML = rows([bottom]);
    tick();
  }

  /** A rank of four at most: 1st to 4th. */
  const ordinal = (n) => `${n}${['st', 'nd', 'rd'][n - 1] ?? 'th'}`;

  function tick() {
    if (!clockBase || closed) return;
    for (const seat of view.seats) {
      const node = root.querySelector(`[data-clock="${seat.letter}"]`);
      if (!node) continue;
      let ms = clockBase[`${seat.letter}_ms`] ?? seat.clock_ms;
      const running = clockBase.running === seat.letter && view.status === 'active';
      if (running) ms -= performance.now() - clockBase.at;
      node.textContent = formatClock(ms);
      node.classList.toggle('running', running);
      node.classList.toggle('low', ms < 20000);
      // One warning each time my own running clock falls under ten seconds.
      if (running && seat.name === me) {
        if (ms < 10000 && !lowTimeWarned) sounds.lowTime();
        lowTimeWarned = ms < 10000;
      }
    }
  }

  function statusText() {
    const names = (seats) => seats.map((s) => s.name).join(' and ');
    switch (view.status) {
      case 'challenge': {
        const waiting = view.seats.filter((s) => !s.accepted);
        return waiting.some((s) => s.name === me)
          ? `${names(view.seats.filter((s) => s.accepted))} challenges you.`
          : `Waiting for ${names(waiting)} to accept.`;
      }
      case 'declined': return 'The challenge was declined.';
      case 'withdrawn': return 'The challenge was withdrawn.';
      case 'finished': {
        const how = TERMINATIONS[view.termination] ?? view.termination;
        // From the reader's side: a player reads their own outcome and pieces first, a
        // spectator the winner's.
        const reader = mine();
        const who = { win: 'You win', loss: 'You lose', draw: 'Draw' }[reader?.outcome] ?? (view.winner ? `${view.winner} wins` : 'Draw');
        const first = reader ?? view.seats.find((s) => s.name === view.winner);
        const order = first && view.seats.length === 2 ? [first, ...view.seats.filter((s) => s !== first)] : view.seats;
        // Counting decides the Ataxx games; Ankor's cubes on the board say nothing of the result.
        const score = kind.cubes ? '' : `, ${order.map((s) => s.pieces).join('–')}`;
        const unrated = view.unrated_reason ? ` ${view.unrated_reason}.` : '';
        return `${[who, how].filter(Boolean).join(' ')}${score}.${unrated}`;
      }
      default: {
        // The forced passes since the last real move, by whoever had to make them.
        const passers = [];
        for (let i = view.moves.length - 1; i >= 0 && view.moves[i].auto; i--) {
          const name = view.seats[view.moves[i].seat]?.name;
          if (name && !passers.includes(name)) passers.unshift(name);
        }
        const passed = passers.map((name) => `${name} has no move and passes. `).join('');
        const swapped = view.moves.at(-1)?.move === 'swap' ? 'Swapped: the players exchanged colours. ' : '';
        return swapped + passed + (view.to_move === me ? 'Your move.' : `${view.to_move} to move.`);
      }
    }
  }

  function drawStatus() {
    const status = $('#status');
    status.textContent = statusText();
    status.className = `status ${view.status} ${myTurn() ? 'mine' : ''}`;
    if (viewPly !== null) {
      status.textContent += ` Showing move ${viewPly} of ${view.moves.length}: press End to return.`;
    }
    const proposal = $('#proposal');
    if (view.status === 'challenge' && mine() && !mine().accepted) {
      proposal.innerHTML = `<div class="proposal"><button type="button" class="primary" data-answer="accept">Accept challenge</button>
        <button type="button" data-answer="decline">Decline</button></div>`;
    } else if (view.proposal) {
      const what = view.proposal.kind === 'undo' ? 'take back the last move' : 'agree a draw';
      proposal.innerHTML = view.proposal.by === me
        ? `<div class="proposal">You proposed to ${what}; waiting for the answer.</div>`
        : `<div class="proposal">${esc(view.proposal.by)} proposes to ${what}.
            <button type="button" class="primary" data-word="accept">Accept</button>
            <button type="button" data-word="reject">Reject</button></div>`;
    } else {
      proposal.innerHTML = '';
    }
  }

  /** The moves in one column per seat, a row per round. */
  function drawMoves() {
    const rows = [];
    let row = null;
    let lastSeat = Infinity;
    view.moves.forEach((m, i) => {
      if (!row || m.seat <= lastSeat) rows.push(row = view.seats.map(() => '<td></td>'));
      lastSeat = m.seat;
      const text = m.auto ? 'pass' : m.move;
      const title = m.auto ? 'forced pass' : `${m.flips} flipped`;
      row[m.seat] = `<td class="mv ${m.auto ? 'auto' : ''} ${shown() === i + 1 ? 'current' : ''}" data-ply="${i + 1}" title="${title}">
        ${esc(text)}${m.auto || kind.cubes ? '' : `<sup>${m.flips ? `+${m.flips}` : ''}</sup>`}</td>`;
    });
    // Ankor's swap exchanges who sits where, so its columns are the colours, not the players.
    const head = view.seats.map((s) => `<th><span class="dot ${s.letter}"></span> ${kind.cubes ? s.letter.toUpperCase() : esc(s.name)}</th>`).join('');
    $('#moves').innerHTML = `<thead><tr><th></th>${head}</tr></thead><tbody>${rows.map((r, i) => `<tr><th>${i + 1}</th>${r.join('')}</tr>`).join('')}</tbody>`;
    // Follow the game in the list's own scroll area (never the page's).
    if (viewPly === null) $('.moves-box').scrollTop = $('.moves-box').scrollHeight;
  }

  function drawChat() {
    $('#chat').innerHTML = view.chat.map((c) => `<li><strong>${esc(c.name)}</strong> ${esc(c.body)}</li>`).join('')
      || '<li class="empty">No messages.</li>';
    $('#chat').scrollTop = $('#chat').scrollHeight;
  }

  // --- moving
  async function send(word) {
    const { version } = view;
    try {
      await api(`/api/games/${board}/move`, { method: 'POST', body: { move: word, guard: view.ply + 1 } });
      // The socket brings the change; if it has not within a moment, fetch the board.
      setTimeout(() => { if (!closed && view.version === version) load(); }, 1500);
      return true;
    } catch (err) {
      toast(err.message, 'error');
      notice(err.message, true);
      if (err.code === 'stale_move_number') load();
      return false;
    }
  }

  function clickSquare(sq) {
    if (!view) return;
    if (viewPly !== null) { viewPly = null; draw(); return; }
    if (!myTurn()) {
      if (canPremove()) return void clickPremove(sq);
      if (view.status === 'active' && mySeat()) toast(`It is ${view.to_move}'s move.`);
      return;
    }
    const moves = legal();
    if (selected) {
      const targets = targetsOf(selected);
      if (kind.cubes && targets.moves.includes(sq)) return void move(`${selected}-${sq}`);
      if (targets.singles?.includes(sq)) return void move(sq);
      if (targets.jumps?.includes(sq)) return void move(selected + sq);
    }
    // One of my pieces that can go somewhere: select it (or let go of it).
    const fromHere = kind.cubes ? targetsOf(sq).moves : [...targetsOf(sq).singles, ...targetsOf(sq).jumps];
    const content = new Map(kind.cells(positions[positions.length - 1])).get(sq);
    if (content === mySeat() && fromHere.length > 0) {
      selected = selected === sq ? null : sq;
      draw();
      return;
    }
    // A single or a placement names only its cell: it plays at once.
    if (moves.includes(sq)) return void move(sq);
    refuse(sq);
  }

  /** A click that plays nothing: say why, and shake the board. */
  function refuse(sq) {
    const content = new Map(kind.cells(positions[positions.length - 1])).get(sq);
    const from = selected;
    const piece = kind.cubes ? 'cube' : 'piece';
    selected = null;
    draw();
    let why = `No ${piece} of yours can reach ${sq}.`;
    if (content === '-') why = `${sq} is blocked.`;
    else if (content === mySeat()) why = `Your ${piece} on ${sq} has no move.`;
    else if (content) why = `${sq} holds an opponent's ${piece}: pick one of yours.`;
    else if (from) why = `Your ${piece} on ${from} cannot reach ${sq}.`;
    notice(why, true);
  }

  /** A line under the status: a refused move, a rejected offer, a waiting premove. */
  function notice(text, refused = false) {
    $('#notice').textContent = text;
    if (!refused) return;
    const box = $('#board');
    box.classList.remove('refused');
    void box.offsetWidth; // restarts the animation
    box.classList.add('refused');
  }

  // --- premoves: in a live game, one move chosen while the opponent thinks
  const canPremove = () => view.status === 'active' && !!view.clock && mySeat() !== null && !kind.cubes && viewPly === null;

  /** Picks a piece, then its destination; any click while a premove waits cancels it. */
  function clickPremove(sq) {
    const content = new Map(kind.cells(positions[positions.length - 1])).get(sq);
    if (premove) {
      premove = null;
      notice('Premove cancelled.');
    } else if (content === mySeat()) {
      selected = selected === sq ? null : sq;
    } else if (selected) {
      const { singles, jumps } = premoveTargets(kind, positions[positions.length - 1], selected);
      const text = singles.includes(sq) ? sq : jumps.includes(sq) ? selected + sq : null;
      if (text) {
        premove = { text, from: selected, to: sq };
        notice(`Premove ${text}: played when your turn comes. Click the board to cancel it.`);
      }
      selected = null;
    }
    draw();
  }

  /** Plays the waiting premove once the turn comes, if it is still legal then. */
  function playPremove() {
    if (!premove) return;
    if (view.status !== 'active') { premove = null; draw(); return; }
    if (!myTurn()) return;
    const { text } = premove;
    premove = null;
    if (legal().includes(text)) move(text);
    else { notice(`The premove ${text} is no longer legal.`, true); draw(); }
  }

  async function move(text) {
    selected = null;
    hint = null;
    notice('');
    $('#analysis').textContent = '';
    draw();
    await send(text);
  }

  $('#move-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = $('#move-input');
    const text = input.value.trim();
    if (!text) return;
    if (await send(text)) input.value = '';
  });

  // Resigning asks once more on the button itself.
  let resignArmed = null;
  $('#resign').addEventListener('click', async () => {
    const button = $('#resign');
    if (!resignArmed) {
      button.textContent = 'Really resign?';
      resignArmed = setTimeout(() => { resignArmed = null; button.textContent = 'Resign'; }, 4000);
      return;
    }
    clearTimeout(resignArmed);
    resignArmed = null;
    button.textContent = 'Resign';
    await send('resign');
  });
  $('#undo').addEventListener('click', () => send('undo'));
  $('#draw').addEventListener('click', () => send('propose'));
  $('#swap').addEventListener('click', () => move('swap'));
  $('#flip').addEventListener('click', () => {
    const flipped = root.querySelector('.board-col').classList.toggle('flipped');
    $('#flip').setAttribute('aria-pressed', String(flipped));
  });
  $('#proposal').addEventListener('click', async (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    if (button.dataset.word) send(button.dataset.word);
    if (button.dataset.answer) {
      try { await api(`/api/games/${board}/${button.dataset.answer}`, { method: 'POST' }); } catch (err) { toast(err.message, 'error'); }
    }
  });

  $('#analyse').addEventListener('click', async () => {
    const out = $('#analysis');
    out.textContent = 'Thinking…';
    try {
      const result = await api(`/api/analysis?fen=${encodeURIComponent([view.start_fen, ...view.moves.map((m) => m.fen)][shown()])}`);
      if (!result.best) { out.textContent = 'The game is over in this position.'; return; }
      if (result.best === '0000') { out.textContent = `${result.turn} has no move and must pass.`; return; }
      const score = result.outcome ? `${result.turn} ${result.outcome === 'win' ? 'wins' : 'loses'} with best play`
        : `${result.score >= 0 ? '+' : ''}${result.score.toFixed(1)} pieces for ${result.turn}`;
      out.innerHTML = `Best for ${result.turn}: <strong id="best-move">${esc(result.best)}</strong>, ${esc(score)} <span class="muted">(${esc(result.analyser)})</span>`;
      const mv = moveCells(result.best);
      hint = { from: mv.from, to: mv.to };
      draw();
    } catch (err) {
      out.textContent = err.message;
    }
  });

  $('#chat-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = $('#chat-input');
    const text = input.value.trim();
    if (!text) return;
    try {
      await api(`/api/games/${board}/chat`, { method: 'POST', body: { text } });
      input.value = '';
    } catch (err) {
      toast(err.message, 'error');
    }
  });

  // --- replay
  function step(kind) {
    if (!view) return;
    const last = view.moves.length;
    const current = shown();
    const target = { start: 0, back: Math.max(0, current - 1), forward: Math.min(last, current + 1), end: last }[kind];
    viewPly = target === last ? null : target;
    selected = null;
    draw();
  }
  root.querySelector('.replay').addEventListener('click', (event) => {
    const button = event.target.closest('button[data-step]');
    if (button) step(button.dataset.step);
  });
  $('#moves').addEventListener('click', (event) => {
    const cell = event.target.closest('[data-ply]');
    if (!cell) return;
    const ply = Number(cell.dataset.ply);
    viewPly = ply === view.moves.length ? null : ply;
    draw();
  });
  const onKey = (event) => {
    if (event.target.closest('input, textarea, select')) return;
    const kind = { ArrowLeft: 'back', ArrowRight: 'forward', Home: 'start', End: 'end' }[event.key];
    if (kind) { event.preventDefault(); step(kind); }
    if (event.key === 'Escape' && selected) { selected = null; draw(); }
  };
  document.addEventListener('keydown', onKey);

  // --- the live stream
  async function load() {
    if (closed) return;
    try {
      setView(await api(`/api/games/${board}`), true);
      drawChat();
    } catch (err) {
      if (closed) return;
      if (err.status === 404 || err.status === 400) noSuchGame();
      else $('#status').textContent = err.message;
    }
  }

  /** A board that does not exist: say so instead of showing controls, and stop listening. */
  function noSuchGame() {
    closed = true;
    socket.close();
    document.title = 'No such game · Ataxx';
    root.innerHTML = `<section class="card no-such-game"><h1>No such game</h1>
      <p>There is no board ${esc(String(board))} on this server.</p><p><a href="#/">Back to the lobby</a></p></section>`;
  }

  const PROPOSALS = { draw: 'draw offer', undo: 'request to take back the last move' };
  /** A rejected proposal, told to the other players (the proposer first of all). */
  function noteRejection({ proposal, by }) {
    if (by === me || !mySeat()) return;
    const text = `${by} rejected ${view.proposal?.by === me ? 'your' : 'the'} ${PROPOSALS[proposal] ?? proposal}.`;
    notice(text);
    toast(text);
  }

  function onMessage(event) {
    if (event.type === 'snapshot') {
      setView(event.game, true);
      drawChat();
      return;
    }
    if (!view || event.board !== board || event.version === undefined || event.version <= view.version) return;
    const summary = { ...event.game, moves: view.moves, chat: view.chat };
    switch (event.type) {
      case 'moves':
        if (event.moves[0].ply !== view.moves.length + 1) { socket.send({ type: 'resync' }); return; }
        summary.moves = view.moves.concat(event.moves);
        break;
      case 'undone':
        summary.moves = view.moves.slice(0, event.ply);
        break;
      case 'chat':
        summary.chat = view.chat.concat([event.chat]);
        break;
      default:
        break;
    }
    if (summary.moves.length !== event.ply) { socket.send({ type: 'resync' }); return; }
    if (event.type === 'rejected') noteRejection(event);
    setView(summary, event.type === 'moves');
    if (event.type === 'chat') drawChat();
    if (event.type === 'ended') toast(statusText());
  }

  const socket = new LiveSocket(() => `/api/games/${board}/ws${view ? `?since=${view.version}` : ''}`, {
    onMessage,
    onStatus: (status) => {
      const line = $('#connection');
      line.textContent = status === 'live' ? '' : 'Connection lost: reconnecting…';
      line.className = `connection ${status}`;
      // A socket refused before any board came: ask whether the board exists at all.
      if (status !== 'live' && !view) load();
    },
  });
  const ticker = setInterval(tick, 250);
  // Without a socket (a proxy that refuses them), the board still shows.
  const fallback = setTimeout(() => { if (!view) load(); }, 3000);
  // Back from sleep or a lost network: reconnect at once rather than after the back-off.
  const onOnline = () => socket.reconnect();
  window.addEventListener('online', onOnline);

  return () => {
    closed = true;
    clearInterval(ticker);
    clearTimeout(fallback);
    socket.close();
    nextStep.close();
    document.removeEventListener('keydown', onKey);
    window.removeEventListener('online', onOnline);
    detachKeyboard();
    setPageTitle('Ataxx');
  };
}

// A game page: the live board, clocks, moves, proposals, chat, replay and analysis.

import { api, esc, formatClock, LiveSocket } from './api.js';
import { Board } from './board.js';
import { mustPass, parseMove, pieceAt, play, replay, singleTargets, targetsOf, toFen } from './rules.js';

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
        <div class="player-bar" id="bar-top"></div>
        <div id="board" class="board-box"></div>
        <div class="player-bar" id="bar-bottom"></div>
        <div class="replay" role="group" aria-label="replay">
          <button type="button" data-step="start" title="First position (Home)" aria-label="first position"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5h2v14H6zM20 5v14L9 12z"/></svg></button>
          <button type="button" data-step="back" title="Back (←)" aria-label="back"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M17 5v14L6 12z"/></svg></button>
          <span id="ply-label">0 / 0</span>
          <button type="button" data-step="forward" title="Forward (→)" aria-label="forward"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 5v14l11-7z"/></svg></button>
          <button type="button" data-step="end" title="Latest position (End)" aria-label="latest position"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M16 5h2v14h-2zM4 5v14l11-7z"/></svg></button>
        </div>
      </div>
      <aside class="side">
        <div class="card status-card">
          <p id="status" class="status"></p>
          <p id="connection" class="connection"></p>
          <div id="proposal"></div>
          <form id="move-form" class="move-form" autocomplete="off">
            <input id="move-input" placeholder="Type a move: d4 or c3b5" aria-label="move" spellcheck="false">
            <button type="submit">Move</button>
          </form>
          <div class="actions">
            <button type="button" id="resign" class="danger">Resign</button>
            <button type="button" id="undo">Propose undo</button>
            <button type="button" id="draw">Offer draw</button>
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
          <form id="chat-form" autocomplete="off"><input id="chat-input" placeholder="Say something" maxlength="2000" aria-label="chat message"><button type="submit">Send</button></form>
        </div>
      </aside>
    </div>`;
  const $ = (sel) => root.querySelector(sel);
  let view = null;
  let positions = [];
  let viewPly = null; // null: follow the game; else the number of moves shown
  let selected = null;
  let hint = null;
  let clockBase = null;
  let closed = false;
  let animation = null;
  const boardView = new Board($('#board'), { onSquare: clickSquare });

  const shown = () => (viewPly === null ? positions.length - 1 : viewPly);
  const mySeat = () => (view && view.x === me ? 'x' : view && view.o === me ? 'o' : null);
  const myTurn = () => view && view.status === 'active' && view.to_move === me && viewPly === null;

  function setView(next, animate) {
    const before = view ? view.moves.length : Infinity;
    view = next;
    positions = replay(view.start_fen, view.moves);
    clockBase = view.clock ? { ...view.clock, at: performance.now() } : null;
    if (viewPly !== null && viewPly > view.moves.length) viewPly = null;
    selected = null;
    animation = null;
    if (animate && viewPly === null && view.moves.length > before) {
      // Animate the last real move (the passes after it change nothing on the board).
      let i = view.moves.length - 1;
      while (i > 0 && view.moves[i].auto) i--;
      const mv = parseMove(view.moves[i].move);
      if (mv) animation = { from: mv.from, to: mv.to, flipped: play(positions[i], view.moves[i].move).flipped };
    }
    draw();
  }

  function draw() {
    if (!view) return;
    const ply = shown();
    const pos = positions[ply];
    const last = ply > 0 ? parseMove(view.moves[ply - 1].move) : null;
    const marks = { selected, lastFrom: last?.from, lastTo: last?.to, hintFrom: hint?.from, hintTo: hint?.to };
    if (selected) Object.assign(marks, targetsOf(pos, selected));
    boardView.render(pos, marks, animation);
    animation = null;
    drawPlayers(pos);
    drawStatus();
    drawMoves();
    $('#ply-label').textContent = `${ply} / ${view.moves.length}`;
    $('#image-svg').href = `/board/${board}.svg?ply=${ply}`;
    $('#image-png').href = `/board/${board}.png?ply=${ply}`;
    const playing = mySeat() !== null && view.status === 'active';
    for (const id of ['#resign', '#undo', '#draw']) $(id).disabled = !playing || !!view.proposal;
    $('#move-form').hidden = !playing;
    $('#chat-form').hidden = mySeat() === null;
    document.title = myTurn() ? `Your move · board ${board} · Ataxx` : `Board ${board} · Ataxx`;
  }

  function drawPlayers(pos) {
    const bottom = mySeat() ?? 'x';
    const top = bottom === 'x' ? 'o' : 'x';
    for (const [id, seat] of [['#bar-top', top], ['#bar-bottom', bottom]]) {
      const name = view[seat];
      const pieces = pos.cells.flat().filter((c) => c === seat).length;
      const moving = view.status === 'active' && view.to_move === name;
      $(id).className = `player-bar ${moving ? 'to-move' : ''}`;
      $(id).dataset.seat = seat;
      const change = view[`${seat}_rating_change`];
      $(id).innerHTML = `
        <span class="dot ${seat}"></span>
        <a class="name" href="#/user/${esc(name)}">${esc(name)}</a>
        ${change != null ? `<span class="muted">${change >= 0 ? '+' : ''}${Math.round(change)}</span>` : ''}
        <span class="pieces" data-pieces="${seat}">${pieces}</span>
        <span class="clock ${view.clock ? '' : 'hidden'}" data-clock="${seat}"></span>`;
    }
    tick();
  }

  function tick() {
    if (!clockBase || closed) return;
    for (const seat of ['x', 'o']) {
      const node = root.querySelector(`[data-clock="${seat}"]`);
      if (!node) continue;
      let ms = clockBase[`${seat}_ms`];
      if (clockBase.running === seat && view.status === 'active') ms -= performance.now() - clockBase.at;
      node.textContent = formatClock(ms);
      node.classList.toggle('running', clockBase.running === seat && view.status === 'active');
      node.classList.toggle('low', ms < 20000);
    }
  }

  function statusText() {
    const opponent = mySeat() === 'x' ? view.o : view.x;
    switch (view.status) {
      case 'challenge': {
        const waiting = [view.accepted.x ? null : view.x, view.accepted.o ? null : view.o].filter(Boolean);
        return waiting.includes(me) ? `${opponent} challenges you.` : `Waiting for ${waiting.join(' and ')} to accept.`;
      }
      case 'declined': return 'The challenge was declined.';
      case 'withdrawn': return 'The challenge was withdrawn.';
      case 'finished': {
        const how = TERMINATIONS[view.termination] ?? view.termination;
        const score = `${view.x_pieces}–${view.o_pieces}`;
        const who = !view.winner ? 'Draw' : view.winner === me ? 'You win' : `${view.winner} wins`;
        return `${[who, how].filter(Boolean).join(' ')}, ${score}.`;
      }
      default: {
        const lastAuto = view.moves.length > 0 && view.moves[view.moves.length - 1].auto;
        const passed = lastAuto ? `${view.to_move === view.x ? view.o : view.x} has no move and passes. ` : '';
        return passed + (view.to_move === me ? 'Your move.' : `${view.to_move} to move.`);
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
    if (view.status === 'challenge' && !view.accepted[mySeat()] && mySeat()) {
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

  function drawMoves() {
    const rows = [];
    const oFirst = view.start_fen.split(' ')[1] === 'o';
    const cells = view.moves.map((m, i) => {
      const text = m.auto ? 'pass' : m.move;
      const title = m.auto ? 'forced pass' : `${m.flips} flipped`;
      return `<td class="mv ${m.auto ? 'auto' : ''} ${shown() === i + 1 ? 'current' : ''}" data-ply="${i + 1}" title="${title}">
        ${esc(text)}${m.auto ? '' : `<sup>${m.flips ? `+${m.flips}` : ''}</sup>`}</td>`;
    });
    if (oFirst) cells.unshift('<td></td>');
    for (let i = 0; i < cells.length; i += 2) {
      rows.push(`<tr><th>${i / 2 + 1}</th>${cells[i]}${cells[i + 1] ?? '<td></td>'}</tr>`);
    }
    $('#moves').innerHTML = `<thead><tr><th></th><th><span class="dot x"></span> ${esc(view.x)}</th><th><span class="dot o"></span> ${esc(view.o)}</th></tr></thead><tbody>${rows.join('')}</tbody>`;
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
      if (err.code === 'stale_move_number') load();
      return false;
    }
  }

  function clickSquare(sq) {
    if (!view) return;
    if (viewPly !== null) { viewPly = null; draw(); return; }
    if (!myTurn()) {
      if (view.status === 'active' && mySeat()) toast(`It is ${view.to_move}'s move.`);
      return;
    }
    const pos = positions[positions.length - 1];
    const seat = mySeat();
    if (pieceAt(pos, sq) === seat) {
      selected = selected === sq ? null : sq;
      draw();
      return;
    }
    if (selected) {
      const { singles, jumps } = targetsOf(pos, selected);
      if (singles.includes(sq)) return void move(sq);
      if (jumps.includes(sq)) return void move(selected + sq);
    }
    if (pieceAt(pos, sq) === '' && singleTargets(pos, seat).has(sq)) return void move(sq);
    if (selected) { selected = null; draw(); }
  }

  async function move(text) {
    selected = null;
    hint = null;
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
  $('#proposal').addEventListener('click', async (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    if (button.dataset.word) send(button.dataset.word);
    if (button.dataset.answer) {
      try { await api(`/api/games/${board}/${button.dataset.answer}`, { method: 'POST' }); } catch (err) { toast(err.message, 'error'); }
    }
  });

  $('#analyse').addEventListener('click', async () => {
    const pos = positions[shown()];
    const out = $('#analysis');
    if (mustPass(pos)) { out.textContent = `${pos.turn} has no move and must pass.`; return; }
    out.textContent = 'Thinking…';
    try {
      const result = await api(`/api/analysis?fen=${encodeURIComponent(toFen(pos))}`);
      if (!result.best) { out.textContent = 'The game is over in this position.'; return; }
      const score = result.outcome ? `${result.turn} ${result.outcome === 'win' ? 'wins' : 'loses'} with best play`
        : `${result.score >= 0 ? '+' : ''}${result.score.toFixed(1)} pieces for ${result.turn}`;
      out.innerHTML = `Best for ${result.turn}: <strong id="best-move">${esc(result.best)}</strong>, ${esc(score)} <span class="muted">(${esc(result.analyser)})</span>`;
      const mv = parseMove(result.best);
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
    try {
      setView(await api(`/api/games/${board}`), true);
      drawChat();
    } catch (err) {
      $('#status').textContent = err.message;
    }
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
    document.removeEventListener('keydown', onKey);
    window.removeEventListener('online', onOnline);
    document.title = 'Ataxx';
  };
}

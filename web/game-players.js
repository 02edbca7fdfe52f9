// The game page's player bars: each seat's name, rating change, pieces, rank and clock, me (or
// seat 0) at the bottom. The clocks count down between the server's updates.

import { api, esc, formatClock } from './api.js';
import { sounds } from './sound.js';

/** A rank of four at most: 1st to 4th. */
const ordinal = (n) => `${n}${['st', 'nd', 'rd'][n - 1] ?? 'th'}`;

/** The clocks of the player bars, counted down from the last time the server set them. */
export class Clocks {
  constructor(page) {
    this.page = page;
    this.base = null; // the server's clock and when it came: {x_ms, o_ms, running, at}
    this.lowTimeWarned = false;
  }

  /** The game's clock as the server sent it (null in correspondence). */
  set(clock) {
    this.base = clock ? { ...clock, at: performance.now() } : null;
  }

  tick() {
    const { base, page } = this;
    if (!base || page.closed) return;
    const { view } = page;
    for (const seat of view.seats) {
      const node = page.root.querySelector(`[data-clock="${seat.letter}"]`);
      if (!node) continue;
      let ms = base[`${seat.letter}_ms`] ?? seat.clock_ms;
      const running = base.running === seat.letter && view.status === 'active';
      if (running) ms -= performance.now() - base.at;
      node.textContent = formatClock(ms);
      node.classList.toggle('running', running);
      node.classList.toggle('low', ms < 20000);
      // One warning each time my own running clock falls under ten seconds.
      if (running && seat.name === page.me) {
        if (ms < 10000 && !this.lowTimeWarned) sounds.lowTime();
        this.lowTimeWarned = ms < 10000;
      }
    }
  }
}

/** Asks each player's rating once, then draws the bars again with them. */
function loadRatings(page, pos) {
  page.ratings = {};
  for (const { name } of page.view.seats) {
    api(`/api/users/${encodeURIComponent(name)}`).then((user) => {
      // The rating in this game; a player new to it has the starting one.
      const rating = user.game === page.view.game ? user.rating_text : user.ratings?.[page.view.game]?.rating_text;
      if (page.closed) return;
      page.ratings[name] = rating ?? '1500?';
      drawPlayers(page, pos);
    }).catch(() => {}); // a bar without a rating says nothing wrong
  }
}

/** Seat rows of the player bars: me (or seat 0) at the bottom, the others above. */
export function drawPlayers(page, pos) {
  const { view, $ } = page;
  if (!page.ratings) loadRatings(page, pos);
  const counts = {};
  for (const [, c] of page.kind.cells(pos)) counts[c] = (counts[c] ?? 0) + 1;
  const bottom = page.mine() ?? view.seats[0];
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
      ${page.ratings[seat.name] ? `<span class="muted rating">${esc(page.ratings[seat.name])}</span>` : ''}
      ${change != null ? `<span class="muted">${change >= 0 ? '+' : ''}${Math.round(change)}</span>` : ''}
      ${out ? '<span class="muted out-tag">out</span>' : ''}${rank}${reserve}
      <span class="pieces" data-pieces="${seat.letter}">${counts[seat.letter] ?? 0}</span>
      <span class="clock ${view.clock ? '' : 'hidden'}" data-clock="${seat.letter}"></span></div>`;
  }).join('');
  $('#bar-top').innerHTML = rows(view.seats.filter((s) => s !== bottom).reverse());
  $('#bar-bottom').innerHTML = rows([bottom]);
  page.clocks.tick();
}

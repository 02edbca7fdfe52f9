// What a finished game offers next: its players a rematch (the same game and options, the
// colours swapped) and a new game, spectators a new game. A rematch is an ordinary challenge
// between the same players made after the game ended; the other players' finished pages hear
// of it on their own event stream and offer to accept it.

import { api, esc, LiveSocket } from './api.js';
import { gameOf } from './kinds.js';

/** The size and options of the game `view` is, as POST /api/games takes them. */
function sameOptions(view) {
  const options = {};
  // Every game's start position says its size; Ankor's says its win height too.
  const start = gameOf(view.game).parse(view.start_fen);
  options.size = String(start.n);
  if (start.winHeight !== undefined) options.win_height = String(start.winHeight);
  if (view.blocks && view.blocks !== '0') options.blocks = view.blocks;
  if (view.clock) {
    options.clock = `${view.clock.initial_ms / 60000}+${view.clock.increment_ms / 1000}`;
  } else if (view.correspondence) {
    const { nag_days: nag, forfeit_days: forfeit, total_days: total } = view.correspondence;
    Object.assign(options, { nagtime: String(nag), forfeittime: String(forfeit) });
    if (total != null) options.totaltime = String(total);
  }
  return options;
}

/**
 * The challenge that replays `view` for `me`: two players swap colours; four play again in the
 * same turn order from the rematcher on (a challenger can only take the first or second seat).
 */
export function rematchChallenge(view, me) {
  const at = view.seats.findIndex((s) => s.name === me);
  const others = [...view.seats.slice(at + 1), ...view.seats.slice(0, at)].map((s) => s.name);
  const color = view.seats.length === 2 && at === 0 ? 'o' : 'x';
  return { game: view.game, opponents: others, color, options: sameOptions(view) };
}

const samePlayers = (a, b) => a.length === b.length && a.every((s) => b.some((t) => t.name === s.name));

/** The next step below a finished game's status; `update(view)` after each change of the board. */
export class NextStep {
  constructor(container, { me, toast }) {
    this.container = container;
    this.me = me;
    this.toast = toast;
    this.view = null;
    this.offer = null; // the open rematch: a challenge summary
    this.socket = null;
    container.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-rematch]');
      if (button) this.act(button.dataset.rematch);
    });
  }

  update(view) {
    this.view = view;
    if (view.status !== 'finished' || !this.me) {
      this.container.innerHTML = '';
      return;
    }
    if (this.playing() && !this.socket) {
      // Rematches offered and accepted arrive on my own stream.
      this.socket = new LiveSocket(() => '/api/ws', { onMessage: (event) => this.heard(event) });
      this.look();
    }
    this.render();
  }

  playing() {
    return this.view.seats.some((s) => s.name === this.me);
  }

  render() {
    const newGame = '<a class="button" href="#/" id="new-game">New game</a>';
    const offer = this.offer;
    let html = `<button type="button" class="primary" data-rematch="offer" id="rematch">Rematch</button> ${newGame}`;
    if (!this.playing()) html = newGame;
    else if (offer && offer.seats.find((s) => s.name === this.me)?.accepted) {
      const waiting = offer.seats.filter((s) => !s.accepted).map((s) => esc(s.name)).join(' and ');
      html = `<p class="rematch-note">Rematch offered: waiting for ${waiting} (<a href="#/game/${offer.board}">board ${offer.board}</a>).</p>
        <button type="button" data-rematch="withdraw">Withdraw</button> ${newGame}`;
    } else if (offer) {
      const by = offer.seats.find((s) => s.accepted)?.name ?? '';
      html = `<p class="rematch-note">${esc(by)} offers a rematch.</p>
        <button type="button" class="primary" data-rematch="accept" id="accept-rematch">Accept rematch</button>
        <button type="button" data-rematch="decline">Decline</button> ${newGame}`;
    }
    this.container.innerHTML = `<div class="actions">${html}</div>`;
  }

  /** Finds an open rematch of this game (a challenge between the same players made since). */
  async look() {
    try {
      const open = await api(`/api/games?player=${encodeURIComponent(this.me)}&status=challenge`);
      this.offer = open.find((g) => this.isRematch(g)) ?? null;
      this.render();
    } catch { /* the next event looks again */ }
  }

  heard(event) {
    // A rematch (mine or theirs) began: open it, whether or not its offer was seen here.
    if (event.type === 'started' && this.isRematch(event.game)) {
      location.hash = `#/game/${event.board}`;
    } else if (event.type === 'challenge' || event.type === 'cancelled') {
      this.look();
    }
  }

  /** Whether `game` is a game between the same players made since this one ended. */
  isRematch(game) {
    return !!game && game.created_ms >= this.view.finished_ms && samePlayers(game.seats, this.view.seats);
  }

  async act(what) {
    try {
      if (what === 'offer') {
        const created = await api('/api/games', { method: 'POST', body: rematchChallenge(this.view, this.me) });
        if (created.status === 'active') location.hash = `#/game/${created.board}`;
        else this.look();
        return;
      }
      const game = await api(`/api/games/${this.offer.board}/${what}`, { method: 'POST' });
      if (game.status === 'active') location.hash = `#/game/${game.board}`;
      else this.look();
    } catch (err) {
      this.toast(err.message, 'error');
    }
  }

  close() {
    this.socket?.close();
  }
}

// The game page's status: the line that says whose move it is or how the game ended (from the
// reader's side), and under it the open challenge or proposal to answer.

import { esc } from './api.js';

const TERMINATIONS = {
  rules: '',
  resignation: 'by resignation',
  'time forfeit': 'on time',
  agreement: 'by agreement',
};

/** The status line's words. */
export function statusText(page) {
  const { view, me } = page;
  const names = (seats) => seats.map((s) => s.name).join(' and ');
  switch (view.status) {
    case 'challenge': {
      const waiting = view.seats.filter((s) => !s.accepted);
      return waiting.some((s) => s.name === me)
        ? `${names(view.seats.filter((s) => s.accepted))} challenges you.`
        : `Waiting for ${names(waiting)} to accept.`;
    }
    case 'declined': return 'The challenge was declined.';
    case 'withdrawn': return view.termination === 'aborted' ? `Aborted: ${view.unrated_reason}.` : 'The challenge was withdrawn.';
    case 'finished': {
      const how = TERMINATIONS[view.termination] ?? view.termination;
      // From the reader's side: a player reads their own outcome and pieces first, a
      // spectator the winner's.
      const reader = page.mine();
      const who = { win: 'You win', loss: 'You lose', draw: 'Draw' }[reader?.outcome] ?? (view.winner ? `${view.winner} wins` : 'Draw');
      const first = reader ?? view.seats.find((s) => s.name === view.winner);
      const order = first && view.seats.length === 2 ? [first, ...view.seats.filter((s) => s !== first)] : view.seats;
      // Counting decides the Ataxx games; Ankor's cubes on the board say nothing of the result.
      const score = page.kind.cubes ? '' : `, ${order.map((s) => s.pieces).join('–')}`;
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
      // A live game's clocks start with each side's first move, which has a deadline of its own.
      const firstMove = view.clock?.first_move_by_ms
        ? ` The clock starts with the first move: without it by ${new Date(view.clock.first_move_by_ms).toLocaleTimeString()} the game is aborted.`
        : '';
      return swapped + passed + (view.to_move === me ? 'Your move.' : `${view.to_move} to move.`) + firstMove;
    }
  }
}

const DAY_MS = 24 * 3600 * 1000;

/** "3 days", "5 hours", "under an hour": how long until a correspondence deadline. */
function until(ms) {
  if (ms >= 2 * DAY_MS) return `${Math.round(ms / DAY_MS)} days`;
  const hours = Math.floor(ms / 3600000);
  return hours >= 1 ? `${hours} hour${hours === 1 ? '' : 's'}` : 'under an hour';
}

/** The time control: "3+2" (minutes and seconds a move), "12 s+0" below a minute. */
function timeControl({ initial_ms: initial, increment_ms: increment }) {
  const base = initial % 60000 === 0 ? `${initial / 60000}` : `${initial / 1000} s`;
  return `${base}+${increment / 1000}`;
}

/**
 * The line under the status: rated or casual, the time control, and in a correspondence game
 * in play how long the player to move has before the reminder and the forfeit.
 */
export function gameInfo(view, now = Date.now()) {
  const parts = [view.rated ? 'Rated' : 'Casual'];
  const { correspondence: days } = view;
  if (view.clock) {
    parts.push(timeControl(view.clock));
  } else if (days) {
    parts.push(`correspondence, ${days.forfeit_days} days a move`);
    if (view.status === 'active') {
      const idle = now - (view.last_move_ms ?? view.started_ms ?? now);
      const reminder = days.nag_days * DAY_MS - idle;
      const forfeit = days.forfeit_days * DAY_MS - idle;
      if (!view.reminded && reminder > 0) parts.push(`${view.to_move} is reminded in ${until(reminder)}`);
      parts.push(`forfeits in ${until(Math.max(0, forfeit))}`);
    }
  }
  return parts.join(' · ');
}

export function drawStatus(page) {
  const { view, me, $ } = page;
  $('#game-info').textContent = gameInfo(view);
  const status = $('#status');
  status.textContent = statusText(page);
  status.className = `status ${view.status} ${page.myTurn() ? 'mine' : ''}`;
  if (page.viewPly !== null) {
    status.textContent += ` Showing move ${page.viewPly} of ${view.moves.length}: press End to return.`;
  }
  const proposal = $('#proposal');
  const mine = page.mine();
  if (view.status === 'challenge' && mine && !mine.accepted) {
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

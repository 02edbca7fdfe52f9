// The lobby's form that starts a game: against a computer level (the game opens) or a person
// (a challenge is sent), in the game chosen with its sizes, options, colour and clock; each
// part of the form shows what fits the game and the opponent chosen.

import { ask, esc } from './api.js';
import { gameOf } from './kinds.js';

/** The colours of the pieces' letters, as the colour note names them. */
const COLOURS = { x: 'red', o: 'blue', r: 'red', b: 'blue', g: 'green', y: 'yellow' };
const capitalised = (word) => word[0].toUpperCase() + word.slice(1);

/** The bots that play `game`: the built-in levels whose table has it, and every engine (an engine that does not play it declines, saying why). */
const botsFor = (lobby, game) => lobby.bots.filter((b) => b.engine || b.games.includes(game));

/** The fields of a computer or of a person as opponent. */
function showKind({ root, form }) {
  const person = form.kind.value === 'person';
  root.querySelectorAll('.person-only').forEach((e) => { e.hidden = !person; });
  root.querySelectorAll('.bot-only').forEach((e) => { e.hidden = person; });
  root.querySelector('#challenge-submit').textContent = person ? 'Send challenge' : 'Play';
}

function showBot({ $, form, bots }) {
  const bot = bots.find((b) => b.userid === form.bot.value);
  // A built-in level plays each game its own way; an engine has one description.
  $('#bot-description').textContent = bot ? (bot.descriptions?.[form.game.value] ?? bot.description) : '';
}

/**
 * The level menu offers the bots that play the chosen game, keeping the choice where it can.
 * Engines put on the server with `ataxx bot` come after the built-in levels, marked.
 */
export function showBotChoices(lobby) {
  const { form } = lobby;
  const chosen = form.bot.value;
  const offered = botsFor(lobby, form.game.value);
  // Each bot's rating in the chosen game (the server gives one for every game it is offered in).
  const rating = (b) => b.ratings?.[form.game.value]?.rating_text ?? b.rating_text;
  form.bot.innerHTML = offered.map((b) => `<option value="${esc(b.userid)}">${esc(b.level)}${b.engine ? ' · engine' : ''} (${esc(rating(b))})</option>`).join('');
  if (offered.some((b) => b.userid === chosen)) form.bot.value = chosen;
  showBot(lobby);
}

/** Which colour moves first and which one the player gets ("You play x" picks the first seat). */
function showColour({ $, form }) {
  const game = gameOf(form.game.value);
  if (!game) return;
  const named = { ...COLOURS };
  if (document.body.classList.contains('cb')) named.x = 'orange';
  const first = game.seats;
  const piece = (seat) => `<span class="dot ${first[seat]}"></span>${first[seat]} (${named[first[seat]]})`;
  const seat = { x: 0, o: 1 }[form.color.value];
  const names = first.map((letter) => named[letter]);
  $('#colour-note').innerHTML = first.length > 2
    ? `${capitalised(names[0])} moves first, then ${names.slice(1, -1).join(', ')} and ${names.at(-1)}. You play ${names[seat] ?? 'a seat drawn at random'}.`
    : `${piece(0)} moves first. You play ${seat === undefined ? 'a colour drawn at random' : piece(seat)}.`;
}

const showBlocks = ({ $, form }) => { $('#blocks').hidden = form.size.value !== '7' || !gameOf(form.game.value)?.layouts; };

/** Each game has its own sizes and options; four-player games name three opponents. */
function showGame(lobby) {
  const { root, form } = lobby;
  const game = gameOf(form.game.value);
  if (!game) return;
  form.size.innerHTML = game.sizes.map((n) => `<option value="${n}">${game.sizeLabel(n)}</option>`).join('');
  const fourPeople = game.seats.length > 2 && form.kind.value === 'person';
  root.querySelectorAll('.four-only').forEach((e) => { e.hidden = !fourPeople; });
  root.querySelectorAll('[data-game-option]').forEach((e) => { e.hidden = e.dataset.gameOption !== game.id; });
  showBlocks(lobby);
}

/** The games as the server names them, each with the options of its own (hidden until chosen). */
export function showGames(lobby, games) {
  const { $, form } = lobby;
  form.game.innerHTML = games.map((g) => `<option value="${g.id}">${esc(g.name)}</option>`).join('');
  for (const game of games.filter((g) => g.fields)) {
    const fields = document.createElement('template');
    fields.innerHTML = game.fields;
    for (const field of fields.content.children) Object.assign(field.dataset, { gameOption: game.id });
    $('#people').before(fields.content);
  }
  showGame(lobby);
  showColour(lobby);
  showBotChoices(lobby);
}

/** The computer players of a four-player game: the level chosen and the two built-in levels after it. */
function computerSeats(lobby, game, chosen) {
  const ids = botsFor(lobby, game).filter((b) => !b.engine || b.userid === chosen).map((b) => b.userid);
  const at = Math.max(ids.indexOf(chosen), 0);
  return [...ids.slice(at), ...ids.slice(0, at)].slice(0, 3);
}

/**
 * The game the form asks for, as `POST /api/games` takes it ({game, opponents, color, options}),
 * or a string saying what is missing.
 */
function wantedGame(lobby) {
  const { $, form } = lobby;
  const person = form.kind.value === 'person';
  const opponent = person ? form.opponent.value.trim() : form.bot.value;
  if (!opponent) return person ? 'Whom do you want to play? Type a user name.' : 'The computer levels have not loaded yet: the server cannot be reached.';
  const game = form.game.value;
  if (!gameOf(game)) return 'The games have not loaded yet: the server cannot be reached.';
  const { default_size: defaultSize, readOptions, seats } = gameOf(game);
  const options = {};
  if (Number(form.size.value) !== defaultSize) options.size = form.size.value;
  else if (lobby.mask && !$('#blocks').hidden) options.blocks = $('#layout-code').textContent;
  Object.assign(options, readOptions?.(form));
  // Four players: three people, or three computer players (one account takes one seat).
  const opponents = seats.length === 2 ? [opponent]
    : person ? [opponent, form.opponent3.value.trim(), form.opponent4.value.trim()] : computerSeats(lobby, game, opponent);
  if (opponents.some((name) => !name)) return 'A four-player game needs three opponents.';
  if (form.clock.value) options.clock = form.clock.value;
  return { game, opponents, color: form.color.value, options };
}

/** Play: a computer's game opens; a challenge to people is said, and listed. */
async function submitChallenge(lobby) {
  const error = lobby.$('#challenge-error');
  error.textContent = '';
  const body = wantedGame(lobby);
  if (typeof body === 'string') { error.textContent = body; return; }
  const created = await ask(error, '/api/games', { method: 'POST', body });
  if (!created) return;
  if (lobby.form.kind.value === 'person') {
    lobby.toast(`Challenge sent to ${body.opponents.join(', ')} (board ${created.board}).`);
    lobby.refresh();
  } else {
    location.hash = `#/game/${created.board}`;
  }
}

/** A click on someone online: the form set to challenge them. */
export function challengePerson(lobby, name) {
  const { form } = lobby;
  form.querySelector('[name=kind][value=person]').checked = true;
  showKind(lobby);
  form.opponent.value = name;
  form.opponent.focus();
}

/** Wires the form: each choice redraws what depends on it; `preview` shows a blocked layout. */
export function attachChallengeForm(lobby, preview) {
  const { form } = lobby;
  const on = (field, change) => field.addEventListener('change', () => change(lobby));
  form.querySelectorAll('[name=kind]').forEach((r) => on(r, showKind));
  on(form.bot, showBot);
  on(form.game, showBotChoices);
  on(form.color, showColour);
  on(form.game, showColour);
  on(form.size, showBlocks);
  on(form.game, showGame);
  form.game.addEventListener('change', () => preview(form.blocks.value));
  form.querySelectorAll('[name=kind]').forEach((r) => on(r, showGame));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submitChallenge(lobby);
  });
  showKind(lobby);
}

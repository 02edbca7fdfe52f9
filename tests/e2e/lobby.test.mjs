// The lobby's open seeks and quick pairing in every two-player game, concurrent accepts of one
// seek, the sounds a game makes (through a recording stand-in for the Web Audio API: headless
// Chromium plays nothing) and keyboard play on the Hexxagon and four-player boards. Every user
// name here starts with `lb`: all test files share one server.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  account, BASE, boardOf, call, cursorTo, gameOf, noScriptErrors, shot, tabToBoard, untilGame, waitText,
} from './common.mjs';

/**
 * Someone signed in (through the API, which waits longer than page actions: signing up and in
 * takes seconds on a loaded machine with a debug build) whose page shows the lobby.
 */
async function member(name, prepare = async () => {}) {
  const page = await account(name);
  await prepare(page);
  await page.goto(`${BASE}/#/login`);
  await page.evaluate((me) => localStorage.setItem('signedIn', me), name);
  await page.goto(`${BASE}/#/`);
  await page.reload();
  await page.waitForSelector('#challenge-form');
  await waitText(page, '#nav-me', name);
  return page;
}

const play = (page, board, move) => call(page, 'POST', `/api/games/${board}/move`, { move });
const activeGames = async (page, name) => call(page, 'GET', `/api/games?player=${name}&status=active`);

/** Chooses quick pairing's game and mode, then presses the clock's button. */
async function quickPair(page, game, mode, clock) {
  for (const [name, value] of [['pair-game', game], ['pair-mode', mode]]) {
    await page.click(`label:has(> [name=${name}][value=${value}])`);
    assert.ok(await page.isChecked(`[name=${name}][value=${value}]`));
  }
  await page.click(`.quick[data-clock="${clock}"]`);
}

test('the lobby shows the open seeks live and quick pairing; two people meet in Hexxagon 3+2 and in casual Ankor', async () => {
  const cy = await member('lbcy');
  const di = await member('lbdi');

  // Cy asks for rated Hexxagon 3+2 from the lobby; Di's lobby shows the seek as it is posted.
  await quickPair(cy, 'hexxagon', 'rated', '3+2');
  await waitText(cy, '#pair-status', 'Waiting for an opponent for 3+2 (rated Hexxagon)');
  assert.equal(await cy.getAttribute('.quick[data-clock="3+2"]', 'aria-pressed'), 'true');
  const row = '#lobby-seeks tr[data-owner="lbcy"]';
  await waitText(di, row, 'Hexxagon');
  await waitText(di, row, '3+2');
  await waitText(di, row, 'rated');
  await di.emulateMedia({ colorScheme: 'light' });
  await shot(di, 'lobby-seeks-light.png');
  await di.emulateMedia({ colorScheme: 'dark' });
  await shot(di, 'lobby-seeks-dark.png');
  await di.emulateMedia({ colorScheme: null });

  // Di presses the same: both land in one Hexxagon game.
  await quickPair(di, 'hexxagon', 'rated', '3+2');
  await di.waitForURL(/#\/game\/\d+$/);
  await cy.waitForURL(/#\/game\/\d+$/);
  const board = boardOf(di);
  assert.equal(boardOf(cy), board);
  const game = await call(di, 'GET', `/api/games/${board}`);
  assert.deepEqual([game.game, game.status, game.rated, game.clock.initial_ms, game.clock.increment_ms],
    ['hexxagon', 'active', true, 180000, 2000]);
  assert.deepEqual([game.x, game.o].sort(), ['lbcy', 'lbdi']);
  await cy.waitForSelector('#board polygon.hex', { state: 'attached' });
  await play(cy, board, 'resign');
  await waitText(cy, '#status', 'resignation');

  // Casual and rated seeks do not meet: Di's rated Ankor seek waits beside Cy's casual one,
  // until Di asks for casual too.
  await cy.goto(`${BASE}/#/`);
  await di.goto(`${BASE}/#/`);
  await quickPair(cy, 'ankor', 'casual', '');
  await waitText(di, row, 'casual');
  await quickPair(di, 'ankor', 'rated', '');
  await waitText(di, '#pair-status', 'Waiting for an opponent for correspondence (rated Ankor)');
  await waitText(cy, '#lobby-seeks tr[data-owner="lbdi"]', 'rated');
  assert.equal((await activeGames(di, 'lbdi')).length, 0, 'no game from a rated and a casual seek');
  // Pressing another mode moves the wait: Di's rated seek goes, Cy's casual one is taken.
  await quickPair(di, 'ankor', 'casual', '');
  await di.waitForURL(/#\/game\/\d+$/);
  await cy.waitForURL(/#\/game\/\d+$/);
  assert.equal(boardOf(cy), boardOf(di));
  const ankor = await call(di, 'GET', `/api/games/${boardOf(di)}`);
  assert.deepEqual([ankor.game, ankor.rated, ankor.clock], ['ankor', false, null]);
  assert.deepEqual(await call(di, 'GET', '/api/seeks'), [], 'no seek left behind');
  await play(cy, boardOf(cy), 'resign');
  await waitText(cy, '#status', 'resignation');
  for (const page of [cy, di]) await page.context().close();
  noScriptErrors();
});

test('two pages accept one seek at the same moment: one game, the other page told the seek was taken', async () => {
  const owner = await account('lbowen');
  const ana = await member('lbana');
  const bo = await member('lbbo');
  const seek = await call(owner, 'POST', '/api/seeks', { game: 'ataxx', clock: null, rated: true, color: 'random' }, 201);
  const accept = `#lobby-seeks tr[data-seek="${seek.id}"] button[data-act=accept]`;
  await Promise.all([ana.waitForSelector(accept), bo.waitForSelector(accept)]);

  // Both pages press Accept at one instant of the one clock they share. Two Playwright clicks
  // would not: under load the first accept's lobby message can remove the row from the other
  // page before its click lands, and that click then waits for a button that never comes back.
  const at = Date.now() + 1000;
  await Promise.all([ana, bo].map((page) => page.evaluate(([selector, when]) => {
    setTimeout(() => document.querySelector(selector).click(), when - Date.now());
  }, [accept, at])));
  // Each page ends on the game or with the message.
  const outcome = (page) => page.waitForFunction(() => (location.hash.startsWith('#/game/') ? 'game'
    : document.querySelector('#seek-taken')?.textContent ? 'taken' : null)).then((h) => h.jsonValue());
  const outcomes = await Promise.all([outcome(ana), outcome(bo)]);
  assert.deepEqual([...outcomes].sort(), ['game', 'taken'], `one page plays, one is told: ${outcomes}`);
  const [winner, loser] = outcomes[0] === 'game' ? [ana, bo] : [bo, ana];
  const winnerName = winner === ana ? 'lbana' : 'lbbo';

  const games = await activeGames(owner, 'lbowen');
  assert.equal(games.length, 1, 'exactly one game from the seek');
  assert.deepEqual([games[0].x, games[0].o].sort(), [winnerName, 'lbowen'].sort());
  assert.equal(boardOf(winner), games[0].board);
  const loserName = winner === ana ? 'lbbo' : 'lbana';
  assert.equal((await activeGames(loser, loserName)).length, 0);
  await waitText(loser, '#seek-taken', 'someone else took that seek');
  assert.match(loser.url(), /#\/$/, 'the other page stays in the lobby');
  await loser.waitForSelector(`#lobby-seeks tr[data-seek="${seek.id}"]`, { state: 'detached' });
  await shot(loser, 'lobby-seek-taken.png');
  await play(owner, games[0].board, 'resign');
  await waitText(winner, '#status', 'resignation');
  for (const page of [owner, ana, bo]) await page.context().close();
  noScriptErrors();
});

/**
 * Replaces the Web Audio API with a recorder: every oscillator started is noted with the sound
 * it belongs to (sound.js reads `currentTime` once per sound, and this clock moves 100 s a read).
 */
function recordSounds(page) {
  return page.addInitScript(() => {
    window.notesPlayed = [];
    let reads = 0;
    class RecordingAudioContext {
      constructor() { this.state = 'running'; this.destination = {}; }
      get currentTime() { reads += 1; return reads * 100; }
      resume() { return Promise.resolve(); }
      createGain() {
        return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (next) => next };
      }
      createOscillator() {
        const oscillator = {
          type: 'sine',
          frequency: { value: 0 },
          connect: (next) => next,
          stop() {},
          start: (at) => window.notesPlayed.push({ sound: Math.floor(at / 100), frequency: oscillator.frequency.value }),
        };
        return oscillator;
      }
    }
    window.AudioContext = RecordingAudioContext;
    window.webkitAudioContext = RecordingAudioContext;
  });
}

/** The sounds recorded since the last call, named by their shape. */
async function soundsHeard(page) {
  const notes = await page.evaluate(() => window.notesPlayed.splice(0));
  const sounds = new Map();
  for (const { sound, frequency } of notes) sounds.set(sound, [...(sounds.get(sound) ?? []), frequency]);
  return [...sounds.values()].map((f) => {
    if (f.length === 1) return 'move';
    if (f.length === 3 && f[0] < f[1] && f[1] < f[2]) return 'end';
    if (f.length === 2 && f[0] < f[1]) return 'capture';
    if (f.length === 2 && f[0] === f[1]) return 'low time';
    return `unknown ${f}`;
  });
}

/** Waits until the page has sounded something, then returns what. */
async function nextSounds(page) {
  await page.waitForFunction(() => window.notesPlayed.length > 0);
  await page.waitForTimeout(100); // the notes of one sound start together
  return soundsHeard(page);
}

test('sounds: a move, a capture by flip, the end and low time each sound when on; nothing when off', async () => {
  const sam = await member('lbsam', recordSounds);
  const tom = await account('lbtom');

  /** A live casual game of 12 s a side: Sam plays x on his page, Tom o by API. */
  async function game() {
    const seek = await call(tom, 'POST', '/api/seeks', { game: 'ataxx', clock: '0.2+0', rated: false, color: 'o' }, 201);
    const started = await sam.evaluate((id) => fetch(`/api/seeks/${id}/accept`, { method: 'POST' }).then((r) => r.json()), seek.id);
    await sam.goto(`${BASE}/#/game/${started.board}`);
    await waitText(sam, '#status', 'Your move');
    return started.board;
  }

  await sam.check('#sound-toggle');
  await soundsHeard(sam); // the toggle's own sample
  let board = await game();
  await play(sam, board, 'b6');
  assert.deepEqual(await nextSounds(sam), ['move'], 'a single without flips');
  await play(tom, board, 'g7e6');
  assert.deepEqual(await nextSounds(sam), ['move'], "the opponent's jump without flips");
  await play(sam, board, 'b6d6');
  assert.deepEqual(await nextSounds(sam), ['capture'], 'the jump next to e6 flips it');
  await play(tom, board, 'b2');
  assert.deepEqual(await nextSounds(sam), ['move']);
  // Sam's 12 s run down: under 10 s the low-time beeps sound once.
  assert.deepEqual(await nextSounds(sam), ['low time']);
  await play(sam, board, 'resign');
  assert.deepEqual(await nextSounds(sam), ['end']);
  await waitText(sam, '#status', 'You lose by resignation');

  // Sounds off: the same moves, low time and the end make none.
  await sam.uncheck('#sound-toggle');
  board = await game();
  for (const [player, move] of [[sam, 'b6'], [tom, 'g7e6'], [sam, 'b6d6'], [tom, 'b2']]) {
    const before = (await call(sam, 'GET', `/api/games/${board}`)).ply;
    await play(player, board, move);
    await waitText(sam, '#ply-label', `${before + 1} / ${before + 1}`);
  }
  await sam.waitForFunction(() => document.querySelector('.clock.running')?.classList.contains('low')
    && /^0:0\d/.test(document.querySelector('.clock.running').textContent));
  await play(sam, board, 'resign');
  await waitText(sam, '#status', 'You lose by resignation');
  await sam.waitForTimeout(300);
  assert.deepEqual(await soundsHeard(sam), [], 'nothing sounds with sounds off');
  for (const page of [sam, tom]) await page.context().close();
  noScriptErrors();
});

/** Plays `turns` moves by keys alone on the page's board (a jump among them where one is legal). */
async function playByKeys(page, name, turns) {
  const board = boardOf(page);
  await tabToBoard(page);
  let jumped = false;
  for (let turn = 0; turn < turns; turn++) {
    // A game against bots is a challenge until every bot has accepted (three of them, one by
    // one, on a four-player board).
    const game = await untilGame(page, board, (g) => !['active', 'challenge'].includes(g.status) || g.to_move === name, `${name}'s turn never came`);
    assert.equal(game.status, 'active', `the game goes on (${game.fen})`);
    await page.waitForFunction(() => document.querySelector('#status').classList.contains('mine'));
    const legal = game.legal_moves.filter((m) => m !== '0000');
    const parts = (m) => m.match(/^([a-z]\d+)([a-z]\d+)?$/).slice(1).filter(Boolean);
    const jump = legal.find((m) => parts(m).length === 2);
    // Singles first, the jump last: a jump leaves a hole, and on a four-player board with a
    // strong bot beside it an early jump can lose every piece before the last turn.
    const move = turn === turns - 1 && jump ? jump : legal.find((m) => parts(m).length === 1) ?? legal[0];
    jumped ||= move === jump;
    for (const cell of parts(move)) {
      await cursorTo(page, cell);
      await page.keyboard.press('Enter');
    }
    // The move reached the server as chosen.
    const played = game.moves.length;
    const after = await untilGame(page, board, (g) => g.moves.length > played, `move ${played + 1} never reached the server`);
    assert.equal(after.moves[played].move, move, `move ${played + 1} as played by keys`);
  }
  assert.ok(jumped, 'a jump was picked and dropped by keys');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'board', 'the focus stayed on the board');
}

/** The built-in levels each game's level menu offers (the server's level tables). */
const LEVELS_OF = {
  hexxagon: ['very-easy', 'easy', 'medium', 'hard'],
  ataxx4: ['very-easy', 'easy', 'hard'],
};

/** How `easy` plays each game, as the lobby describes it (the server's level tables). */
const EASY_PLAYS = {
  hexxagon: 'takes the move that leaves it the most pieces',
  ataxx4: "most own pieces less the strongest opponent's, one move ahead",
};

/** Starts a game of `game` against the weakest computer level from the lobby's form, playing first. */
async function botGame(page, game) {
  await page.selectOption('#game-select', game);
  const offered = await page.$$eval('[name=bot] option', (options) => options.map((o) => o.value));
  assert.deepEqual(offered.filter((id) => id.startsWith('bot-')), LEVELS_OF[game].map((l) => `bot-${l}`));
  // A level is described as it plays the chosen game, not as it plays square Ataxx.
  await page.selectOption('[name=bot]', 'bot-easy');
  assert.equal(await page.textContent('#bot-description'), EASY_PLAYS[game]);
  await page.selectOption('[name=bot]', 'bot-very-easy');
  await page.selectOption('#challenge-form [name=color]', 'x');
  await page.click('#challenge-submit');
  try {
    await page.waitForURL(/#\/game\/\d+/);
  } catch (err) {
    throw new Error(`no ${game} game: ${await page.textContent('#challenge-error')} (${err.message})`);
  }
}

test('the keyboard alone plays on a Hexxagon board and on a four-player board', async () => {
  const kai = await member('lbkai');
  await botGame(kai, 'hexxagon');
  assert.equal((await gameOf(kai, boardOf(kai))).game, 'hexxagon');
  await kai.waitForSelector('#board polygon.hex', { state: 'attached' });
  await playByKeys(kai, 'lbkai', 3);
  await call(kai, 'POST', `/api/games/${boardOf(kai)}/move`, { move: 'resign' });
  // Leaving while the game's last events are on their way trips Playwright's socket stand-in.
  await waitText(kai, '#status', 'resignation');

  await kai.goto(`${BASE}/#/`);
  await kai.waitForSelector('#bot-select option', { state: 'attached' });
  // The level menu shows each level's rating in the chosen game: very-easy has now won a rated
  // Hexxagon game but played no square Ataxx.
  const veryEasy = await call(kai, 'GET', '/api/users/bot-very-easy');
  const hexxagonRating = veryEasy.ratings.hexxagon.rating_text;
  assert.notEqual(hexxagonRating, veryEasy.rating_text, 'the Hexxagon game counted');
  const optionText = () => kai.textContent('[name=bot] option[value=bot-very-easy]');
  await kai.selectOption('#game-select', 'hexxagon');
  assert.equal(await optionText(), `very-easy (${hexxagonRating})`);
  await kai.selectOption('#game-select', 'ataxx');
  assert.equal(await optionText(), `very-easy (${veryEasy.rating_text})`);
  await botGame(kai, 'ataxx4');
  const game = await gameOf(kai, boardOf(kai));
  assert.equal(game.seats.length, 4);
  await playByKeys(kai, 'lbkai', 3);
  await shot(kai, 'keyboard-four-player.png');
  await kai.context().close();
  noScriptErrors();
});

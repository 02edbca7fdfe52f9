// Browser tests of tournaments (#/tournaments, #/tournament/<id>): a person creates an arena
// with the form, joins it, starts it, is taken to the first game it pairs, and everyone on the
// tournament's page sees the standings count the result; a person creates an engine league
// with no end, two bot accounts play its first cycle, its Elo table counts them, and its
// creator stops it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  account, BASE, boardOf, call, gameOf, noScriptErrors, person, shotsLightDark, visitor, waitText,
} from './common.mjs';

test('a person joins an arena, is taken to its first game and sees the standings count the win', async () => {
  const ana = await person('arena-ana');
  const bo = await account('arena-bo');
  const watcher = await visitor('arena-watcher');

  // Ana creates it with the form and lands on its page.
  await ana.goto(`${BASE}/#/tournaments`);
  await ana.fill('#tour-form [name=name]', 'Browser Arena');
  await ana.fill('#tour-form [name=clock]', '5+3');
  await ana.fill('#tour-form [name=minutes]', '5');
  await ana.click('#tour-form button[type=submit]');
  await ana.waitForURL(/#\/tournament\/\d+/);
  const id = Number(ana.url().match(/#\/tournament\/(\d+)/)[1]);
  await waitText(ana, '#tour-name', 'Browser Arena');
  await waitText(ana, '#tour-what', '5+3 Ataxx Arena, rated');
  await waitText(ana, '#tour-clock', 'Starts when its creator starts it');

  // It is listed as starting soon; a visitor reads it but has no button to join.
  await watcher.goto(`${BASE}/#/tournaments`);
  await waitText(watcher, '#tour-open', 'Browser Arena');
  await watcher.click(`#tour-open [data-tournament="${id}"] a`);
  await waitText(watcher, '#tour-name', 'Browser Arena');
  assert.equal(await watcher.isVisible('#tour-join'), false);

  // Ana joins by the button, Bo through the API: both pages see both.
  await ana.click('#tour-join');
  await waitText(ana, '#tour-standings', 'arena-ana');
  assert.equal(await ana.isVisible('#tour-withdraw'), true);
  await call(bo, 'POST', `/api/tournaments/${id}/join`);
  await waitText(ana, '#tour-standings', 'arena-bo');
  await waitText(watcher, '#tour-standings', 'arena-bo');
  assert.deepEqual(await shotsLightDark(ana, 'tournament-open', { axe: true }), []);

  // Started, the arena pairs the two at once and Ana's page goes to her game.
  await ana.click('#tour-start');
  await ana.waitForURL(/#\/game\/\d+/);
  const board = boardOf(ana);
  const game = await gameOf(ana, board);
  assert.deepEqual(game.seats.map((s) => s.name).sort(), ['arena-ana', 'arena-bo']);
  await watcher.waitForSelector(`#tour-live .live-tile[data-board="${board}"]`);
  await waitText(watcher, `#tour-rounds tr[data-board="${board}"] .result`, 'playing');
  if (game.x === 'arena-ana') {
    await waitText(ana, '#status', 'Your move');
    await ana.click('.board rect[data-sq="b6"]');
  } else {
    await call(bo, 'POST', `/api/games/${board}/move`, { move: 'b6' });
    await waitText(ana, '#status', 'Your move');
    await ana.click('.board rect[data-sq="f6"]');
  }
  await watcher.waitForSelector(`#tour-live .live-tile[data-board="${board}"][data-ply="${game.x === 'arena-ana' ? 1 : 2}"]`);

  // Bo resigns: Ana scores an arena win (2 points), the board leaves the live list.
  await call(bo, 'POST', `/api/games/${board}/move`, { move: 'resign' });
  await waitText(watcher, '#tour-standings tbody tr:first-child', 'arena-ana');
  await waitText(watcher, '#tour-standings tbody tr:first-child .points', '2');
  await waitText(watcher, `#tour-rounds tr[data-board="${board}"] .result`, game.x === 'arena-ana' ? '1-0' : '0-1');
  // The crosstable: Ana (first) beat the second placed, Bo lost to the first.
  await waitText(watcher, '#tour-cross tr[data-player="arena-ana"] .cross-games', game.x === 'arena-ana' ? '2x1' : '2o1');
  await waitText(watcher, '#tour-cross tr[data-player="arena-bo"] .cross-games', game.x === 'arena-ana' ? '1o0' : '1x0');
  await watcher.waitForSelector(`#tour-live .live-tile[data-board="${board}"]`, { state: 'detached' });
  await ana.goto(`${BASE}/#/tournament/${id}`);
  await ana.waitForSelector('#tour-standings tr.me[data-player="arena-ana"]');
  assert.deepEqual(await shotsLightDark(watcher, 'tournament-running', { axe: true }), []);

  // Both withdraw, so that no game is paired again, and the game the arena paired them in next
  // ends (later tests look at the games in play).
  await ana.click('#tour-withdraw');
  await waitText(ana, '#tour-standings', '(withdrawn)');
  await call(bo, 'POST', `/api/tournaments/${id}/withdraw`);
  const after = await call(bo, 'GET', `/api/tournaments/${id}`);
  for (const pairing of after.rounds.flatMap((r) => r.pairings).filter((p) => p.result === '*')) {
    await call(bo, 'POST', `/api/games/${pairing.game}/move`, { move: 'resign' });
  }
  const ended = await call(bo, 'GET', `/api/tournaments/${id}`);
  assert.ok(ended.rounds.flatMap((r) => r.pairings).every((p) => p.result !== '*'), JSON.stringify(ended));
  assert.equal(ended.rounds.length, after.rounds.length, 'withdrawn players are not paired again');

  // A tournament that does not exist is said so.
  await watcher.goto(`${BASE}/#/tournament/999999`);
  await waitText(watcher, '#page h1', 'No such tournament');
  for (const page of [ana, bo, watcher]) await page.context().close();
  noScriptErrors();
});

test('an engine league with no end: its table counts a cycle, and its creator stops it', async () => {
  const org = await person('league-org');
  const [one, two] = [await account('league-one'), await account('league-two')];
  for (const bot of [one, two]) await call(bot, 'POST', '/api/bot/upgrade');

  await org.goto(`${BASE}/#/tournaments`);
  await org.fill('#tour-form [name=name]', 'Browser League');
  await org.selectOption('#tour-form [name=kind]', 'league');
  await waitText(org, '#tour-rounds-label', 'Cycles');
  await org.fill('#tour-form [name=rounds]', '0');
  await org.click('#tour-form button[type=submit]');
  await org.waitForURL(/#\/tournament\/\d+/);
  const id = Number(org.url().match(/#\/tournament\/(\d+)/)[1]);
  await waitText(org, '#tour-what', 'Ataxx Engine league');
  // A person does not join a league: engines do, through `ataxx bot`.
  assert.equal(await org.isVisible('#tour-join'), false);
  await waitText(org, '#tour-engines', `ataxx bot --tournament ${id}`);
  for (const bot of [one, two]) await call(bot, 'POST', `/api/tournaments/${id}/join`);
  await waitText(org, '#tour-standings', 'league-two');
  await org.click('#tour-start');
  await waitText(org, '#tour-clock', 'Cycle 1, with no end until its creator stops it');

  // The cycle's two boards, colours swapped: league-one wins the first, the second is drawn
  // by agreement. So league-one scores 1½ of 2 in its one pair (pentanomial WD), league-two ½.
  let t = await call(org, 'GET', `/api/tournaments/${id}`);
  const [first, second] = t.rounds[0].pairings;
  assert.equal(first.x, second.o);
  const page = { 'league-one': one, 'league-two': two };
  const loser = first.x === 'league-one' ? first.o : first.x;
  await call(page[loser], 'POST', `/api/games/${first.game}/move`, { move: 'resign' });
  await call(page[second.x], 'POST', `/api/games/${second.game}/move`, { move: 'draw' });
  await call(page[second.o], 'POST', `/api/games/${second.game}/move`, { move: 'accept' });

  await org.waitForSelector('#tour-league-card:not([hidden])');
  const row = (name) => `#tour-league tr[data-engine="${name}"] td`;
  const cells = async (name) => (await org.locator(row(name)).allTextContents()).map((c) => c.trim());
  await waitText(org, `${row('league-one')}:nth-child(2)`, '2');
  assert.deepEqual(await cells('league-one'), ['league-one', '2', '75.0 %', (await cells('league-one'))[3], '0 · 0 · 0 · 1 · 0']);
  assert.deepEqual(await cells('league-two'), ['league-two', '2', '25.0 %', (await cells('league-two'))[3], '0 · 1 · 0 · 0 · 0']);
  // Elo from a score of 75 %: 400·log10(3) ≈ +191 (and −191); one pair has no error bar.
  assert.equal((await cells('league-one'))[3], '+191');
  assert.equal((await cells('league-two'))[3], '−191');

  // With no end, the next cycle is paired at once; the creator stops it after that cycle.
  await waitText(org, '#tour-clock', 'Cycle 2');
  assert.deepEqual(await shotsLightDark(org, 'league-running', { axe: true }), []);
  await org.click('#tour-stop');
  await waitText(org, '#tour-clock', 'Cycle 2 of 2');
  t = await call(org, 'GET', `/api/tournaments/${id}`);
  for (const pairing of t.rounds[1].pairings) {
    await call(page[pairing.o], 'POST', `/api/games/${pairing.game}/move`, { move: 'resign' });
  }
  await waitText(org, '#tour-clock', 'Finished');
  t = await call(org, 'GET', `/api/tournaments/${id}`);
  assert.equal(t.rounds.length, 2, JSON.stringify(t));
  assert.equal(await org.isVisible('#tour-stop'), false);
  for (const p of [org, one, two]) await p.context().close();
  noScriptErrors();
});

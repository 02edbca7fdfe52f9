// Browser tests of tournaments (#/tournaments, #/tournament/<id>): a person creates an arena
// with the form, joins it, starts it, is taken to the first game it pairs, and everyone on the
// tournament's page sees the standings count the result.

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

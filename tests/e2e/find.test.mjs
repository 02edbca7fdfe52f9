// Browser tests of issue #32's "finding games" and defect 12: the games search (#/games) with
// its filters and pages, a player's page listing the game, speed and date of each game, the PGN
// download of all of a player's games, and the sign-up form saying how long a password must be.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { account, BASE, noScriptErrors, shot, visitor, waitText } from './common.mjs';

const unique = (name) => `${name}${Date.now().toString(36).slice(-5)}`;

/** Plays a game of `game` between two accounts through the API: challenge, accept, then `o`
 * resigns (before anyone moves: unrated). Returns the board. */
async function finishedGame(x, o, oName, game = 'ataxx') {
  const created = await x.request.post(`${BASE}/api/games`, { data: { game, opponents: [oName], options: {} } });
  assert.equal(created.status(), 201, await created.text());
  const { board } = await created.json();
  assert.equal((await o.request.post(`${BASE}/api/games/${board}/accept`)).status(), 200);
  const resigned = await o.request.post(`${BASE}/api/games/${board}/move`, { data: { move: 'resign' } });
  assert.equal(resigned.status(), 200, await resigned.text());
  return board;
}

test('the games search filters and pages finished games, and a player\'s page lists the game, speed and date and offers every game as PGN', async () => {
  const [xName, oName] = [unique('finder'), unique('found')];
  const [x, o] = await Promise.all([xName, oName].map(account));
  // 21 ataxx games and one hexxagon game: two pages of 20.
  const boards = [];
  for (let i = 0; i < 21; i++) boards.push(await finishedGame(x, o, oName));
  const hex = await finishedGame(x, o, oName, 'hexxagon');
  const guest = await visitor('search-guest');
  await guest.goto(`${BASE}/#/games?player=${xName}`);
  await waitText(guest, '#games-count', '22 games, page 1 of 2');
  assert.equal(await guest.locator('#games-list li').count(), 20);
  // Newest first: the hexxagon game, won, correspondence, dated.
  const first = guest.locator('#games-list li').first();
  assert.match(await first.textContent(), /Hexxagon[\s\S]*won, unrated, correspondence/);
  assert.equal(await first.locator('a').getAttribute('href'), `#/game/${hex}`);
  assert.ok(await first.locator('time[datetime]').count(), 'the date is a <time>');
  await shot(guest, 'games-search.png');
  await guest.click('#dark-toggle');
  await guest.waitForSelector('body.dark');
  await shot(guest, 'games-search-dark.png');
  await guest.click('#dark-toggle');
  await guest.waitForSelector('body.light');
  await guest.click('.pager a[rel=next]');
  await waitText(guest, '#games-count', 'page 2 of 2');
  assert.equal(await guest.locator('#games-list li').count(), 2);
  assert.equal(await guest.locator('#games-list li a').last().getAttribute('href'), `#/game/${boards[0]}`);
  // The form: one game only, then a result nobody had.
  await guest.selectOption('[name=game]', 'hexxagon');
  await guest.click('#games-form button[type=submit]');
  await waitText(guest, '#games-count', '1 game');
  assert.match(guest.url(), /game=hexxagon/);
  await guest.selectOption('[name=game]', '');
  await guest.selectOption('[name=result]', 'loss');
  await guest.click('#games-form button[type=submit]');
  await waitText(guest, '#games-count', '0 games');
  await waitText(guest, '#games-list', 'No finished game matches');
  // A filter the server refuses is said on the page.
  await guest.goto(`${BASE}/#/games?result=win`);
  await waitText(guest, '#games-found .error', 'name the player');

  // The player's page: the game, the speed and the date of each game, and the PGN download.
  await guest.goto(`${BASE}/#/user/${oName}`);
  await guest.waitForSelector('#profile-games li');
  assert.match(await guest.locator('#profile-games li').first().textContent(), /Hexxagon[\s\S]*lost, unrated, correspondence/);
  assert.ok(await guest.locator('#profile-games li time[datetime]').count() >= 20);
  const [download] = await Promise.all([guest.waitForEvent('download'), guest.click('#profile-pgn')]);
  assert.equal(download.suggestedFilename(), `ataxx-games-${oName}.pgn`);
  const pgn = await readFile(await download.path(), 'utf8');
  assert.equal(pgn.match(/^\[Event /gm).length, 22);
  assert.equal(pgn.match(/^\[Variant "hexxagon"\]/gm).length, 1);
  assert.equal(pgn.match(/^\[Variant "ataxx"\]/gm).length, 21);
  for (const page of [x, o, guest]) await page.context().close();
  noScriptErrors();
});

test('the sign-up forms say that a password needs 8 characters, and a shorter one is refused', async () => {
  const guest = await visitor('short-password');
  await guest.goto(`${BASE}/#/login`);
  assert.equal(await guest.locator('#password-rule').isVisible(), false, 'signing in has no rule to say');
  await guest.click('.tab[data-mode=signup]');
  await waitText(guest, '#password-rule', 'at least 8 characters');
  assert.equal(await guest.getAttribute('[name=password]', 'minlength'), '8');
  assert.equal(await guest.getAttribute('[name=password]', 'aria-describedby'), 'password-rule');
  // The browser holds a short one back; the server refuses it whoever sends it.
  await guest.fill('[name=userid]', unique('shorty'));
  await guest.fill('[name=password]', 'seven77');
  await guest.click('#auth-submit');
  assert.equal(await guest.evaluate(() => document.querySelector('[name=password]').validity.tooShort), true);
  const refused = await guest.request.post(`${BASE}/api/signup`, { data: { userid: unique('shorty'), password: 'seven77', addresses: [] } });
  assert.equal(refused.status(), 400);
  assert.match((await refused.json()).error.message, /at least 8 characters/);
  // The front page's quick sign-up says it too.
  await guest.goto(`${BASE}/#/`);
  await waitText(guest, '#quick-play-rule', 'At least 8 characters');
  assert.equal(await guest.getAttribute('#quick-play [name=password]', 'minlength'), '8');
  await guest.context().close();
  noScriptErrors();
});

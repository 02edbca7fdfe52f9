// Browser tests of the living site: the front page a visitor sees, Ataxx TV, seeks and quick
// pairing, and the pages readable without an account. Games between test players are set up
// through the API (seeks taken by the other side) so that each test controls who plays whom.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  account, BASE, boardOf, noScriptErrors, person, piece, shotsLightDark, visitor, waitText,
} from './common.mjs';

/** Sends a JSON request as the page's user and returns the answer's body, checking its status. */
async function call(page, method, path, data, status = 200) {
  const response = await page.request.fetch(`${BASE}${path}`, { method, data });
  const body = await response.text();
  assert.equal(response.status(), status, `${method} ${path}: ${body}`);
  return body ? JSON.parse(body) : null;
}

/** A game started through a seek: `x` posts it (playing x), `o` takes it. Returns the board. */
async function seekGame(x, o, clock = null) {
  const seek = await call(x, 'POST', '/api/seeks', { clock, color: 'x', rated: true }, 201);
  const game = await call(o, 'POST', `/api/seeks/${seek.id}/accept`, undefined, 201);
  assert.equal(game.status, 'active');
  return game.board;
}

const play = (page, board, move) => call(page, 'POST', `/api/games/${board}/move`, { move });

/** `winner` beats `loser` in a rated game: both move once, then the loser resigns. */
async function beat(winner, loser) {
  const board = await seekGame(winner, loser);
  await play(winner, board, 'b6');
  await play(loser, board, 'f6');
  await play(loser, board, 'resign');
}

test('a signed-out visitor watches a live game on the front page move by move, and reads every page', async () => {
  const ann = await account('front-ann');
  const ben = await account('front-ben');
  const board = await seekGame(ann, ben, '10+5');

  const guest = await visitor('guest');
  await guest.goto(`${BASE}/#/`);
  // The front page says what the game is and offers a way in, not only a sign-in form.
  await waitText(guest, '.hero', 'Play the computer now');
  assert.equal(await guest.locator('#auth-form').count(), 0);
  const tile = `.live-tile[data-board="${board}"]`;
  await guest.waitForSelector(`${tile} .piece.x[data-sq="a7"]`);
  await waitText(guest, `${tile} .players`, 'front-ann');

  // Each move shows on the small board as it is played, without a reload.
  await play(ann, board, 'b6');
  await guest.waitForSelector(`${tile} .piece.x[data-sq="b6"]`);
  await play(ben, board, 'f6');
  await guest.waitForSelector(`${tile} .piece.o[data-sq="f6"]`);
  await play(ann, board, 'g1e3');
  await guest.waitForSelector(`${tile} .piece.x[data-sq="e3"]`);
  await guest.waitForSelector(`${tile} .piece[data-sq="g1"]`, { state: 'detached' });
  await waitText(guest, `${tile} .tile-status`, 'front-ben to move');
  await shotsLightDark(guest, 'site-front');

  // A click on the small board opens the game to watch; it follows the moves too.
  await guest.click(`${tile} a`);
  await guest.waitForURL(new RegExp(`#/game/${board}$`));
  await piece(guest, 'x', 'e3');
  await play(ben, board, 'a1b3');
  await piece(guest, 'o', 'b3');
  assert.equal(await guest.locator('#move-form').isVisible(), false, 'a visitor gets no move box');

  // The player's page and the leaderboard read without an account.
  await guest.goto(`${BASE}/#/user/front-ann`);
  await waitText(guest, '.profile h1', 'front-ann');
  await guest.waitForSelector(`.profile a[href="#/game/${board}"]`);
  await guest.goto(`${BASE}/#/leaderboard`);
  await waitText(guest, '#board-list', 'Provisional');
  assert.equal(await guest.locator('#auth-form').count(), 0);

  // When the game ends it leaves the front page's live boards and joins the finished ones.
  await guest.goto(`${BASE}/#/`);
  await guest.waitForSelector(tile);
  await play(ben, board, 'resign');
  await guest.waitForSelector(tile, { state: 'detached' });
  await guest.waitForSelector(`#recent-games li[data-board="${board}"]`);
  await waitText(guest, `#recent-games li[data-board="${board}"]`, 'front-ann won');
  for (const page of [ann, ben, guest]) await page.context().close();
  noScriptErrors();
});

test('two people meet through a posted seek and through quick pairing', async () => {
  const cleo = await person('seek-cleo');
  const dan = await person('seek-dan');

  // Cleo posts a casual 5+3 seek playing x; Dan sees it arrive in the list and takes it.
  await dan.goto(`${BASE}/#/seeks`);
  await dan.waitForSelector('#seek-table');
  await cleo.goto(`${BASE}/#/seeks`);
  await cleo.selectOption('#seek-form [name=clock]', '5+3');
  await cleo.selectOption('#seek-form [name=color]', 'x');
  await cleo.uncheck('#seek-form [name=rated]');
  await cleo.fill('#seek-form [name=rating_max]', '2000');
  await cleo.click('#seek-submit');
  await cleo.waitForSelector('#seek-list tr.mine button[data-act=withdraw]');
  const row = '#seek-list tr[data-owner="seek-cleo"]';
  await waitText(dan, row, '5+3');
  await waitText(dan, row, 'casual');
  await waitText(dan, row, 'plays x');
  await waitText(dan, row, '…–2000');
  await shotsLightDark(dan, 'site-seeks');
  await dan.click(`${row} button[data-act=accept]`);
  await dan.waitForURL(/#\/game\/\d+$/);
  // Cleo's page sees her seek taken and opens the game too.
  await cleo.waitForURL(/#\/game\/\d+$/);
  const first = boardOf(dan);
  assert.equal(boardOf(cleo), first);
  await waitText(cleo, '#status', 'Your move.');
  await waitText(dan, '#status', 'seek-cleo to move.');
  const game = await call(dan, 'GET', `/api/games/${first}`);
  assert.deepEqual([game.x, game.o, game.rated, game.clock.initial_ms], ['seek-cleo', 'seek-dan', false, 300000]);
  assert.equal((await call(dan, 'GET', '/api/seeks')).filter((s) => s.owner === 'seek-cleo').length, 0, 'the seek is gone');
  await play(cleo, first, 'resign');

  // Quick pairing: Cleo presses 3+2 and waits; Dan presses 3+2 and they play.
  await cleo.goto(`${BASE}/#/seeks`);
  await dan.goto(`${BASE}/#/seeks`);
  await cleo.click('.quick[data-clock="3+2"]');
  await waitText(cleo, '#pair-status', 'Waiting for an opponent for 3+2');
  await waitText(dan, '#seek-list tr[data-owner="seek-cleo"]', '3+2');
  await dan.click('.quick[data-clock="3+2"]');
  await dan.waitForURL(/#\/game\/\d+$/);
  await cleo.waitForURL(/#\/game\/\d+$/);
  const second = boardOf(dan);
  assert.equal(boardOf(cleo), second);
  assert.notEqual(second, first);
  const paired = await call(cleo, 'GET', `/api/games/${second}`);
  assert.deepEqual([paired.status, paired.rated, paired.clock.initial_ms, paired.clock.increment_ms], ['active', true, 180000, 2000]);
  assert.deepEqual([paired.x, paired.o].sort(), ['seek-cleo', 'seek-dan']);
  await play(cleo, second, 'resign');

  // Pressing a button again withdraws the wait.
  await cleo.goto(`${BASE}/#/seeks`);
  await cleo.click('.quick[data-clock=""]');
  await waitText(cleo, '#pair-status', 'correspondence');
  await cleo.click('.quick[data-clock=""]');
  await cleo.waitForSelector('#no-seeks', { state: 'visible' });
  assert.equal((await call(cleo, 'GET', '/api/seeks')).length, 0);
  for (const page of [cleo, dan]) await page.context().close();
  noScriptErrors();
});

test('TV shows the game of the best-rated players and switches to the next when it ends', async () => {
  // Winners of a rated game rate above anyone new: a game between two of them ranks first, a
  // winner against a newcomer second.
  const [ada, abe, bea, bob, l1, l2, l3] = await Promise.all(
    ['tv-ada', 'tv-abe', 'tv-bea', 'tv-bob', 'tv-l1', 'tv-l2', 'tv-l3'].map(account));
  await beat(ada, l1);
  await beat(abe, l2);
  await beat(bea, l3);
  const next = await seekGame(bea, bob, '10+5');
  const top = await seekGame(ada, abe, '10+5');
  const featured = await call(bob, 'GET', '/api/tv?limit=2');
  assert.deepEqual(featured.map((f) => f.game.board), [top, next]);
  assert.ok(featured[0].rating > featured[1].rating && featured[1].rating > 1500, JSON.stringify(featured));

  const viewer = await visitor('tv-viewer');
  await viewer.goto(`${BASE}/#/tv`);
  await viewer.waitForSelector(`.tv[data-board="${top}"] .board .piece.x[data-sq="a7"]`);
  await waitText(viewer, '#tv-players', 'tv-ada');
  await waitText(viewer, '#tv-players', 'tv-abe');
  await play(ada, top, 'b6');
  await piece(viewer, 'x', 'b6');
  await shotsLightDark(viewer, 'site-tv');

  // The top game ends: after a moment on its result, TV shows the next.
  await play(abe, top, 'resign');
  await waitText(viewer, '#status', 'tv-ada wins');
  await viewer.waitForSelector(`.tv[data-board="${next}"] .board .piece.o[data-sq="g7"]`);
  await waitText(viewer, '#tv-players', 'tv-bea');
  await play(bob, next, 'resign');
  for (const page of [ada, abe, bea, bob, l1, l2, l3, viewer]) await page.context().close();
  noScriptErrors();
});

test('the leaderboard offers every game the server plays, Ankor among them, and ranks its players', async () => {
  // A rated Ankor game, won by resignation after a move each (a game one side never moved in is
  // unrated); each side plays a legal move the server lists.
  const [ana, ari] = await Promise.all(['ankor-ana', 'ankor-ari'].map(account));
  const seek = await call(ana, 'POST', '/api/seeks', { game: 'ankor', clock: null, color: 'x', rated: true }, 201);
  const { board } = await call(ari, 'POST', `/api/seeks/${seek.id}/accept`, undefined, 201);
  for (let ply = 0; ply < 2; ply++) {
    const game = await call(ana, 'GET', `/api/games/${board}`);
    await play(game.to_move === 'ankor-ana' ? ana : ari, board, game.legal_moves.find((m) => m !== 'swap'));
  }
  await play(ari, board, 'resign');

  const guest = await visitor('board-guest');
  const kinds = await call(guest, 'GET', '/api/kinds');
  await guest.goto(`${BASE}/#/leaderboard`);
  await waitText(guest, '#board-list', 'Provisional');
  const tabs = await guest.locator('[data-game]').evaluateAll((buttons) => buttons.map((b) => b.dataset.game));
  assert.deepEqual(tabs, kinds.map((k) => k.id));
  assert.deepEqual(tabs, ['ataxx', 'hexxagon', 'ataxx4', 'ankor']);
  await guest.click('[data-game=ankor]');
  await guest.waitForSelector('[data-game=ankor].active');
  await waitText(guest, '#board-list', 'ankor-ana');
  await waitText(guest, '#board-list', 'ankor-ari');
  for (const page of [ana, ari, guest]) await page.context().close();
  noScriptErrors();
});

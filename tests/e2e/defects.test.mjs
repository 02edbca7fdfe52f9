// Browser tests of the defects issue 17 found by trying the site (item 7, the pages' side): a
// board that does not exist, a lobby opened while the server was away, refused moves, what a
// finished game offers next, rejected offers, results from the reader's side, the colour note,
// Back after signing in, no /api/me for visitors, the board flip and premoves.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, boardOf, clickSquare, gameOf, noScriptErrors, PASSWORD, person, piece, shot, visitor,
  waitText,
} from './common.mjs';

/** Starts a game between two signed-in pages through the API and opens it on both. */
async function startGame([x, xName], [o, oName], options = {}) {
  const response = await x.request.post(`${BASE}/api/games`, { data: { opponents: [oName], options } });
  assert.equal(response.status(), 201, await response.text());
  const { board } = await response.json();
  assert.equal((await o.request.post(`${BASE}/api/games/${board}/accept`)).status(), 200);
  for (const page of [x, o]) await page.goto(`${BASE}/#/game/${board}`);
  await waitText(x, '#status', 'Your move.');
  await waitText(o, '#status', `${xName} to move.`);
  return board;
}

const typeMove = async (page, text) => {
  await page.fill('#move-input', text);
  await page.press('#move-input', 'Enter');
};

const visible = (page, selector) => page.locator(selector).isVisible();

test('#/game/99999 says "no such game", shows no controls and stops asking', async () => {
  const mia = await person('mia');
  await mia.goto(`${BASE}/#/game/99999`);
  await waitText(mia, '.no-such-game', 'No such game');
  await waitText(mia, '.no-such-game', 'no board 99999');
  for (const control of ['#resign', '#draw', '#undo', '#chat-form', '#move-form']) {
    assert.equal(await mia.locator(control).count(), 0, `${control} is gone`);
  }
  // Its socket was refused; no new attempt follows (the back-off would retry within 2 s).
  const tries = mia.line.sockets.length;
  await mia.waitForTimeout(2500);
  assert.equal(mia.line.sockets.length, tries);
  await mia.context().close();
  noScriptErrors();
});

test('a lobby opened while the server is away recovers once it is back', async () => {
  const nina = await person('nina');
  let down = true;
  await nina.route(/\/api\//, (route) => (down ? route.abort('connectionrefused') : route.continue()));
  await nina.routeWebSocket(/\/api\/ws$/, (ws) => (down ? ws.close({ code: 1011, reason: 'down' }) : ws.connectToServer()));
  await nina.reload();
  // Still Nina's lobby (not the sign-in form), saying what is wrong, with nothing to pick.
  await waitText(nina, '#lobby-offline', 'cannot be reached');
  assert.equal(await nina.locator('#bot-select option').count(), 0);
  await nina.click('#challenge-submit');
  await waitText(nina, '#challenge-error', 'computer levels have not loaded');
  down = false;
  await nina.waitForSelector('#lobby-offline', { state: 'hidden' });
  await nina.waitForFunction(() => document.querySelectorAll('#bot-select option').length > 0);
  await waitText(nina, '#layout-count', /^0$/);
  assert.equal(await nina.locator('#blocks-error').textContent(), '');
  await nina.click('#challenge-submit');
  await nina.waitForURL(/#\/game\/\d+/);
  await waitText(nina, '#status', /Your move|to move/);
  await nina.context().close();
  noScriptErrors();
});

test('refused moves: a typed one is told in words, a clicked one shakes the board and says why', async () => {
  const olga = await person('olga');
  const pete = await person('pete');
  await startGame([olga, 'olga'], [pete, 'pete']);
  await typeMove(olga, 'd4');
  await waitText(olga, '#notice', 'illegal move d4');
  assert.doesNotMatch(await olga.locator('#notice').textContent(), /\//, 'no position text');
  await clickSquare(olga, 'd4');
  await waitText(olga, '#notice', 'No piece of yours can reach d4.');
  assert.match(await olga.locator('#board').getAttribute('class'), /refused/);
  await clickSquare(olga, 'g7');
  await waitText(olga, '#notice', "g7 holds an opponent's piece");
  await clickSquare(olga, 'a7');
  await clickSquare(olga, 'd4');
  await waitText(olga, '#notice', 'Your piece on a7 cannot reach d4.');
  // A legal move clears the line.
  await clickSquare(olga, 'b6');
  await piece(pete, 'x', 'b6');
  await waitText(olga, '#notice', /^$/);
  for (const page of [olga, pete]) await page.context().close();
  noScriptErrors();
});

test('a finished game: results from each side, controls gone, rematch with the colours swapped', async () => {
  const rita = await person('rita');
  const sam = await person('sam');
  const tess = await person('tess');
  const board = await startGame([rita, 'rita'], [sam, 'sam'], { clock: '3+2', size: '5' });
  // A spectator never sees a player's controls (the chat form it sees writes to the
  // spectators' channel: chat.test.mjs).
  await tess.goto(`${BASE}/#/game/${board}`);
  await waitText(tess, '#status', 'rita to move.');
  for (const control of ['#resign', '#draw', '#undo', '#move-form']) {
    assert.equal(await visible(tess, control), false, `${control} is hidden from spectators`);
  }
  assert.equal(await visible(rita, '#resign'), true);
  // x ends with 4 pieces, o with 3; x resigns: o wins, 3–4 from o's side.
  await clickSquare(rita, 'b4');
  await waitText(sam, '#status', 'Your move.');
  await clickSquare(sam, 'd4');
  await waitText(rita, '#status', 'Your move.');
  await clickSquare(rita, 'b3');
  await rita.click('#resign');
  await rita.click('#resign');
  await waitText(rita, '#status', 'You lose by resignation, 4–3.');
  await waitText(sam, '#status', 'You win by resignation, 3–4.');
  await waitText(tess, '#status', 'sam wins by resignation, 3–4.');
  for (const page of [rita, sam, tess]) {
    for (const control of ['#resign', '#draw', '#undo']) assert.equal(await visible(page, control), false, `${control} is hidden once finished`);
  }
  assert.equal(await visible(tess, '#rematch'), false);
  assert.equal(await visible(tess, '#new-game'), true);
  await shot(rita, 'game-finished-next-step.png');

  // Sam asks for a rematch: Rita's page offers it, she accepts, both are on the new board.
  await sam.click('#rematch');
  await waitText(sam, '#next-step', 'waiting for rita');
  await waitText(rita, '#next-step', 'sam offers a rematch');
  await rita.click('#accept-rematch');
  await rita.waitForURL((url) => /#\/game\/\d+/.test(url.hash) && !url.hash.endsWith(`/${board}`));
  await sam.waitForURL((url) => url.hash === `#/game/${boardOf(rita)}`);
  const rematch = await gameOf(rita, boardOf(rita));
  assert.deepEqual(rematch.seats.map((s) => s.name), ['sam', 'rita']);
  assert.equal(rematch.status, 'active');
  assert.deepEqual([rematch.clock.initial_ms, rematch.clock.increment_ms], [180000, 2000]);
  assert.equal(rematch.start_fen.split(' ')[0].split('/').length, 5);
  await waitText(sam, '#status', 'Your move.');
  // The new-game link leads to the lobby.
  await tess.click('#new-game');
  await tess.waitForSelector('#challenge-form');
  for (const page of [rita, sam, tess]) await page.context().close();
  noScriptErrors();
});

test('a rejected draw offer and a rejected undo are told to the offerer', async () => {
  const uma = await person('uma');
  const vic = await person('vic');
  await startGame([uma, 'uma'], [vic, 'vic']);
  await clickSquare(uma, 'b6');
  await waitText(vic, '#status', 'Your move.');
  await clickSquare(vic, 'f6');
  await waitText(uma, '#status', 'Your move.');
  await uma.click('#draw');
  await waitText(vic, '#proposal', 'uma proposes to agree a draw');
  await vic.click('#proposal button[data-word=reject]');
  await waitText(uma, '#notice', 'vic rejected your draw offer.');
  await waitText(uma, '#proposal', /^$/);
  await uma.click('#undo');
  await waitText(vic, '#proposal', 'uma proposes to take back the last move');
  await vic.click('#proposal button[data-word=reject]');
  await waitText(uma, '#notice', 'vic rejected your request to take back the last move.');
  for (const page of [uma, vic]) await page.context().close();
  noScriptErrors();
});

test('the new-game form says which colour moves first and which one you get', async () => {
  const wes = await person('wes');
  await waitText(wes, '#colour-note', 'x (red) moves first. You play x (red).');
  await wes.selectOption('[name=color]', 'o');
  await waitText(wes, '#colour-note', 'You play o (blue).');
  await wes.selectOption('[name=game]', 'ankor');
  await waitText(wes, '#colour-note', 'o (blue) moves first. You play x (red).');
  await wes.selectOption('[name=color]', 'random');
  await waitText(wes, '#colour-note', 'at random');
  await wes.context().close();
  noScriptErrors();
});

test('a visitor never asks /api/me, and Back after signing in skips the sign-in form', async () => {
  const xena = await visitor('xena');
  const asked = [];
  const logged = [];
  xena.on('request', (request) => { if (new URL(request.url()).pathname === '/api/me') asked.push(request.url()); });
  xena.on('console', (message) => { if (message.type() === 'error') logged.push(message.text()); });
  await xena.goto(`${BASE}/#/leaderboard`);
  await xena.waitForSelector('#nav a[href="#/login"]');
  await xena.waitForTimeout(300);
  assert.deepEqual(asked, []);
  assert.deepEqual(logged, []);
  await xena.click('#nav a[href="#/login"]');
  await xena.click('.tab[data-mode=signup]');
  await xena.fill('[name=userid]', 'xena');
  await xena.fill('[name=password]', PASSWORD);
  await xena.click('#auth-submit');
  await xena.waitForSelector('#challenge-form');
  await xena.goBack();
  await xena.waitForURL((url) => url.hash === '#/leaderboard');
  assert.equal(await xena.locator('#auth-form').count(), 0);
  // Signed in, a reload asks who that is, and the answer keeps her signed in.
  await xena.reload();
  await waitText(xena, '#nav-me', 'xena');
  assert.equal(asked.length, 1);
  assert.deepEqual(logged, []);
  await xena.context().close();
  noScriptErrors();
});

test('the board flips, and a live game takes one premove, played in turn or cancelled by a click', async () => {
  const yara = await person('yara');
  const zeke = await person('zeke');
  await startGame([yara, 'yara'], [zeke, 'zeke'], { clock: '5+3' });
  // Flipped, a1 is at the top right and the player bars change places.
  const box = (sq) => zeke.locator(`.board rect[data-sq="${sq}"]`).boundingBox();
  const [a1, g7] = [await box('a1'), await box('g7')];
  assert.ok(a1.y > g7.y && a1.x < g7.x, 'a1 starts at the bottom left');
  await zeke.click('#flip');
  await zeke.waitForFunction(() => document.querySelector('.board-col').classList.contains('flipped'));
  const [a1f, g7f] = [await box('a1'), await box('g7')];
  assert.ok(a1f.y < g7f.y && a1f.x > g7f.x, 'a1 is at the top right once flipped');
  const barTop = await zeke.locator('#bar-bottom').boundingBox();
  assert.ok(barTop.y < a1f.y, "the reader's bar goes above the board");
  assert.equal(await zeke.locator('#flip').getAttribute('aria-pressed'), 'true');
  await shot(zeke, 'game-flipped.png');

  // While Yara thinks, Zeke picks g7 -> f7; it is played as soon as she has moved.
  await clickSquare(zeke, 'g7');
  assert.ok(await zeke.locator('.target.single').count() > 0, 'a premove shows its targets');
  await clickSquare(zeke, 'f7');
  await waitText(zeke, '#notice', 'Premove f7');
  assert.match(await zeke.locator('.board rect[data-sq="f7"]').getAttribute('class'), /premove/);
  await clickSquare(yara, 'b6');
  await piece(yara, 'o', 'f7');
  await waitText(zeke, '#moves td[data-ply="2"]', 'f7');
  // Another premove, a1 -> b2, is cancelled by a click: Yara moves and Zeke is to move.
  await waitText(yara, '#status', 'Your move.');
  await clickSquare(zeke, 'a1');
  await clickSquare(zeke, 'b2');
  await waitText(zeke, '#notice', 'Premove b2');
  await clickSquare(zeke, 'd4');
  await waitText(zeke, '#notice', 'Premove cancelled.');
  assert.equal(await zeke.locator('.board .premove').count(), 0);
  await clickSquare(yara, 'c5');
  await waitText(zeke, '#status', 'Your move.');
  await zeke.waitForTimeout(300);
  assert.equal(await zeke.locator('.board .piece[data-sq="b2"]').count(), 0);
  for (const page of [yara, zeke]) await page.context().close();
  noScriptErrors();
});

test('a premove that is no longer legal when the turn comes is dropped, and says so', async () => {
  const abby = await person('abby');
  const ben = await person('bert');
  // 5×5: x on a5 and e1, o on e5 and a1; c3 is a jump away from both a1 and e1.
  await startGame([abby, 'abby'], [ben, 'bert'], { clock: '5+3', size: '5' });
  await clickSquare(ben, 'a1');
  await clickSquare(ben, 'c3');
  await waitText(ben, '#notice', 'Premove a1c3');
  await clickSquare(abby, 'e1');
  await clickSquare(abby, 'c3');
  await waitText(ben, '#notice', 'The premove a1c3 is no longer legal.');
  await waitText(ben, '#status', 'Your move.');
  await piece(ben, 'x', 'c3');
  await piece(ben, 'o', 'a1');
  for (const page of [abby, ben]) await page.context().close();
  noScriptErrors();
});

test('a rematch against a computer level starts at once, the colours swapped', async () => {
  const cleo = await person('cleo');
  await cleo.selectOption('[name=bot]', 'bot-very-easy');
  await cleo.selectOption('[name=size]', '4');
  await cleo.click('#challenge-submit');
  await cleo.waitForURL(/#\/game\/\d+/);
  const first = boardOf(cleo);
  await waitText(cleo, '#status', 'Your move.');
  await cleo.click('#resign');
  await cleo.click('#resign');
  await waitText(cleo, '#status', 'You lose by resignation');
  // Nobody moved: the game does not count, and the page says why.
  await waitText(cleo, '#status', 'cleo never moved');
  await cleo.click('#rematch');
  await cleo.waitForURL((url) => /#\/game\/\d+$/.test(url.hash) && url.hash !== `#/game/${first}`);
  const rematch = await gameOf(cleo, boardOf(cleo));
  assert.deepEqual(rematch.seats.map((s) => s.name), ['bot-very-easy', 'cleo']);
  assert.equal(rematch.start_fen.split(' ')[0].split('/').length, 4);
  await waitText(cleo, '#status', /Your move|bot-very-easy to move/);
  await cleo.context().close();
  noScriptErrors();
});

// Browser tests of issue #32's page defects: the keyboard cursor only after a key (4), the
// four-player start in the blocks preview (6), a message that does not outlive its page (8),
// addresses that lead nowhere said in words (9), a typed same-cell pair (10), and live clocks
// that start with each side's first move (3), what a game page says of its game (7, 13), and
// no offers a built-in level always refuses (11), and no engine help in a game in play (1).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, boardOf, clickSquare, noScriptErrors, person, visitor, waitText } from './common.mjs';

/**
 * Ends a game this file started, so that the later tests' front page and TV (which show the
 * games in play) do not fill with it.
 */
const resign = async (page, board) => {
  const response = await page.request.post(`${BASE}/api/games/${board}/move`, { data: { move: 'resign' } });
  assert.ok(response.ok(), await response.text());
};

test('the keyboard cursor shows after a key press, not after a mouse click', async () => {
  const kit = await person('kit-cursor');
  await kit.selectOption('[name=bot]', 'bot-very-easy');
  await kit.click('#challenge-submit');
  await kit.waitForURL(/#\/game\/\d+/);
  await waitText(kit, '#status', 'Your move');
  await clickSquare(kit, 'a7');
  await kit.waitForSelector('.board .square.selected');
  assert.equal(await kit.evaluate(() => document.activeElement?.id), 'board', 'the click gave the board the focus');
  assert.equal(await kit.locator('#board .kb-cursor').count(), 0, 'no cursor after a click');
  await kit.keyboard.press('ArrowRight');
  assert.equal(await kit.locator('#board .kb-cursor').count(), 1, 'a key shows the cursor');
  await clickSquare(kit, 'a7');
  assert.equal(await kit.locator('#board .kb-cursor').count(), 0, 'the next click hides it again');
  await resign(kit, boardOf(kit));
  await kit.context().close();
  noScriptErrors();
});

test('with four-player Ataxx chosen, the blocks preview shows its four-player start', async () => {
  const fay = await person('fay-four');
  await fay.fill('#blocks-input', '0x0100');
  await fay.waitForSelector('#blocks-board .piece.x');
  await fay.selectOption('[name=game]', 'ataxx4');
  for (const colour of ['r', 'b', 'g', 'y']) await fay.waitForSelector(`#blocks-board .piece.${colour}`);
  assert.equal(await fay.locator('#blocks-board .piece.x').count(), 0, 'no two-player pieces left');
  assert.ok(await fay.locator('#blocks-board .square.blocked').count() > 0, 'the layout is still drawn');
  await fay.selectOption('[name=game]', 'ataxx');
  await fay.waitForSelector('#blocks-board .piece.x');
  await fay.context().close();
  noScriptErrors();
});

test('a message from one page does not stay on the next; a typed a1a1 is told what is wrong with it', async () => {
  const [tess, tom] = await Promise.all(['tess-toast', 'tom-toast'].map((name) => person(name)));
  const created = await tess.request.post(`${BASE}/api/games`, { data: { opponents: ['tom-toast'], options: {} } });
  assert.equal(created.status(), 201, await created.text());
  const { board } = await created.json();
  assert.equal((await tom.request.post(`${BASE}/api/games/${board}/accept`)).status(), 200);
  await tom.goto(`${BASE}/#/game/${board}`);
  await tom.waitForSelector('.board .piece');
  await clickSquare(tom, 'a1'); // not tom's move: a message says whose it is
  await tom.waitForSelector('#toast.show');
  await tom.goto(`${BASE}/#/leaderboard`);
  await tom.waitForSelector('#board-list');
  assert.equal(await tom.locator('#toast.show').count(), 0, 'the message went with its page');

  // A typed same-cell pair is told as the move it was meant to be, not as a pass.
  await tess.goto(`${BASE}/#/game/${board}`);
  await tess.waitForSelector('.board .piece');
  await tess.fill('#move-input', 'a1a1');
  await tess.press('#move-input', 'Enter');
  await waitText(tess, '#notice', 'a1a1 starts and ends on the same cell');
  assert.doesNotMatch(await tess.locator('#notice').textContent(), /pass/);
  await resign(tess, board);
  for (const page of [tess, tom]) await page.context().close();
  noScriptErrors();
});

test('addresses that lead nowhere get a page that says so', async () => {
  const guest = await visitor('lost-guest');
  for (const [hash, words] of [['#/game/abc', 'No such page'], ['#/nonsense', 'No such page'], ['#/user/nobody-here', 'No such player']]) {
    await guest.goto(`${BASE}/${hash}`);
    await waitText(guest, '#page', words);
    assert.doesNotMatch(await guest.locator('#page').textContent(), /NaN/, hash);
    assert.equal(await guest.locator('#page a[href="#/"]').count(), 1, `${hash} leads back`);
  }
  // Addresses typed as on other game sites lead to the page they name.
  await guest.goto(`${BASE}/game/99999`);
  await guest.waitForURL(/\/#\/game\/99999$/);
  await waitText(guest, '#page', 'No such game');
  await guest.goto(`${BASE}/user/nobody-here`);
  await waitText(guest, '#page', 'No such player');
  // Any other address: a 404 page in words, with the way back.
  const response = await guest.goto(`${BASE}/nope`);
  assert.equal(response.status(), 404);
  await waitText(guest, 'h1', 'No such page');
  assert.match(await guest.locator('main').textContent(), /no page at \/nope/);
  assert.equal(await guest.locator('a[href="/"]').count(), 1);
  // The API's own 404 stays JSON.
  const api = await guest.request.get(`${BASE}/api/nope`);
  assert.equal(api.status(), 404);
  assert.equal((await api.json()).error.code, 'not_found');
  await guest.context().close();
  noScriptErrors();
});

test("a live game's clocks start with each side's first move, and the page says so", async () => {
  const [ria, rob] = await Promise.all(['ria-clock', 'rob-clock'].map((name) => person(name)));
  const created = await ria.request.post(`${BASE}/api/games`, { data: { opponents: ['rob-clock'], color: 'x', options: { clock: '3+2' } } });
  assert.equal(created.status(), 201, await created.text());
  const { board } = await created.json();
  assert.equal((await rob.request.post(`${BASE}/api/games/${board}/accept`)).status(), 200);
  for (const page of [ria, rob]) await page.goto(`${BASE}/#/game/${board}`);
  await waitText(ria, '#status', 'Your move. The clock starts with the first move');
  assert.equal(await ria.locator('.clock.running').count(), 0, 'no clock runs before the first move');
  const play = (page, move) => page.request.post(`${BASE}/api/games/${board}/move`, { data: { move } });
  assert.ok((await play(ria, 'b6')).ok());
  await waitText(rob, '#status', 'Your move. The clock starts with the first move');
  assert.equal(await rob.locator('.clock.running').count(), 0, "rob's clock waits for his first move");
  assert.ok((await play(rob, 'f6')).ok());
  await waitText(ria, '#status', /^Your move\.$/);
  await ria.waitForSelector('.clock.running[data-clock="x"]');
  await resign(ria, board);
  for (const page of [ria, rob]) await page.context().close();
  noScriptErrors();
});

test('the game page says rated or casual, the time control, the ratings and the days left; no offers to a built-in level', async () => {
  const [cara, cole] = await Promise.all(['cara-info', 'cole-info'].map((name) => person(name)));
  // A correspondence game between people: its days, and both offers.
  const created = await cara.request.post(`${BASE}/api/games`, { data: { opponents: ['cole-info'], color: 'x', options: {} } });
  assert.equal(created.status(), 201, await created.text());
  const { board } = await created.json();
  assert.equal((await cole.request.post(`${BASE}/api/games/${board}/accept`)).status(), 200);
  await cara.goto(`${BASE}/#/game/${board}`);
  await waitText(cara, '#game-info', /^(Rated|Casual) · correspondence, 21 days a move · cara-info is reminded in 7 days · forfeits in 21 days$/);
  await waitText(cara, '#bar-top', 'cole-info');
  await cara.waitForSelector('#bar-top .rating');
  assert.equal(await cara.locator('#bar-top .rating').textContent(), '1500?');
  for (const id of ['#resign', '#undo', '#draw']) assert.equal(await cara.locator(id).isVisible(), true, `${id} against a person`);
  // A live game against a built-in level: its clock, and no offers it would refuse.
  await cara.goto(`${BASE}/#/`);
  await cara.selectOption('[name=bot]', 'bot-very-easy');
  await cara.click('#challenge-submit');
  await cara.waitForURL(/#\/game\/\d+/);
  await waitText(cara, '#status', 'Your move');
  await waitText(cara, '#game-info', /^(Rated|Casual)/);
  assert.equal(await cara.locator('#resign').isVisible(), true);
  assert.equal(await cara.locator('#undo').isVisible(), false, 'no undo to propose to bot-very-easy');
  assert.equal(await cara.locator('#draw').isVisible(), false, 'no draw to offer bot-very-easy');
  await resign(cara, boardOf(cara));
  await resign(cara, board);
  for (const page of [cara, cole]) await page.context().close();
  noScriptErrors();
});

test('no engine help in a game in play; after it, the analysis lasts as long as its position is shown', async () => {
  const [ada, ben] = await Promise.all(['ada-fair', 'ben-fair'].map((name) => person(name)));
  const guest = await visitor('fair-guest');
  const created = await ada.request.post(`${BASE}/api/games`, { data: { opponents: ['ben-fair'], color: 'x', options: { clock: '3+2' } } });
  const { board } = await created.json();
  assert.equal((await ben.request.post(`${BASE}/api/games/${board}/accept`)).status(), 200);
  const play = (page, move) => page.request.post(`${BASE}/api/games/${board}/move`, { data: { move } });
  // Moves no other test plays: a finished game's position may also stand on a board in play.
  assert.ok((await play(ada, 'g2')).ok());
  for (const page of [ada, guest]) {
    await page.goto(`${BASE}/#/game/${board}`);
    await page.waitForSelector('.board .piece');
    assert.equal(await page.locator('#analyse').isVisible(), false, 'no Analyse while the game is in play');
  }
  // The server refuses it too, whoever asks.
  const fen = (await (await guest.request.get(`${BASE}/api/games/${board}`)).json()).fen;
  const refused = await guest.request.get(`${BASE}/api/analysis?fen=${encodeURIComponent(fen)}`);
  assert.equal(refused.status(), 403);
  assert.ok((await play(ben, 'a2')).ok());
  assert.ok((await play(ada, 'resign')).ok());
  await waitText(guest, '#status', 'by resignation');
  await guest.click('#analyse');
  await guest.waitForSelector('#best-move');
  await guest.waitForSelector('.board .square.hint');
  await guest.click('.replay [data-step="back"]');
  await waitText(guest, '#ply-label', '1 / 2');
  assert.equal(await guest.locator('#analysis').textContent(), '', 'the analysis went with its position');
  assert.equal(await guest.locator('.board .square.hint').count(), 0, 'and its outline');
  for (const page of [ada, ben, guest]) await page.context().close();
  noScriptErrors();
});

test('an incoming challenge shows in the tab title and the favicon', async () => {
  const [cy, dee] = await Promise.all(['cy-title', 'dee-title'].map((name) => person(name)));
  await cy.goto(`${BASE}/#/leaderboard`);
  await cy.waitForSelector('#board-list');
  assert.doesNotMatch(await cy.title(), /^\(\d+\)/);
  const created = await dee.request.post(`${BASE}/api/games`, { data: { opponents: ['cy-title'], options: {} } });
  const { board } = await created.json();
  await cy.waitForFunction(() => document.title.startsWith('(1) '));
  assert.equal(await cy.getAttribute('link[rel="icon"]', 'data-waiting'), '1');
  assert.equal((await cy.request.post(`${BASE}/api/games/${board}/decline`)).status(), 200);
  await cy.waitForFunction(() => !document.title.startsWith('('));
  for (const page of [cy, dee]) await page.context().close();
  noScriptErrors();
});

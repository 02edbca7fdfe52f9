// Browser tests: Chromium drives the pages of the file's own `ataxx serve` (common.mjs starts
// it, or ATAXX_URL names one). People are simulated by separate browser contexts, each with its
// own cookies.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  BASE, boardOf, clickSquare, gameOf, moveCount, noPiece, noScriptErrors, person, piece, shot,
  waitText,
} from './common.mjs';

test('two people: challenge, accept, live moves, undo, chat, reload, resign, replay', async () => {
  const alice = await person('alice');
  const bob = await person('bob');
  const { line } = alice;

  // Alice challenges Bob to a live game; she plays x and moves first.
  await alice.click('label:has(> [name=kind][value=person])');
  await alice.fill('[name=opponent]', 'bob');
  await alice.selectOption('[name=clock]', '5+3');
  await alice.click('#challenge-submit');
  await waitText(alice, '#challenges', 'waiting for bob');

  // Bob sees the challenge arrive without reloading and accepts; both land on the board.
  await waitText(bob, '#challenges', 'alice challenges you');
  await bob.click('#challenges button[data-act=accept]');
  await bob.waitForURL(/#\/game\/\d+/);
  await alice.waitForURL(/#\/game\/\d+/);
  assert.equal(boardOf(alice), boardOf(bob));
  await waitText(alice, '#status', 'Your move.');
  await waitText(bob, '#status', 'alice to move.');

  // A piece shows its 3 single targets and 5 jump targets, marked differently.
  await clickSquare(alice, 'a7');
  assert.equal(await alice.locator('.target.single').count(), 3);
  assert.equal(await alice.locator('.target.jump').count(), 5);
  await clickSquare(alice, 'b6');
  await piece(alice, 'x', 'b6');
  await piece(bob, 'x', 'b6');
  assert.equal(await alice.locator('.target').count(), 0);

  // Bob clicks an empty square his singles reach: the move is played at once.
  await waitText(bob, '#status', 'Your move.');
  await clickSquare(bob, 'f6');
  await piece(alice, 'o', 'f6');

  // Alice jumps g1 -> e3: the origin empties.
  await clickSquare(alice, 'g1');
  await clickSquare(alice, 'e3');
  await piece(bob, 'x', 'e3');
  await noPiece(bob, 'g1');

  // Bob types a jump.
  await bob.fill('#move-input', 'a1b3');
  await bob.press('#move-input', 'Enter');
  await piece(alice, 'o', 'b3');
  await noPiece(alice, 'a1');
  assert.equal(await moveCount(alice), 4);

  // Bob asks to take his jump back; Alice accepts; both boards return to 3 moves.
  await bob.click('#undo');
  await waitText(alice, '#proposal', 'bob proposes to take back the last move');
  await alice.click('#proposal button[data-word=accept]');
  await piece(bob, 'o', 'a1');
  await noPiece(alice, 'b3');
  assert.equal(await moveCount(bob), 3);

  // Chat goes both ways. A chat line arriving while Bob holds a picked piece leaves it picked.
  await waitText(bob, '#status', 'Your move.');
  await clickSquare(bob, 'a1');
  await bob.waitForSelector('#board rect.selected[data-sq="a1"]');
  await alice.fill('#chat-input', 'good luck!');
  await alice.press('#chat-input', 'Enter');
  await waitText(bob, '#chat', 'good luck!');
  assert.equal(await bob.locator('#board rect.selected[data-sq="a1"]').count(), 1, 'the chat line kept the picked piece');
  await clickSquare(bob, 'a1');
  await bob.waitForSelector('#board rect.selected', { state: 'detached' });

  // Bob plays again; Alice grows b6 -> c5 (a single: the origin stays).
  await waitText(bob, '#status', 'Your move.');
  await bob.fill('#move-input', 'f7');
  await bob.press('#move-input', 'Enter');
  await piece(alice, 'o', 'f7');
  await clickSquare(alice, 'b6');
  await clickSquare(alice, 'c5');
  await piece(bob, 'x', 'c5');
  await piece(bob, 'x', 'b6');
  await alice.waitForTimeout(300);

  // Alice loses her connection; Bob moves meanwhile; her page catches up when it is back.
  line.up = false;
  await Promise.all(line.sockets.splice(0).map((ws) => ws.close({ code: 1001, reason: 'line cut' })));
  await waitText(alice, '#connection', 'reconnecting');
  await bob.fill('#move-input', 'g6');
  await bob.press('#move-input', 'Enter');
  await piece(bob, 'o', 'g6');
  line.up = true;
  await piece(alice, 'o', 'g6');
  await waitText(alice, '#connection', /^$/);
  await waitText(alice, '#status', 'Your move.');
  await clickSquare(alice, 'b6');
  await clickSquare(alice, 'b5');
  await piece(bob, 'x', 'b5');

  // Alice reloads in the middle of the game and carries on.
  await alice.reload();
  await piece(alice, 'x', 'c5');
  await piece(alice, 'o', 'f7');
  assert.equal(await moveCount(alice), 7);
  await waitText(alice, '#status', 'bob to move.');
  await bob.fill('#move-input', 'e6');
  await bob.press('#move-input', 'Enter');
  await piece(alice, 'o', 'e6');
  await waitText(alice, '#status', 'Your move.');
  // Her jump e3 -> e5 flips e6 and f6, and the move list counts them.
  await clickSquare(alice, 'e3');
  await clickSquare(alice, 'e5');
  await piece(bob, 'x', 'e5');
  await piece(bob, 'x', 'e6');
  await piece(bob, 'x', 'f6');
  await waitText(bob, '#moves td[data-ply="9"]', '+2');
  assert.match(await alice.locator('[data-clock=x]').textContent(), /^[45]:\d\d$/);
  await shot(alice, 'game.png');

  // Bob resigns (the button asks once more); both see the result.
  await bob.click('#resign');
  await bob.click('#resign');
  await waitText(alice, '#status', 'You win by resignation');
  await waitText(bob, '#status', 'You lose by resignation');

  // The finished game replays with the buttons and the arrow keys.
  const plies = await moveCount(alice);
  assert.equal(plies, 9);
  await alice.click('[data-step=start]');
  await waitText(alice, '#ply-label', `0 / ${plies}`);
  assert.equal(await alice.locator('.board .piece').count(), 4);
  await alice.keyboard.press('ArrowRight');
  await waitText(alice, '#ply-label', `1 / ${plies}`);
  await piece(alice, 'x', 'b6');
  assert.equal(await alice.locator('.board .piece').count(), 5);
  await alice.keyboard.press('ArrowRight');
  await alice.keyboard.press('ArrowRight');
  await waitText(alice, '#ply-label', `3 / ${plies}`);
  await noPiece(alice, 'g1');
  await shot(alice, 'replay.png');
  await alice.keyboard.press('End');
  await waitText(alice, '#ply-label', `${plies} / ${plies}`);

  // The PGN download holds the players, the result and the moves.
  const [download] = await Promise.all([alice.waitForEvent('download'), alice.click('#pgn')]);
  const pgn = await readFile(await download.path(), 'utf8');
  assert.match(pgn, /\[Black "alice"\]/);
  assert.match(pgn, /\[White "bob"\]/);
  assert.match(pgn, /\[Result "1-0"\]/);
  assert.match(pgn, /\[Termination "resignation"\]/);
  assert.match(pgn, /1\. b6 f6 2\. g1e3 f7 3\. c5 g6 4\. b5 e6 5\. e3e5 1-0/);

  // The board image shows the final position.
  const svg = await (await alice.request.get(`${BASE}/board/${boardOf(alice)}.svg`)).text();
  assert.match(svg, /^<svg/);
  assert.equal(svg.match(/<circle/g).length, 11);
  const png = await alice.request.get(BASE + await alice.locator('#image-png').getAttribute('href'));
  assert.equal(png.headers()['content-type'], 'image/png');
  assert.equal((await png.body()).subarray(1, 4).toString(), 'PNG');

  // The analysis button answers with a legal move of the side to move in the shown position
  // (after three moves: the start stands on other boards in play, where no engine may help).
  await alice.click('[data-step=start]');
  for (let i = 0; i < 3; i++) await alice.click('[data-step=forward]');
  await waitText(alice, '#ply-label', `3 / ${plies}`);
  await alice.click('#analyse');
  await waitText(alice, '#analysis', /Best for o: [a-g][1-7]/);

  // The profile shows the rating history plot.
  await alice.goto(`${BASE}/#/user/alice`);
  await alice.waitForSelector('.rating-plot .point');
  await waitText(alice, '.profile .stats', /1\s*wins/);
  await shot(alice, 'profile.png');
  await alice.context().close();
  await bob.context().close();
  noScriptErrors();
});

test('a game against a bot, clicked to its end on a 4x4 board', async () => {
  const carol = await person('carol', { width: 420, height: 860 });
  await carol.selectOption('[name=bot]', 'bot-very-easy');
  await carol.selectOption('[name=size]', '4');
  await carol.click('#challenge-submit');
  await carol.waitForURL(/#\/game\/\d+/);
  for (let turn = 0; turn < 60; turn++) {
    await waitText(carol, "#status", /Your move|win|lose|Draw/);
    const status = await carol.locator('#status').textContent();
    if (!status.includes('Your move')) break;
    const before = await moveCount(carol);
    // Click own pieces until one shows targets, then take its first target.
    const mine = await carol.locator('.board .piece.x').evaluateAll((nodes) => nodes.map((n) => n.dataset.sq));
    let moved = false;
    for (const sq of mine) {
      await clickSquare(carol, sq);
      const target = carol.locator('.target').first();
      if (await target.count()) {
        await clickSquare(carol, await target.getAttribute('data-target'));
        moved = true;
        break;
      }
      await clickSquare(carol, sq);
    }
    assert.ok(moved, 'a player whose move it is has a move');
    await carol.waitForFunction((n) => document.querySelectorAll('#moves td.mv').length > n, before);
  }
  await waitText(carol, '#status', /You win|You lose|Draw/);
  await shot(carol, 'bot-game-phone.png', true);
  await carol.goto(`${BASE}/#/`);
  await carol.waitForSelector('#finished li[data-board]');
  await carol.context().close();
  noScriptErrors();
});

/** The board's cells that hold a piece of `letter` (square and hexagonal boards). */
const piecesOf = (page, letter) => page.locator(`.board .piece.${letter}`).evaluateAll((nodes) => nodes.map((n) => n.dataset.sq));
const clickCell = (page, cell) => page.click(`.board .squares [data-sq="${cell}"]`);
/** The game on the page's board, as the server has it. */
const gameHere = (page) => gameOf(page, boardOf(page));

/** Starts a game of `game` from the lobby form against people; returns once the board shows. */
async function challengeFromLobby(page, game, opponents, choose = async () => {}) {
  await page.selectOption('[name=game]', game);
  await page.click('label:has(> [name=kind][value=person])');
  await page.fill('[name=opponent]', opponents[0]);
  if (opponents.length > 1) {
    await page.fill('[name=opponent3]', opponents[1]);
    await page.fill('[name=opponent4]', opponents[2]);
  }
  await choose();
  await page.click('#challenge-submit');
  await waitText(page, '#challenges', 'waiting for');
  const board = await page.locator('#challenges li[data-board]').first().getAttribute('data-board');
  await page.goto(`${BASE}/#/game/${board}`);
  await page.waitForSelector('.board');
  return Number(board);
}

/** Opens a board and accepts its challenge by the page's button. */
async function acceptOnBoard(page, board) {
  await page.goto(`${BASE}/#/game/${board}`);
  await page.click('[data-answer=accept]');
}

/**
 * One turn by clicking on a square or hexagonal board: own pieces are clicked until one shows
 * targets, whose set must be what the server lists as legal from there; then the first target.
 */
async function clickATurn(page, letter) {
  const game = await gameHere(page);
  for (const cell of await piecesOf(page, letter)) {
    await clickCell(page, cell);
    const targets = await page.locator('.board .target').evaluateAll((nodes) => nodes.map((n) => n.dataset.target));
    const jumps = game.legal_moves.filter((m) => m.startsWith(cell)).map((m) => m.slice(2));
    const shownJumps = await page.locator('.board .target.jump').evaluateAll((nodes) => nodes.map((n) => n.dataset.target));
    assert.deepEqual(shownJumps.sort(), jumps.sort(), `jump targets of ${cell}`);
    if (targets.length) {
      const before = game.ply;
      await clickCell(page, targets[0]);
      await page.waitForFunction((n) => Number(document.querySelector('#ply-label').textContent.split('/')[1]) > n, before);
      return;
    }
  }
  assert.fail(`${letter} has a move but no piece showed targets`);
}

test('Hexxagon: two people play a 3-cell-a-side game to its end by clicking', async () => {
  const erin = await person('erin');
  const fred = await person('fred');
  const board = await challengeFromLobby(erin, 'hexxagon', ['fred'], () => erin.selectOption('[name=size]', '3'));
  await acceptOnBoard(fred, board);
  await waitText(erin, '#status', 'Your move.');
  assert.equal(await erin.locator('.board polygon.square').count(), 19);
  // a1's targets on the 19-cell board: the singles b1, a2, b2 and the free jumps c2, b3, c3
  // (o holds c1 and a3).
  await clickCell(erin, 'a1');
  assert.deepEqual((await erin.locator('.target.single').evaluateAll((n) => n.map((t) => t.dataset.target))).sort(), ['a2', 'b1', 'b2']);
  assert.deepEqual((await erin.locator('.target.jump').evaluateAll((n) => n.map((t) => t.dataset.target))).sort(), ['b3', 'c2', 'c3']);
  await clickCell(erin, 'b2');
  await piece(fred, 'x', 'b2');
  await shot(fred, 'hexxagon-game.png');
  for (let turn = 0; turn < 80; turn++) {
    const game = await gameHere(erin);
    if (game.status !== 'active') break;
    const page = game.to_move === 'erin' ? erin : fred;
    await waitText(page, '#status', 'Your move.');
    await clickATurn(page, game.turn);
  }
  const game = await gameHere(erin);
  assert.equal(game.status, 'finished');
  await waitText(erin, '#status', /You win|You lose|Draw/);
  // The bars count what the final position holds.
  assert.equal(await erin.locator('[data-pieces=x]').first().textContent(), String(game.seats[0].pieces));
  await shot(erin, 'hexxagon-finished.png');
  await erin.context().close();
  await fred.context().close();
  noScriptErrors();
});

test('four-player Ataxx: four people, red is captured and out, its turn skipped', async () => {
  const [gina, hugo, ines, jack] = [await person('gina'), await person('hugo'), await person('ines'), await person('jack')];
  const board = await challengeFromLobby(gina, 'ataxx4', ['hugo', 'ines', 'jack'], () => gina.selectOption('[name=size]', '5'));
  for (const page of [hugo, ines, jack]) await acceptOnBoard(page, board);
  await waitText(gina, '#status', 'Your move.');
  assert.equal(await gina.locator('.board .piece').count(), 4);
  // Red jumps a5 to c5; blue clones e5 to d5 and takes c5: red has no pieces left.
  await clickCell(gina, 'a5');
  await clickCell(gina, 'c5');
  await waitText(hugo, '#status', 'Your move.');
  await clickCell(hugo, 'd5');
  await piece(hugo, 'b', 'c5');
  await waitText(gina, '.player-bar[data-seat=r]', 'out');
  await waitText(gina, '#status', 'ines to move.');
  // Green and yellow move; then blue again: red's turn never comes.
  await waitText(ines, '#status', 'Your move.');
  await clickATurn(ines, 'g');
  await waitText(jack, '#status', 'Your move.');
  await clickATurn(jack, 'y');
  await waitText(hugo, '#status', 'Your move.');
  const game = await gameHere(gina);
  assert.equal(game.turn, 'b');
  assert.deepEqual(game.seats.map((s) => s.pieces), [0, 3, 2, 2]);
  // The move list has a column per seat.
  assert.equal(await gina.locator('#moves thead th').count(), 5);
  await shot(gina, 'ataxx4-game.png');
  for (const page of [gina, hugo, ines, jack]) await page.context().close();
  noScriptErrors();
});

/** Clicks an Ankor cube on one of its visible faces (a corner may lie under a higher cube). */
const clickCube = (page, cell) => page.locator(`.board .cube[data-cell="${cell}"] .face`).first().click();

/**
 * An Ankor turn without a free hole: the first cube the server lets move is picked, its shown
 * destinations must be the server's, and the first is taken.
 */
async function moveACube(page) {
  const { legal_moves: legal } = await gameHere(page);
  const from = legal.find((m) => m.includes('-'))?.split('-')[0];
  assert.ok(from, `a move without a free hole moves a cube: ${legal}`);
  await clickCube(page, from);
  const shown = await page.locator('.board .target.move').evaluateAll((n) => n.map((t) => t.dataset.target));
  assert.deepEqual(shown.sort(), legal.filter((m) => m.startsWith(`${from}-`)).map((m) => m.split('-')[1]).sort());
  await page.click(`.board .target.move[data-cell="${shown[0]}"]`);
}

test('Ankor: place, swap, pick a cube and its destination, to the end with the winning path', async () => {
  const kate = await person('kate');
  const liam = await person('liam');
  const board = await challengeFromLobby(kate, 'ankor', ['liam'], () => kate.selectOption('[name=size]', '3'));
  await acceptOnBoard(liam, board);
  await waitText(kate, '#status', 'Your move.');
  // Every hole of the empty 3-hole board takes a cube.
  assert.equal(await kate.locator('.board .hole.place').count(), 6);
  await kate.click('.board .hole[data-cell=b2]');
  await liam.waitForSelector('.board .cube.o[data-cell=b2]');
  // The second move may be the swap: Liam takes over O's cube, Kate plays X and moves again.
  await liam.click('#swap');
  await waitText(kate, '#status', 'Swapped');
  await waitText(kate, '#status', 'Your move.');
  assert.equal((await gameHere(kate)).seats[1].name, 'kate');
  await kate.click('.board .hole[data-cell=c3]');
  await shot(kate, 'ankor-swap.png');
  // Liam moves his cube: pick it, the destinations shown are the server's, then one of them.
  await waitText(liam, '#status', 'Your move.');
  await clickCube(liam, 'b2');
  const legal = (await gameHere(liam)).legal_moves.filter((m) => m.startsWith('b2-')).map((m) => m.slice(3));
  const shown = await liam.locator('.board .target.move').evaluateAll((n) => n.map((t) => t.dataset.target));
  assert.deepEqual(shown.sort(), legal.sort());
  assert.ok(shown.length > 0, 'the cube can move');
  await liam.click(`.board .target.move[data-cell="${shown[0]}"]`);
  await kate.waitForSelector(`.board .cube.o[data-cell="${shown[0]}"]`);
  // Then both place cubes on the first free hole until the game ends.
  for (let turn = 0; turn < 40; turn++) {
    const game = await gameHere(kate);
    if (game.status !== 'active') break;
    const page = game.to_move === 'kate' ? kate : liam;
    await waitText(page, '#status', 'Your move.');
    const before = game.ply;
    const hole = page.locator('.board .hole.place').first();
    if (await hole.count()) await hole.click();
    else await moveACube(page);
    await page.waitForFunction((n) => Number(document.querySelector('#ply-label').textContent.split('/')[1]) > n, before);
  }
  const game = await gameHere(kate);
  assert.equal(game.status, 'finished');
  // These clicks always give Liam (O after the swap) a winning group; the board outlines it.
  assert.equal(game.winner, 'liam');
  await waitText(kate, '#status', 'You lose.');
  await kate.waitForSelector('.board .cube.win');
  assert.ok(game.winning_path.length >= 3, `${game.winning_path}`);
  assert.deepEqual((await kate.locator('.board .cube.win').evaluateAll((n) => n.map((c) => c.dataset.cell))).sort(), [...game.winning_path].sort());
  await shot(kate, 'ankor-finished.png');
  // Replay: the first position is the empty pyramid.
  await kate.keyboard.press('Home');
  await waitText(kate, '#ply-label', /^0 \//);
  assert.equal(await kate.locator('.board .cube').count(), 0);
  await kate.context().close();
  await liam.context().close();
  noScriptErrors();
});

test('the blocks picker: codes, masks and clicks, with the FEN a game starts from', async () => {
  const dave = await person('dave');
  await dave.fill('#blocks-input', '6bch');
  await waitText(dave, '#layout-fen', 'x5o/7/-------/7/-------/7/o5x x 0 1');
  await waitText(dave, '#layout-count', /^14$/);
  assert.equal(await dave.locator('#blocks-board .square.blocked').count(), 14);

  // Clicking c5 blocks its three mirror images too: the four-corner layout, code h.
  await dave.click('#blocks-clear');
  await waitText(dave, '#layout-count', /^0$/);
  await dave.click('#blocks-board rect[data-sq=c5]');
  await waitText(dave, '#layout-code', /^h$/);
  await waitText(dave, '#layout-fen', 'x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1');
  await dave.click('#blocks-board rect[data-sq=e3]');
  await waitText(dave, '#layout-count', /^0$/);

  // A mask works as well as a code; bad input is explained.
  await dave.fill('#blocks-input', '0x0400');
  await waitText(dave, '#layout-code', /^h$/);
  await waitText(dave, '#layout-count', /^4$/);
  await dave.fill('#blocks-input', '6bq');
  await waitText(dave, '#blocks-error', 'expected one of');

  // A game challenged with 6bch starts from that FEN.
  await dave.fill('#blocks-input', '6bch');
  await waitText(dave, '#layout-code', '6bch');
  await dave.click('#challenge-submit');
  await dave.waitForURL(/#\/game\/\d+/);
  await dave.waitForSelector('.board .square.blocked');
  assert.equal(await dave.locator('.board .square.blocked').count(), 14);
  const game = await (await dave.request.get(`${BASE}/api/games/${boardOf(dave)}`)).json();
  assert.equal(game.start_fen, 'x5o/7/-------/7/-------/7/o5x x 0 1');

  // The colour-blind-safe style marks the sides by shape as well as colour, and is remembered.
  await clickSquare(dave, 'g1');
  await dave.check('#cb-toggle');
  assert.equal(await dave.locator('.board .piece.x .glyph').first().isVisible(), true);
  await dave.reload();
  await dave.waitForSelector('body.cb .board .piece');
  await clickSquare(dave, 'g1');
  await shot(dave, 'game-colour-blind.png');
  await dave.uncheck('#cb-toggle');

  // The lobby with a game in play, a challenge waiting and finished games.
  await dave.goto(`${BASE}/#/`);
  await dave.click('label:has(> [name=kind][value=person])');
  await dave.fill('[name=opponent]', 'alice');
  await dave.click('#challenge-submit');
  await waitText(dave, '#challenges', 'waiting for alice');
  await dave.fill('#blocks-input', '36');
  await waitText(dave, '#layout-code', '36');
  await shot(dave, 'lobby.png');
  await dave.context().close();
  noScriptErrors();
});

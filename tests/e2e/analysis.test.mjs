// Browser tests of the computer analysis of finished games (issue #33): a player asks for it on
// the game page, sees its progress and then the evaluation graph, the judged moves and the
// players' accuracy; a click on the graph shows that ply, with the engine's move as an arrow.
// Square Ataxx and Hexxagon. Games are played through the API and finished by a resignation.
// The analysis board: both sides' moves, the explorer, and the engine's live lines deepening
// for square Ataxx and Hexxagon; a start on a blocked layout; the seed's 1995 game pasted as its
// record and as PGN, replayed to its final position.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  account, BASE, call, noPiece, noScriptErrors, person, piece, shotsLightDark, TIMEOUT, visitor, waitText,
} from './common.mjs';

/** A rated game of `game` through a seek: `x` posts it, `o` takes it. Returns the board. */
async function seekGame(x, o, game, size) {
  const seek = await call(x, 'POST', '/api/seeks', { game, size, color: 'x', rated: true }, 201);
  const started = await call(o, 'POST', `/api/seeks/${seek.id}/accept`, undefined, 201);
  assert.equal(started.status, 'active');
  return started.board;
}

/** Plays `moves` alternately (x first; null: the first legal move), then x resigns. */
async function playAndResign(x, o, board, moves) {
  for (const [i, move] of moves.entries()) {
    const mover = i % 2 === 0 ? x : o;
    const chosen = move ?? (await call(mover, 'GET', `/api/games/${board}`)).legal_moves[0];
    await call(mover, 'POST', `/api/games/${board}/move`, { move: chosen });
  }
  await call(x, 'POST', `/api/games/${board}/move`, { move: 'resign' });
}

/** Waits for the finished analysis on the page: the graph and the players' summary. */
async function graphShown(page) {
  await page.waitForSelector('.eval-graph', { timeout: 6 * TIMEOUT });
  await page.waitForSelector('.review-summary tbody tr');
}

/** Clicks the graph where ply `ply` of `total` lies. */
async function clickGraph(page, ply, total) {
  await page.locator('.eval-graph').scrollIntoViewIfNeeded();
  const box = await page.locator('.eval-graph').boundingBox();
  await page.mouse.click(box.x + (box.width * ply) / total, box.y + box.height / 2);
}

test('a player asks for the analysis of a finished Ataxx game, watches it come, and replays it from the graph', async () => {
  // Signed in on the page itself (an account made through the API is unknown to the page).
  const ann = await person('review-ann');
  const ben = await account('review-ben');
  const board = await seekGame(ann, ben, 'ataxx', 7);
  // Columns b and f: nobody captures, so every position is known by heart.
  const moves = ['b6', 'f6', 'b5', 'f5', 'b4', 'f4'];
  await playAndResign(ann, ben, board, moves);

  await ann.goto(`${BASE}/#/game/${board}`);
  await waitText(ann, '#status', /resign/i);
  const button = ann.locator('#request-analysis');
  await button.waitFor();
  // Every line the progress shows is kept, however fast the worker is.
  await ann.evaluate(() => {
    window.progressSeen = [];
    const node = document.querySelector('#review-progress');
    new MutationObserver(() => window.progressSeen.push(node.textContent)).observe(node, { childList: true, characterData: true, subtree: true });
  });
  await button.click();
  await graphShown(ann);
  assert.ok(await button.isHidden(), 'asked once, the button goes');
  const seen = await ann.evaluate(() => window.progressSeen.filter(Boolean));
  assert.ok(seen.some((line) => /waiting|ply \d+ of 6/.test(line)), `progress lines: ${JSON.stringify(seen)}`);

  // The page shows what the server judged: a mark per flagged move, a row per player.
  const report = await call(ann, 'GET', `/api/games/${board}/analysis`);
  assert.equal(report.status, 'done');
  assert.equal(await ann.locator('#moves .judged').count(), report.plies.filter((p) => p.class).length);
  assert.equal(await ann.locator('.review-summary tbody tr').count(), 2);
  await waitText(ann, '.review-summary', `${report.players.x.accuracy.toFixed(1)}`);

  // A click on the graph shows that ply: after two plies b6 stands and b5 is still empty.
  await clickGraph(ann, 2, moves.length);
  await waitText(ann, '#ply-label', '2 / 6');
  await piece(ann, 'x', 'b6');
  await noPiece(ann, 'b5');
  // The engine's move for the position shown, drawn from its cell or onto it.
  assert.ok(report.plies[2].best, 'the third ply has a best move');
  await ann.waitForSelector('#board .best-arrow');
  assert.deepEqual(await shotsLightDark(ann, 'analysis-game', { axe: true, fullPage: true }), []);

  // Someone who did not play opens the page later: the analysis is there for them too.
  const guest = await visitor('review-guest');
  await guest.goto(`${BASE}/#/game/${board}`);
  await graphShown(guest);
  assert.ok(await guest.locator('#request-analysis').isHidden(), 'a signed-out visitor cannot ask');
  await clickGraph(guest, 0, moves.length);
  await waitText(guest, '#ply-label', '0 / 6');
  noScriptErrors();
});

test('a Hexxagon game is analysed the same way, its graph taking the board back', async () => {
  const cal = await account('review-cal');
  const dee = await person('review-dee');
  const board = await seekGame(cal, dee, 'hexxagon', 3);
  await playAndResign(cal, dee, board, [null, null, null, null]);
  // The other player asks, through the API; the page opened meanwhile follows the socket.
  await dee.goto(`${BASE}/#/game/${board}`);
  await dee.locator('#request-analysis').waitFor();
  await call(cal, 'POST', `/api/games/${board}/analysis`, undefined, 201);
  await graphShown(dee);
  await clickGraph(dee, 1, 4);
  await waitText(dee, '#ply-label', '1 / 4');
  await dee.waitForSelector('#board .best-arrow');
  assert.deepEqual(await shotsLightDark(dee, 'analysis-hexxagon', { axe: true, fullPage: true }), []);
  noScriptErrors();
});

/** The engine's live lines on the analysis board: the depth its table shows now. */
const shownDepth = async (page) => Number((await page.textContent('.engine-lines caption')).match(/Depth (\d+)/)[1]);

/**
 * Waits until the analysis board shows the engine's three lines, then until a deeper search
 * replaces them: three distinct moves, each with a score and a winning chance in percent.
 * Returns the moves shown.
 */
async function liveLines(page) {
  await page.waitForFunction(() => document.querySelectorAll('.engine-lines tbody tr').length === 3);
  const first = await shownDepth(page);
  await page.waitForFunction((depth) => {
    const caption = document.querySelector('.engine-lines caption');
    return caption && Number(caption.textContent.match(/Depth (\d+)/)[1]) > depth;
  }, first);
  const rows = await page.$$eval('.engine-lines tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent.trim())));
  assert.equal(rows.length, 3);
  for (const [move, score, chance, line] of rows) {
    assert.match(score, /^[+-]?\d+\.\d\d$|^(wins|loses) in \d+$/);
    assert.match(chance, /^\d{1,3}%$/);
    assert.ok(line.startsWith(move), `${line} starts with ${move}`);
  }
  const moves = rows.map(([move]) => move);
  assert.equal(new Set(moves).size, 3, `distinct moves: ${moves}`);
  return moves;
}

test('the analysis board plays both sides, shows the engine lines live and the explorer, and opens from a finished game', async () => {
  const eve = await account('review-eve');
  const fay = await account('review-fay');
  const board = await seekGame(eve, fay, 'ataxx', 7);
  await playAndResign(eve, fay, board, ['b6', 'f6']);

  // From the finished game's page, at the first ply: the position after b6.
  await eve.goto(`${BASE}/#/game/${board}`);
  await waitText(eve, '#status', /resign/i);
  await eve.click('#moves [data-ply="1"]');
  await waitText(eve, '#ply-label', '1 / 2');
  await eve.click('#analyse-from-here');
  await eve.waitForURL(/#\/analysis\?/);
  await piece(eve, 'x', 'b6');
  await waitText(eve, '#analysis-turn', 'O to move');
  // The explorer counts the games that reached it (this one at least), with f6 among them.
  await waitText(eve, '#explorer', /\d+ of \d+ finished games/);
  await eve.waitForSelector('#explorer [data-move="f6"]');
  // The engine thinks, or says why not when another board in play stands here.
  await waitText(eve, '#engine', /thinking|in play|busy/);

  // Moves for both sides: a click on an explorer move plays it; a clone by clicks.
  await eve.click('#explorer [data-move="f6"]');
  await piece(eve, 'o', 'f6');
  await waitText(eve, '#analysis-line', 'f6');
  await waitText(eve, '#analysis-turn', 'X to move');
  await eve.click('.board rect[data-sq="b6"]');
  await eve.click('.board rect[data-sq="c6"]');
  await piece(eve, 'x', 'c6');
  await waitText(eve, '#analysis-line', 'f6 c6');
  await eve.click('#analysis-back');
  await noPiece(eve, 'c6');

  // A FEN typed in (one no game can reach, so no board in play stands there): the engine's
  // three lines come live and deepen, its best move drawn on the board.
  await eve.fill('#analysis-fen', 'x5o/7/7/3x3/7/7/o5x o 0 1');
  await eve.click('#analysis-setup button[type=submit]');
  await piece(eve, 'x', 'd4');
  const moves = await liveLines(eve);
  await eve.waitForSelector('#board .best-arrow');
  assert.deepEqual(await shotsLightDark(eve, 'analysis-board', { axe: true }), []);
  // A click on an engine move plays it, and the next position's lines come.
  await eve.click(`.engine-lines [data-move="${moves[0]}"]`);
  await waitText(eve, '#analysis-line', moves[0]);
  await waitText(eve, '#analysis-turn', 'X to move');
  await liveLines(eve);
  await eve.click('#analysis-start');
  await noPiece(eve, 'd4');
  await waitText(eve, '#analysis-turn', 'X to move');

  // Another game: Hexxagon, its board drawn, its explorer asked and its engine's lines live,
  // on a phone's width. Its start with o to move: no game reaches it, so none is in play there.
  await eve.setViewportSize({ width: 320, height: 800 });
  await eve.selectOption('#analysis-game', 'hexxagon');
  await eve.waitForSelector('#board svg.board .hex');
  // Set up on its start first (the address names it), then on the FEN typed in.
  await eve.waitForFunction(() => location.hash.includes('game=hexxagon'));
  const start = await call(eve, 'GET', '/api/rules/hexxagon');
  await eve.fill('#analysis-fen', start.fen.replace(/ x (\d+ \d+)$/, ' o $1'));
  await eve.click('#analysis-setup button[type=submit]');
  await waitText(eve, '#analysis-turn', 'O to move');
  await waitText(eve, '#explorer', /finished games reached/);
  await liveLines(eve);
  assert.ok(await eve.evaluate(() => document.documentElement.scrollWidth <= 320), 'nothing wider than the phone');
  assert.deepEqual(await shotsLightDark(eve, 'analysis-board-hexxagon', { axe: true, fullPage: true }), []);
  noScriptErrors();
});

test('the analysis board starts on a blocked layout and replays the 1995 game pasted as a record or as PGN', async () => {
  const page = await visitor('analysis-import');
  await page.goto(`${BASE}/#/analysis?game=ataxx`);
  await waitText(page, '#analysis-turn', 'X to move');

  // A Blocks-Config code: the start on that layout, as the server's layout answer has it.
  const layout = await call(page, 'GET', '/api/layout/efh?game=ataxx');
  await page.fill('#analysis-blocks', 'efh');
  await page.click('#analysis-blocks-set');
  await page.waitForFunction((fen) => document.querySelector('#analysis-fen').value === fen, layout.fen);
  assert.ok(layout.blocked.length > 0, JSON.stringify(layout));

  const data = new URL('../../crates/ataxx/tests/data/keller-cobbs-1995', import.meta.url).pathname;
  const pgn = await readFile(`${data}.pgn`, 'utf8');
  const finalFen = pgn.match(/\[FinalFEN "([^"]+)"\]/)[1];
  for (const [text, format] of [[await readFile(`${data}.txt`, 'utf8'), '1995 record'], [pgn, 'PGN']]) {
    await page.click('#analysis-start');
    await page.fill('#analysis-import-text', text);
    await page.click('#analysis-import button[type=submit]');
    await waitText(page, '#analysis-notice', `Replayed 61 moves of Cobbs – Keller (${format}), 1-0.`);
    assert.equal(await page.inputValue('#analysis-fen'), finalFen);
    await waitText(page, '#analysis-line', /^b7 b2 f1 c3 .* g6 g5 a6$/);
    // Take back steps through the game: the last move, a6, goes.
    await page.click('#analysis-back');
    await waitText(page, '#analysis-line', /g6 g5$/);
    await page.waitForFunction(() => document.querySelector('#analysis-turn').textContent === 'X to move');
  }
  // Neither format: the server's two reasons are shown.
  await page.fill('#analysis-import-text', 'not a game at all');
  await page.click('#analysis-import button[type=submit]');
  await waitText(page, '#analysis-notice', /neither PGN .* nor a 1995 record/);
  await page.context().close();
  noScriptErrors();
});

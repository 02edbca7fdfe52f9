// Browser tests of issue #32's "learn the four games": the front page leads to a rules page for
// each game, and on each page's small boards the move the text asks for does what it says (the
// server checks it); a move that does not do it is said and set back.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, noScriptErrors, shot, visitor, waitText } from './common.mjs';

/** Clicks the cells of a try board in turn (square and hex cells: data-sq; Ankor: data-cell). */
async function play(page, attempt, cells) {
  for (const cell of cells) {
    // Dispatched, not clicked at a point: a cube may lie under another one, as on the game page.
    await page.locator(`#${attempt} .try-board [data-sq="${cell}"], #${attempt} .try-board [data-cell="${cell}"]`).last().dispatchEvent('click');
  }
}

/** Screenshots of the whole page, light and dark (the navigation's toggle). */
async function shots(page, name) {
  await shot(page, `${name}.png`, true);
  await page.click('#dark-toggle');
  await page.waitForSelector('body.dark');
  await shot(page, `${name}-dark.png`, true);
  await page.click('#dark-toggle');
  await page.waitForSelector('body.light');
}

/** Waits for the try's verdict. */
const said = (page, attempt, words) => waitText(page, `#${attempt} .try-status`, words);

test('the front page leads to a rules page for each of the four games', async () => {
  const guest = await visitor('learner');
  await guest.goto(`${BASE}/#/`);
  for (const [id, name] of [['ataxx', 'Ataxx'], ['hexxagon', 'Hexxagon'], ['ataxx4', 'Four-player Ataxx'], ['ankor', 'Ankor']]) {
    await guest.goto(`${BASE}/#/`);
    await guest.click(`.learn a[href="#/rules/${id}"]`);
    await waitText(guest, '.rules h1', name);
    await guest.waitForSelector('#try-1 .try-board svg');
  }
  await guest.goto(`${BASE}/#/rules`);
  assert.equal(await guest.locator('.rules-list a').count(), 4);
  await guest.goto(`${BASE}/#/rules/chess`);
  await waitText(guest, '.no-such-game', 'No such game');
  await guest.context().close();
  noScriptErrors();
});

test('on each rules page the move the text asks for does what it says, and another move is set back', async () => {
  const guest = await visitor('trier', { width: 1280, height: 1400 });
  await guest.goto(`${BASE}/#/rules/ataxx`);
  await guest.waitForSelector('#try-3 .piece');
  // A jump where a clone was asked: said, and the board is as it was.
  await play(guest, 'try-1', ['c3', 'a5']);
  await said(guest, 'try-1', 'That was a jump');
  assert.equal(await guest.locator('#try-1 .piece.x').count(), 1);
  await play(guest, 'try-1', ['c3', 'b3']);
  await said(guest, 'try-1', 'Cloned to b3: X has 2 pieces');
  await guest.waitForSelector('#try-1 .piece.x[data-sq="c3"]');
  await play(guest, 'try-2', ['c3', 'e5']);
  await said(guest, 'try-2', 'Jumped c3e5');
  assert.equal(await guest.locator('#try-2 .piece.x[data-sq="c3"]').count(), 0, 'the jump left c3');
  await play(guest, 'try-3', ['a2', 'b3']);
  await said(guest, 'try-3', '2 pieces turned: X has 4, O has 0');
  await shots(guest, 'rules-ataxx');

  await guest.goto(`${BASE}/#/rules/hexxagon`);
  await guest.waitForSelector('#try-2 .piece');
  await play(guest, 'try-1', ['c3', 'd4']);
  await said(guest, 'try-1', 'Cloned to d4');
  await play(guest, 'try-2', ['a1', 'c3']);
  await said(guest, 'try-2', 'Jumped a1c3 and took 2');
  await guest.waitForSelector('#try-2 .piece.x[data-sq="c4"]');
  await shots(guest, 'rules-hexxagon');

  await guest.goto(`${BASE}/#/rules/ataxx4`);
  await guest.waitForSelector('#try-1 .piece');
  await play(guest, 'try-1', ['a5', 'b5']);
  await said(guest, 'try-1', 'Blue is out. The turn skips it: green moves next');
  assert.equal(await guest.locator('#try-1 .piece.b').count(), 0);
  await shots(guest, 'rules-ataxx4');

  await guest.goto(`${BASE}/#/rules/ankor`);
  await guest.waitForSelector('#try-2 .cube');
  await play(guest, 'try-1', ['b1']);
  await said(guest, 'try-1', 'Placed on b1');
  await play(guest, 'try-2', ['b1', 'b2']);
  await said(guest, 'try-2', 'Moved b1-b2');
  await play(guest, 'try-3', ['a1', "c2'"]);
  await said(guest, 'try-3', 'No group touches all three sides');
  await play(guest, 'try-3', ['c3', "c2'"]);
  await said(guest, 'try-3', 'O wins');
  await guest.waitForSelector('#try-3 .cube.win');
  // A cube that carries a column leaves it sliding down into its place; one that carries
  // nothing is not the lesson.
  await play(guest, 'try-4', ["d3'", 'd4']);
  await said(guest, 'try-4', "d3'-d4 carried nothing");
  await guest.locator('#try-4 .try-again').click();
  await guest.waitForSelector(`#try-4 .cube[data-cell="d3'"]`);
  await play(guest, 'try-4', ['d2', 'd4']);
  await said(guest, 'try-4', "Moved d2-d4: the cube from d3' slid down into d2");
  await guest.waitForSelector('#try-4 .cube[data-cell="d2"]');
  assert.equal(await guest.locator(`#try-4 .cube[data-cell="d3'"]`).count(), 0, "d3' slid down");
  await shots(guest, 'rules-ankor');
  await guest.context().close();
  noScriptErrors();
});

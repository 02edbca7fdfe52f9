// Comfort and access (issue 17, part 2): the keyboard alone plays a game, a correspondence move
// or a challenge arriving in a background tab raises a notification, the tab title and favicon
// count the games waiting, and axe-core finds no serious or critical violation on any page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, boardOf, call, cursorTo, gameOf, noScriptErrors, person, shot, tabToBoard, untilGame,
  violations, visitor, waitText,
} from './common.mjs';

test('the keyboard alone plays a whole 4x4 game against a bot, and the moves are announced', async () => {
  const kim = await person('kim');
  await kim.selectOption('[name=bot]', 'bot-very-easy');
  await kim.selectOption('[name=size]', '4');
  await kim.click('#challenge-submit');
  await kim.waitForURL(/#\/game\/\d+/);
  const board = boardOf(kim);
  await waitText(kim, '#status', 'Your move');

  // Tab reaches the board like any control; the cursor shows on a cell.
  await tabToBoard(kim);
  assert.match(await kim.getAttribute('#board', 'data-cursor'), /^[a-d][1-4]$/);
  assert.equal(await kim.locator('#board .kb-cursor').count(), 1);

  let jumps = 0;
  for (let turn = 0; turn < 40; turn++) {
    // Kim's turn (or the end) at the server, then on the page.
    const game = await untilGame(kim, board, (g) => g.status === 'finished' || g.to_move === 'kim', "kim's turn never came");
    await waitText(kim, '#ply-label', `${game.ply} / ${game.ply}`);
    if (game.status === 'finished') break;
    await kim.waitForFunction(() => document.querySelector('#status').classList.contains('mine'));
    const legal = game.legal_moves.filter((m) => m !== '0000');
    // Jumps now and then, so that picking and dropping are both played by keys.
    const jump = legal.find((m) => m.length === 4);
    const move = turn % 3 === 1 && jump ? jump : legal.find((m) => m.length === 2) ?? legal[0];
    if (move.length === 4) {
      await cursorTo(kim, move.slice(0, 2));
      await kim.keyboard.press('Enter');
      await kim.waitForSelector(`#board rect.selected[data-sq="${move.slice(0, 2)}"]`);
      if (jumps === 0) {
        await shot(kim, 'keyboard-cursor.png');
        // Escape lets go of the picked piece; Enter picks it again.
        await kim.keyboard.press('Escape');
        await kim.waitForSelector('#board rect.selected', { state: 'detached' });
        assert.equal(await kim.evaluate(() => document.activeElement?.id), 'board');
        await kim.keyboard.press('Enter');
        await kim.waitForSelector(`#board rect.selected[data-sq="${move.slice(0, 2)}"]`);
      }
      jumps += 1;
      await cursorTo(kim, move.slice(2));
    } else {
      await cursorTo(kim, move);
    }
    await kim.keyboard.press('Enter');
    // The next turn starts from the board after this move.
    await untilGame(kim, board, (g) => g.ply > game.ply, `the move ${move} never reached the server`);
  }
  await waitText(kim, '#status', /You win|You lose|Draw/);
  assert.ok(jumps > 0, 'the game had a jump played by keys');
  assert.equal(await kim.evaluate(() => document.activeElement?.id), 'board', 'the focus stayed on the board');

  // Screen readers heard both sides' moves and the result.
  const final = await gameOf(kim, board);
  const said = await kim.locator('#announcer').textContent();
  assert.match(said, /(You|bot-very-easy) \((x|o)\)/);
  await waitText(kim, '#announcer', /You win|You lose|Draw/);
  const log = await kim.evaluate(() => [...document.querySelectorAll('#announcer p')].map((p) => p.textContent));
  assert.ok(log.some((line) => line.startsWith('bot-very-easy (o) plays')) || final.moves.at(-1).seat === 0, `the bot's moves are announced: ${log}`);
  await kim.context().close();
  noScriptErrors();
});

test('a notification tells of a challenge and a correspondence move in a background tab; the title and favicon count them', async () => {
  const ann = await person('ann');
  const ben = await person('ben');
  const context = ben.context();
  await context.grantPermissions(['notifications'], { origin: BASE });
  // Record what the page asks the browser to show (the permission stays the real one).
  await ben.addInitScript(() => {
    const Real = window.Notification;
    window.shownNotes = [];
    window.Notification = class {
      static get permission() { return Real.permission; }
      static requestPermission() { return Real.requestPermission(); }
      constructor(title, options = {}) { window.shownNotes.push({ title, body: options.body }); }
      close() {}
    };
  });
  await ben.reload();
  await ben.waitForSelector('#notify-toggle');
  await ben.check('#notify-toggle');
  await ben.waitForFunction(() => localStorage.getItem('notifications') === 'on');

  // Ben looks at another tab: his lobby goes to the background.
  const other = await context.newPage();
  await other.goto(`${BASE}/#/leaderboard`);
  await other.bringToFront();
  if (await ben.evaluate(() => document.visibilityState) !== 'hidden') {
    // Headless Chromium keeps every tab visible: say what a real browser says for a hidden tab.
    await ben.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
  }

  const created = await ann.evaluate(() => fetch('/api/games', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ opponents: ['ben'], color: 'x', options: {} }),
  }).then((r) => r.json()));
  const { board } = created;
  await ben.waitForFunction(() => window.shownNotes.length >= 1);
  assert.deepEqual(await ben.evaluate(() => window.shownNotes[0]), { title: 'ann challenges you', body: `ataxx on board ${board}` });

  const accepted = await ben.evaluate((b) => fetch(`/api/games/${b}/accept`, { method: 'POST' }).then((r) => r.status), board);
  assert.equal(accepted, 200);
  await ann.goto(`${BASE}/#/game/${board}`);
  await waitText(ann, '#status', 'Your move');
  await ann.click('.board rect[data-sq="b6"]');
  await ben.waitForFunction(() => window.shownNotes.length >= 2);
  assert.deepEqual(await ben.evaluate(() => window.shownNotes[1]), { title: `Your move on board ${board}`, body: 'ann played b6.' });

  // The tab title and the favicon count the one game waiting for Ben.
  await ben.waitForFunction(() => document.title.startsWith('(1) '));
  assert.equal(await ben.getAttribute('link[rel="icon"]', 'data-waiting'), '1');
  assert.match(await ben.getAttribute('link[rel="icon"]', 'href'), /^data:image\/svg\+xml,/);

  // On the board itself, in view, the favicon shows whose move it is and no note comes.
  await ben.evaluate(() => { delete document.visibilityState; });
  await ben.bringToFront();
  await ben.goto(`${BASE}/#/game/${board}`);
  await waitText(ben, '#status', 'Your move');
  await ben.waitForFunction(() => document.title.startsWith('(1) Your move'));
  assert.equal(await ben.getAttribute('link[rel="icon"]', 'data-turn'), 'o');
  await ben.click('.board rect[data-sq="f6"]');
  await waitText(ann, '#status', 'Your move');
  await ann.click('.board rect[data-sq="a6"]');
  await waitText(ben, '#status', 'Your move');
  assert.equal(await ben.evaluate(() => window.shownNotes.length), 2, 'no note while the page is in view');
  await shot(ben, 'notifications-nav.png');
  for (const page of [ann, ben]) await page.context().close();
  noScriptErrors();
});

test('axe-core finds no serious or critical violation on any page, light or dark, on a desktop and on phones', async () => {
  // The longest name allowed and a chat line without a space: what stretches pages most.
  const leeName = `lee${'e'.repeat(29)}`;
  const lee = await person(leeName);
  await lee.selectOption('[name=bot]', 'bot-very-easy');
  await lee.click('#challenge-submit');
  await lee.waitForURL(/#\/game\/\d+/);
  const board = boardOf(lee);
  await waitText(lee, '#status', 'Your move');
  await lee.click('.board rect[data-sq="b6"]');
  await lee.waitForSelector('#moves td.mv');
  const chat = await lee.request.post(`${BASE}/api/games/${board}/chat`, { data: { text: 'w'.repeat(300) } });
  assert.ok(chat.ok(), await chat.text());
  const signedOut = await visitor('guest');
  // A tournament with a long name's player in it, for the tournament pages.
  const tour = await call(lee, 'POST', '/api/tournaments', { kind: 'swiss', name: `Cup of ${leeName}`, rounds: 3 }, 201);
  await call(lee, 'POST', `/api/tournaments/${tour.id}/join`);
  // Every route, signed in and out.
  const pages = [
    [signedOut, '#/'], [signedOut, '#/tv'], [signedOut, '#/seeks'], [lee, '#/seeks'], [lee, '#/tv'],
    [signedOut, '#/login'], [signedOut, `#/game/${board}`], [signedOut, '#/leaderboard'], [signedOut, `#/user/${leeName}`],
    [lee, '#/'], [lee, `#/game/${board}`], [lee, '#/leaderboard'], [lee, `#/user/${leeName}`], [lee, '#/user/bot-very-easy'],
    // Issue #32's pages: the games search (with a long name's games), how to play each game.
    [signedOut, '#/games'], [lee, `#/games?player=${leeName}`], [signedOut, '#/rules'], [signedOut, '#/rules/ataxx'],
    [signedOut, '#/rules/hexxagon'], [signedOut, '#/rules/ataxx4'], [signedOut, '#/rules/ankor'],
    // Issue #34's pages.
    [signedOut, '#/tournaments'], [lee, '#/tournaments'], [signedOut, `#/tournament/${tour.id}`], [lee, `#/tournament/${tour.id}`],
    // Issue #33's analysis board.
    [signedOut, '#/analysis'], [lee, '#/analysis?game=hexxagon'],
    // Issue #49's security page (its second-factor setup is checked by security.test.mjs).
    [lee, '#/security'], [signedOut, '#/security'],
  ];
  const problems = [];
  for (const theme of ['light', 'dark']) {
    for (const page of [lee, signedOut]) {
      await page.goto(`${BASE}/`);
      await page.evaluate((t) => localStorage.setItem('theme', t), theme);
      await page.reload();
      await page.waitForSelector(`body.${theme}`);
    }
    for (const [page, hash] of pages) {
      await page.goto(`${BASE}/${hash}`);
      await page.waitForSelector('#page > *');
      await page.waitForLoadState('networkidle').catch(() => {});
      await page.waitForTimeout(300);
      // Each width checks the page as loaded: no page reads the width, only the style sheet does.
      for (const width of [1280, 375, 320]) {
        await page.setViewportSize({ width, height: width < 800 ? 740 : 860 });
        assert.ok(await page.evaluate((t) => document.body.classList.contains(t), theme));
        for (const v of await violations(page)) problems.push(`${hash} (${theme}, ${width} px): ${v}`);
      }
    }
  }
  assert.deepEqual(problems, []);
  for (const page of [lee, signedOut]) await page.context().close();
  noScriptErrors();
});

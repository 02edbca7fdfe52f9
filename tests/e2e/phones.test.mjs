// Browser tests of issue #32, defect 2 (phones): with the longest user names the server allows
// and a chat line of 300 letters without a space, no page is wider than a 320 px screen, and the
// header keeps one row (its navigation folds into a menu) from phones to a desktop.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { account, BASE, noScriptErrors, shot, visitor } from './common.mjs';

/** The widest user names allowed (32 characters), unique to this run. */
const longName = (letter) => `${letter.repeat(26)}${Date.now().toString(36).slice(-6)}`;

/** The page's layout at its current size: how wide it scrolls, the header's height. */
const layout = (page) => page.evaluate(() => ({
  width: innerWidth,
  scrollWidth: document.documentElement.scrollWidth,
  header: Math.round(document.querySelector('header.top').getBoundingClientRect().height),
  // The elements that reach past the right edge, for the failure message.
  past: [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
    .slice(0, 4).map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className?.baseVal ?? e.className}`),
}));

async function fits(page, hash, ready) {
  await page.goto(`${BASE}/${hash}`);
  await page.waitForSelector(ready);
  const seen = await layout(page);
  assert.ok(seen.scrollWidth <= seen.width, `${hash} at ${seen.width} px is ${seen.scrollWidth} px wide: ${seen.past.join(', ')}`);
  // One row: the brand and the menu button (or, wide, the whole navigation).
  assert.ok(seen.header <= 64, `${hash} at ${seen.width} px: the header is ${seen.header} px high`);
}

test('with 32-letter names and a 300-letter chat line no page is wider than a phone, and the header keeps one row', async () => {
  const [xName, oName] = [longName('x'), longName('o')];
  const [x, o] = await Promise.all([xName, oName].map(account));
  // Signed in through the API: the page learns it as the sign-in form would have told it.
  await x.goto(`${BASE}/#/login`);
  await x.evaluate((name) => localStorage.setItem('signedIn', name), xName);
  await x.reload();
  const guest = await visitor('phone-guest');
  const created = await x.request.post(`${BASE}/api/games`, { data: { opponents: [oName], options: {} } });
  assert.equal(created.status(), 201, await created.text());
  const { board } = await created.json();
  assert.equal((await o.request.post(`${BASE}/api/games/${board}/accept`)).status(), 200);
  const chat = await x.request.post(`${BASE}/api/games/${board}/chat`, { data: { text: 'w'.repeat(300) } });
  assert.ok(chat.ok(), await chat.text());
  const seek = await o.request.post(`${BASE}/api/seeks`, { data: { game: 'ataxx', clock: null, color: 'random', rated: false } });
  assert.equal(seek.status(), 201, await seek.text());
  const tourCreated = await x.request.post(`${BASE}/api/tournaments`, { data: { kind: 'swiss', name: `Cup of ${xName} and ${oName}`, rounds: 3 } });
  assert.equal(tourCreated.status(), 201, await tourCreated.text());
  const tour = await tourCreated.json();
  for (const page of [x, o]) assert.equal((await page.request.post(`${BASE}/api/tournaments/${tour.id}/join`)).status(), 200);

  for (const width of [320, 375, 1280]) {
    for (const page of [x, guest]) await page.setViewportSize({ width, height: width < 800 ? 740 : 860 });
    await fits(x, '#/', '#challenge-form');
    await fits(x, `#/game/${board}`, '.board .piece');
    await fits(x, `#/user/${xName}`, '.profile .stats');
    await fits(x, '#/seeks', '#seek-table [data-act=accept]');
    await fits(x, '#/leaderboard', '#board-list table, #board-list p');
    await fits(x, '#/tv', '.board .piece');
    await fits(guest, `#/games?player=${xName}`, '#games-list');
    await fits(guest, '#/rules/hexxagon', '#try-2 .piece');
    await fits(guest, '#/rules/ankor', '#try-3 .cube');
    await fits(guest, '#/', '.front');
    await fits(guest, `#/game/${board}`, '.board .piece');
    await fits(guest, '#/login', '#auth-form');
    await fits(x, '#/tournaments', '#tour-form');
    await fits(x, '#/security', '#vacation-form');
    await fits(guest, `#/tournament/${tour.id}`, `#tour-standings [data-player="${oName}"]`);
  }
  await x.setViewportSize({ width: 320, height: 740 });
  // The second factor's setup, with its long otpauth link, fits too.
  await x.goto(`${BASE}/#/security`);
  await x.click('#totp-begin');
  await x.waitForSelector('#totp-qr');
  const setup = await layout(x);
  assert.ok(setup.scrollWidth <= setup.width, `#/security's setup is ${setup.scrollWidth} px wide: ${setup.past.join(', ')}`);
  await x.goto(`${BASE}/#/game/${board}`);
  await x.waitForSelector('.board .piece');
  await shot(x, 'phone-game.png');
  // The same page in the dark theme (the toggle is behind the folded menu: set as it sets it).
  await x.evaluate(() => localStorage.setItem('theme', 'dark'));
  await x.reload();
  await x.waitForSelector('body.dark .board .piece');
  await shot(x, 'phone-game-dark.png');
  await x.evaluate(() => localStorage.setItem('theme', 'light'));
  await x.reload();
  await x.waitForSelector('body.light .board .piece');

  // On the phone the navigation is behind the menu button: it opens, leads on, and closes.
  await x.goto(`${BASE}/#/`);
  assert.equal(await x.locator('#nav').isVisible(), false, 'the navigation is folded away');
  await x.click('#menu-toggle');
  assert.equal(await x.getAttribute('#menu-toggle', 'aria-expanded'), 'true');
  const me = await x.locator('#nav-me').boundingBox();
  assert.ok(me && me.x >= 0 && me.x + me.width <= 320, `my name's link lies on the screen: ${JSON.stringify(me)}`);
  await shot(x, 'phone-menu.png');
  await x.click('#nav a[href="#/leaderboard"]');
  await x.waitForSelector('#board-list');
  assert.equal(await x.locator('#nav').isVisible(), false, 'the menu closes on the next page');
  assert.equal(await x.getAttribute('#menu-toggle', 'aria-expanded'), 'false');

  // The leaderboard names each game by its name, not its id.
  const tabs = await x.locator('[data-game]').allTextContents();
  assert.deepEqual(tabs, ['Ataxx', 'Hexxagon', 'Four-player Ataxx', 'Ankor']);
  // The seek goes, as the other tests expect an empty list.
  const withdrawn = await o.request.delete(`${BASE}/api/seeks/${(await seek.json()).id}`);
  assert.ok(withdrawn.ok(), await withdrawn.text());
  // The game ends, as the other tests' front page and TV show the games in play.
  const resigned = await x.request.post(`${BASE}/api/games/${board}/move`, { data: { move: 'resign' } });
  assert.ok(resigned.ok(), await resigned.text());
  for (const page of [x, o, guest]) await page.context().close();
  noScriptErrors();
});

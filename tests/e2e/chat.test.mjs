// Browser tests of issue #32's "chat people can trust": spectators chat apart from the players
// (who do not see the spectators' lines while they play), and a block hides the blocked user's
// chat from the blocker, for good, and refuses their challenges.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { account, BASE, noScriptErrors, waitText } from './common.mjs';

const unique = (name) => `${name}${Date.now().toString(36).slice(-5)}`;

/** A new account whose page knows who signed in (as the sign-in form would have told it). */
async function signedIn(name) {
  const page = await account(name);
  await page.goto(`${BASE}/#/login`);
  await page.evaluate((me) => localStorage.setItem('signedIn', me), name);
  await page.reload();
  await waitText(page, '#nav-me', name);
  return page;
}

async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
}

test('spectators chat apart from the players, and a block hides the blocked user\'s chat and refuses their challenges', async () => {
  const [xName, oName, sName] = [unique('chatx'), unique('chato'), unique('watcher')];
  const [x, o, watcher] = await Promise.all([xName, oName, sName].map(signedIn));
  const created = await x.request.post(`${BASE}/api/games`, { data: { opponents: [oName], options: {} } });
  assert.equal(created.status(), 201, await created.text());
  const { board } = await created.json();
  assert.equal((await o.request.post(`${BASE}/api/games/${board}/accept`)).status(), 200);
  for (const page of [x, o, watcher]) {
    await page.goto(`${BASE}/#/game/${board}`);
    await page.waitForSelector('.board .piece');
  }

  // The spectator's line goes to the spectators; the players do not see it while they play.
  await say(watcher, 'psst, try b6');
  await waitText(watcher, '#spectator-chat', 'psst, try b6');
  await say(x, 'good luck');
  await waitText(watcher, '#chat', 'good luck');
  await waitText(o, '#chat', 'good luck');
  assert.equal(await o.locator('#spectator-chat-box').isVisible(), false, 'a player does not see the spectators\' chat');
  assert.doesNotMatch(await o.locator('#chat').textContent(), /psst/);

  // O is rude; X blocks O from the line: O's lines go, now and after a reload.
  await say(o, 'you will lose, noob');
  await waitText(x, '#chat', 'noob');
  await x.click(`#chat [data-block="${oName}"]`);
  await x.waitForFunction(() => !/noob/.test(document.querySelector('#chat').textContent));
  await waitText(x, '#chat', 'good luck');
  await x.reload();
  await waitText(x, '#chat', 'good luck');
  assert.doesNotMatch(await x.locator('#chat').textContent(), /noob/);
  // The spectator, who blocked nobody, still reads it.
  await waitText(watcher, '#chat', 'noob');
  // And O's challenge to X is refused.
  const refused = await o.request.post(`${BASE}/api/games`, { data: { opponents: [xName], options: {} } });
  assert.equal(refused.status(), 400);
  assert.match((await refused.json()).error.message, new RegExp(`${xName} does not take challenges from ${oName}`));
  // The game ends, so that the front page and TV of later tests do not show it.
  const resigned = await x.request.post(`${BASE}/api/games/${board}/move`, { data: { move: 'resign' } });
  assert.equal(resigned.status(), 200, await resigned.text());
  for (const page of [x, o, watcher]) await page.context().close();
  noScriptErrors();
});

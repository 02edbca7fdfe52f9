// Browser tests of issue #35's admin page (#/admin): only the server's admins (common.mjs starts
// the server with --admin e2e-admin) see it; an admin bans a user and aborts a game from its
// forms, and the admin log on the page records both.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { account, BASE, noScriptErrors, PASSWORD, shot, waitText } from './common.mjs';

const ADMIN = 'e2e-admin';
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

test('an admin bans a user and aborts a game from the admin page; others do not get the page', async () => {
  const [xName, oName] = [unique('adminx'), unique('admino')];
  const [admin, x, o] = await Promise.all([ADMIN, xName, oName].map(signedIn));

  // A player sees no admin link, and the page refuses them in words.
  assert.equal(await x.locator('#nav-admin').count(), 0);
  await x.goto(`${BASE}/#/admin`);
  await waitText(x, '#admin-error', "is not one of the server's admins");

  // The admin's nav leads to the page.
  await admin.click('#nav-admin');
  await admin.waitForSelector('#admin-user');

  // A game between x and o, which the admin aborts from the page.
  const created = await x.request.post(`${BASE}/api/games`, { data: { opponents: [oName], options: {} } });
  assert.equal(created.status(), 201, await created.text());
  const { board } = await created.json();
  assert.equal((await o.request.post(`${BASE}/api/games/${board}/accept`)).status(), 200);
  await admin.fill('#admin-game [name=board]', String(board));
  await admin.fill('#admin-game [name=reason]', 'stuck');
  await admin.click('#admin-game button[type=submit]');
  await waitText(admin, '#admin-log', new RegExp(`abort\\s*${board}\\s*stuck`));
  const game = await (await x.request.get(`${BASE}/api/games/${board}`)).json();
  assert.deepEqual([game.status, game.rated, game.termination], ['withdrawn', false, 'aborted']);

  // The admin bans o: o's next request is refused, and o cannot sign in again.
  await admin.fill('#admin-user [name=user]', oName);
  await admin.selectOption('#admin-user [name=act]', 'ban');
  await admin.fill('#admin-user [name=reason]', 'abuse');
  await admin.click('#admin-user button[type=submit]');
  await waitText(admin, '#admin-log', new RegExp(`ban\\s*${oName}\\s*abuse`));
  await shot(admin, 'admin.png');
  assert.equal((await o.request.get(`${BASE}/api/me`)).status(), 401);
  const signin = await o.request.post(`${BASE}/api/login`, { data: { userid: oName, password: PASSWORD } });
  assert.equal(signin.status(), 403);
  assert.match((await signin.json()).error.message, /is banned/);

  // A refusal shows on the page: an unknown user.
  await admin.fill('#admin-user [name=user]', unique('nobody'));
  await admin.click('#admin-user button[type=submit]');
  await waitText(admin, '#admin-error', 'no user');
  noScriptErrors();
  await Promise.all([admin, x, o].map((page) => page.context().close()));
});

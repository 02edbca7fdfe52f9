// Browser tests of issue #49's API tokens page (#/tokens): a signed-in user reaches it from their
// own profile, makes a token with its scopes, sees the secret once (not after a reload, nor in the
// list), the secret works as a bearer token within its scope, and revoking it from the page
// stops it at once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { account, BASE, noScriptErrors, shot, waitText } from './common.mjs';

const unique = (name) => `${name}${Date.now().toString(36).slice(-5)}`;

test('a user makes a token on the tokens page, sees its secret once, and revokes it', async () => {
  const name = unique('tokens');
  const page = await account(name);
  await page.goto(`${BASE}/#/login`);
  await page.evaluate((me) => localStorage.setItem('signedIn', me), name);
  await page.reload();
  await waitText(page, '#nav-me', name);

  await page.click('#nav-me');
  await page.click('#nav-tokens');
  await waitText(page, '#token-list', 'No tokens yet.');
  await page.fill('#token-new [name=label]', 'my script');
  await page.check('#token-new [value="board:play"]');
  await page.click('#token-new button[type=submit]');
  await waitText(page, '#token-secret-text', 'ataxx_');
  const secret = await page.locator('#token-secret-text').textContent();
  assert.match(secret, /^ataxx_[0-9a-f]{64}$/);
  await waitText(page, '#token-list', 'my script');
  await waitText(page, '#token-list', 'read, board:play');
  await shot(page, 'tokens.png');

  // The secret is a bearer token that reads; managing tokens needs the session.
  const me = await page.request.get(`${BASE}/api/me`, { headers: { Authorization: `Bearer ${secret}` } });
  assert.equal(me.status(), 200, await me.text());
  assert.equal((await me.json()).userid, name);
  const more = await page.request.get(`${BASE}/api/account/tokens`, { headers: { Authorization: `Bearer ${secret}` } });
  assert.equal(more.status(), 403, await more.text());

  // Shown once: after a reload the page lists the token but not its secret.
  await page.reload();
  await waitText(page, '#token-list', 'my script');
  assert.equal(await page.locator('#token-secret').isHidden(), true);
  assert.ok(!(await page.locator('#page').textContent()).includes(secret), 'the secret is shown again');

  // Revoked from the page: the list empties and the secret stops working.
  await page.click('#token-list button.revoke');
  await waitText(page, '#token-list', 'No tokens yet.');
  const after = await page.request.get(`${BASE}/api/me`, { headers: { Authorization: `Bearer ${secret}` } });
  assert.equal(after.status(), 401, await after.text());
  noScriptErrors();
  await page.context().close();
});

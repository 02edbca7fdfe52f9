// Browser tests of issue #49's security page (#/security, from one's own profile) and the sign-in
// form's second factor: a user turns TOTP on from the page with a code this file computes from
// the key shown (RFC 6238, checked against the RFC's own vector), signs in with password and
// code, is refused a wrong code, signs in once with a recovery code and turns the factor off;
// and a user goes on vacation for three days, which another player sees on their profile, and
// comes back with 29 days left (the day begun is spent).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { account, BASE, call, noScriptErrors, PASSWORD, shot, violations, waitText } from './common.mjs';

const unique = (name) => `${name}${Date.now().toString(36).slice(-5)}`;

/** RFC 4648 base32 (no padding) to bytes. */
function base32(text) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const letter of text) bits += alphabet.indexOf(letter).toString(2).padStart(5, '0');
  return Buffer.from(bits.match(/.{8}/g).map((byte) => parseInt(byte, 2)));
}

/** RFC 6238 TOTP: HMAC-SHA1 of the 30-second step counted from `seconds`, `digits` long. */
function totp(key, seconds, digits = 6) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(seconds / 30)));
  const mac = crypto.createHmac('sha1', key).update(counter).digest();
  const word = mac.readUInt32BE(mac[19] & 0x0f) & 0x7fffffff;
  return String(word % 10 ** digits).padStart(digits, '0');
}

const now = () => Date.now() / 1000;

/** Signed in through the API; the page learns it as the sign-in form would have told it. */
async function signedIn(name) {
  const page = await account(name);
  await page.goto(`${BASE}/#/login`);
  await page.evaluate((me) => localStorage.setItem('signedIn', me), name);
  await page.reload();
  await waitText(page, '#nav-me', name);
  return page;
}

/** Signs out from the menu, then signs in on the form; with `code`, typed when it is asked. */
async function signInWith(page, name, code) {
  await page.click('#signout');
  await page.waitForSelector('#auth-form');
  await page.fill('[name=userid]', name);
  await page.fill('[name=password]', PASSWORD);
  await page.click('#auth-submit');
  await waitText(page, '#auth-error', 'second factor on');
  assert.equal(await page.locator('#code-field').isVisible(), true, 'the form asks for the code');
  await page.fill('[name=code]', code);
  await page.click('#auth-submit');
}

test("the test's own TOTP gives RFC 6238's code", () => {
  assert.equal(totp(Buffer.from('12345678901234567890'), 59, 8), '94287082');
});

test('a user turns the second factor on from the page, signs in with a code or a recovery code once, and turns it off', async () => {
  const name = unique('totp');
  const page = await signedIn(name);
  await page.click('#nav-me');
  await page.click('#nav-security');
  await waitText(page, '#totp-state', 'The second factor is off');
  await page.click('#totp-begin');
  await page.waitForSelector('#totp-secret');
  const secret = (await page.locator('#totp-secret').textContent()).replace(/ /g, '');
  assert.match(secret, /^[A-Z2-7]{32}$/);
  assert.match(await page.getAttribute('#totp-uri', 'href'), new RegExp(`^otpauth://totp/ataxx:${name}\\?secret=${secret}&`));
  // The QR code is an image the browser could draw (a broken one has no natural size).
  await page.waitForFunction(() => document.querySelector('#totp-qr')?.naturalWidth > 0);
  assert.deepEqual(await violations(page), []);
  await shot(page, 'security.png');

  const key = base32(secret);
  // Typed as the apps show it, in two halves.
  await page.fill('#totp-confirm [name=code]', totp(key, now()).replace(/^\d{3}/, '$& '));
  await page.click('#totp-confirm button[type=submit]');
  await waitText(page, '#totp-state', 'The second factor is on');
  await waitText(page, '#recovery', 'not shown again');
  const recovery = await page.locator('#recovery-codes li').allTextContents();
  assert.equal(recovery.length, 10);
  for (const code of recovery) assert.match(code, /^[a-z2-7]{10}$/);
  assert.deepEqual(await violations(page), []);
  // Shown once: the page after a reload says the factor is on, without the codes.
  await page.reload();
  await waitText(page, '#totp-state', 'The second factor is on');
  assert.equal(await page.locator('#recovery-codes').count(), 0);

  // A wrong code is refused in words; the next step's code (this one's was spent confirming,
  // and the server takes the step after now for a clock running ahead) signs in.
  const right = new Set([-30, 0, 30].map((offset) => totp(key, now() + offset)));
  const wrong = ['000000', '111111', '222222', '333333'].find((code) => !right.has(code));
  await signInWith(page, name, wrong);
  await waitText(page, '#auth-error', 'that code is wrong or used');
  await page.fill('[name=code]', totp(key, now() + 30));
  await page.click('#auth-submit');
  await page.waitForSelector('#challenge-form');
  await waitText(page, '#nav-me', name);

  // A recovery code signs in once.
  await signInWith(page, name, recovery[0]);
  await page.waitForSelector('#challenge-form');
  await signInWith(page, name, recovery[0]);
  await waitText(page, '#auth-error', 'that code is wrong or used');
  await page.fill('[name=code]', recovery[1]);
  await page.click('#auth-submit');
  await page.waitForSelector('#challenge-form');

  // Off from the page with a code (a recovery code here), after a wrong one said in words.
  await page.goto(`${BASE}/#/security`);
  await page.fill('#totp-disable [name=code]', wrong);
  await page.click('#totp-disable button[type=submit]');
  await waitText(page, '#totp-error', 'that code is wrong or used');
  await page.fill('#totp-disable [name=code]', recovery[2]);
  await page.click('#totp-disable button[type=submit]');
  await waitText(page, '#totp-state', 'The second factor is off');
  assert.equal(await page.locator('#totp-error').textContent(), '');
  await call(page, 'POST', '/api/login', { userid: name, password: PASSWORD });
  noScriptErrors();
  await page.context().close();
});

test('a user goes on vacation from the page, others see it on their profile, and they come back with the days not begun', async () => {
  const [away, other] = [unique('away'), unique('other')];
  const [page, viewer] = await Promise.all([signedIn(away), signedIn(other)]);
  await page.click('#nav-me');
  await page.click('#nav-security');
  await waitText(page, '#vacation-state', 'You are not away');
  await waitText(page, '#days-left', '30 vacation days left this year');
  await page.fill('#vacation-form [name=days]', '3');
  await page.click('#vacation-form button[type=submit]');
  await waitText(page, '#vacation-state', 'Away until');
  await waitText(page, '#days-left', '27 vacation days left');
  const { away_until_ms: until } = await call(page, 'GET', '/api/account/vacation');
  assert.ok(Math.abs(until - (Date.now() + 3 * 86_400_000)) < 60_000, `away until ${until}`);
  const iso = new Date(until).toISOString();
  assert.equal(await page.getAttribute('#vacation-state time', 'datetime'), iso);

  // The profile says so to another player.
  await viewer.goto(`${BASE}/#/user/${away}`);
  await waitText(viewer, '#away', 'On vacation until');
  assert.equal(await viewer.getAttribute('#away time', 'datetime'), iso);

  // Back at once: the first day is begun and spent, the two others come back.
  await page.click('#vacation-end');
  await waitText(page, '#vacation-state', 'You are not away');
  await waitText(page, '#days-left', '29 vacation days left this year');
  await viewer.reload();
  await viewer.waitForSelector('.profile .stats');
  assert.equal(await viewer.locator('#away').count(), 0, 'the profile no longer says away');
  noScriptErrors();
  for (const p of [page, viewer]) await p.context().close();
});

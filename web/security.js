// The security and vacation page (#/security, signed-in users, linked from their own profile):
// turn the second factor on (POST /api/totp: the key, the otpauth link and its QR code; then
// /api/totp/confirm with a code of the app, which answers the recovery codes, shown this once)
// or off with a code (/api/totp/disable); go on vacation for some days or come back
// (GET/POST/DELETE /api/account/vacation). Refusals are said on the page, beside their form.

import { ask, esc, timeTag } from './api.js';

/** A base32 key in groups of four, as it is easier to type into an app. */
const grouped = (secret) => secret.match(/.{1,4}/g).join(' ');

/**
 * The code field of a form: six digits of the app (typed as apps show them too, `123 456`), or
 * with `recovery` a recovery code too.
 */
const codeField = (recovery) => `<label>${recovery ? 'Code from the app, or a recovery code' : 'Code from the app'}
  <input name="code" required autocomplete="one-time-code" ${recovery ? 'maxlength="16"' : 'inputmode="numeric" pattern="[0-9 ]{6,7}" maxlength="7"'}></label>`;

/** What a code field holds, without the spaces the server does not take. */
const codeOf = (form) => form.code.value.replace(/\s/g, '');

export function mountSecurity(root, ctx) {
  if (!ctx.me) {
    root.innerHTML = '<section class="card security"><h1>Security and vacation</h1><p>Sign in to set up a second factor or a vacation. <a href="#/login">Sign in</a></p></section>';
    return () => {};
  }
  root.innerHTML = `
    <section class="card security">
      <h1>Security and vacation</h1>
      <h2>Second factor</h2>
      <div id="totp"><p>Loading…</p></div>
      <p class="error" id="totp-error" role="alert"></p>
      <h2>Vacation</h2>
      <p class="lead">While you are away, the deadlines of your correspondence games do not run on your turn; your opponents are told. Live games are not affected.</p>
      <div id="vacation"><p>Loading…</p></div>
      <p class="error" id="vacation-error" role="alert"></p>
    </section>`;
  const totp = root.querySelector('#totp');
  const vacation = root.querySelector('#vacation');
  const totpError = root.querySelector('#totp-error');
  const vacationError = root.querySelector('#vacation-error');

  function showOff() {
    totp.innerHTML = `<p id="totp-state">The second factor is off: signing in needs only your password.</p>
      <p>With it on, signing in also needs a six-digit code from an authenticator app on your phone, which changes every 30 seconds.</p>
      <button type="button" class="primary" id="totp-begin">Turn on the second factor</button>`;
    totp.querySelector('#totp-begin').addEventListener('click', begin);
  }

  function showOn(recoveryCodes = null) {
    totp.innerHTML = `
      ${recoveryCodes ? `<div id="recovery"><p><strong>Keep these recovery codes somewhere safe, apart from your phone: each signs in once without the app. They are not shown again.</strong></p>
        <ol id="recovery-codes" class="recovery-codes">${recoveryCodes.map((code) => `<li><code>${esc(code)}</code></li>`).join('')}</ol></div>` : ''}
      <p id="totp-state">The second factor is on: signing in needs a code from your authenticator app after the password.</p>
      <form id="totp-disable" class="admin-form">${codeField(true)}<button type="submit">Turn off the second factor</button></form>`;
    totp.querySelector('#totp-disable').addEventListener('submit', async (event) => {
      event.preventDefault();
      const body = { code: codeOf(event.target) };
      if (await ask(totpError, '/api/totp/disable', { method: 'POST', body })) {
        showOff();
        ctx.toast('The second factor is off');
      }
    });
  }

  async function begin() {
    const setup = await ask(totpError, '/api/totp', { method: 'POST' });
    if (!setup) return;
    const qr = setup.svg
      ? `<img id="totp-qr" class="totp-qr" width="200" height="200" alt="QR code of the otpauth link below" src="data:image/svg+xml,${encodeURIComponent(setup.svg)}">`
      : '';
    totp.innerHTML = `
      <ol class="totp-steps">
        <li>Scan the QR code with an authenticator app, open the link on the phone, or type the key into the app.
          ${qr}
          <p>Key: <code id="totp-secret" class="totp-secret">${esc(grouped(setup.secret))}</code></p>
          <p><a id="totp-uri" class="totp-uri" href="${esc(setup.uri)}">${esc(setup.uri)}</a></p></li>
        <li>Type the code the app shows now.
          <form id="totp-confirm" class="admin-form">${codeField(false)}<button type="submit" class="primary">Turn on</button></form></li>
      </ol>`;
    totp.querySelector('#totp-confirm').addEventListener('submit', async (event) => {
      event.preventDefault();
      const body = { code: codeOf(event.target) };
      const done = await ask(totpError, '/api/totp/confirm', { method: 'POST', body });
      if (done) showOn(done.recovery_codes);
    });
  }

  function showVacation({ away_until_ms: until, days_left: left }) {
    const days = `<p id="days-left">${left} vacation day${left === 1 ? '' : 's'} left this year (30 a calendar year; the days not begun come back when you return early).</p>`;
    vacation.innerHTML = until
      ? `<p id="vacation-state">Away until ${timeTag(until)}.</p>${days}
         <button type="button" class="primary" id="vacation-end">Come back now</button>`
      : `<p id="vacation-state">You are not away.</p>${days}
         <form id="vacation-form" class="admin-form">
           <label>Days <input name="days" type="number" min="1" max="${Math.max(1, left)}" value="${Math.min(7, Math.max(1, left))}" required></label>
           <button type="submit" class="primary">Go on vacation</button>
         </form>`;
    vacation.querySelector('#vacation-end')?.addEventListener('click', async () => {
      const back = await ask(vacationError, '/api/account/vacation', { method: 'DELETE' });
      if (back) showVacation(back);
    });
    vacation.querySelector('#vacation-form')?.addEventListener('submit', async (event) => {
      event.preventDefault();
      const body = { days: Number(event.target.days.value) };
      const away = await ask(vacationError, '/api/account/vacation', { method: 'POST', body });
      if (away) showVacation(away);
    });
  }

  ask(totpError, '/api/me').then((me) => {
    if (me && me.second_factor) showOn();
    else if (me) showOff();
  });
  ask(vacationError, '/api/account/vacation').then((away) => { if (away) showVacation(away); });
  return () => {};
}

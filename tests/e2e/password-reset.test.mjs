// Browser test of issue #49's Forgot password? pages: a server of this file's own, with a mail
// door whose `--sendmail` is a script keeping each mail in a folder (the other files' servers send
// no mail). A player asks for the reset from the sign-in page, opens the link of the mail the
// server sent, sets a new password and signs in with it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { noScriptErrors, serve, shot, TIMEOUT, visitor, waitText } from './common.mjs';

const NEW_PASSWORD = 'a-new-horse-77';
const { site, dir } = await serve((address, folder) => {
  fs.mkdirSync(path.join(folder, 'mail'));
  const sendmail = path.join(folder, 'sendmail.sh');
  fs.writeFileSync(sendmail, `#!/bin/sh\ncat > "${folder}/mail/$(date +%s%N).eml"\n`, { mode: 0o755 });
  return ['--sendmail', sendmail, '--mail-interval-ms', '50', '--public-url', address];
});

/** The text of the first mail whose text matches `pattern`, waited for; quoted-printable undone. */
async function mailMatching(pattern) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    for (const file of fs.readdirSync(path.join(dir, 'mail')).sort()) {
      const text = fs.readFileSync(path.join(dir, 'mail', file), 'utf8')
        .replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      if (pattern.test(text)) return text;
    }
    assert.ok(Date.now() < deadline, `no mail matching ${pattern}`);
    await new Promise((resolve) => { setTimeout(resolve, 50); });
  }
}

async function post(page, route, data, status) {
  const response = await page.request.post(`${site}${route}`, { data });
  assert.equal(response.status(), status, `${route}: ${await response.text()}`);
}

test('a forgotten password is reset from the sign-in page through the mailed link', async () => {
  const page = await visitor('rita');
  // An account with a confirmed address (the confirmation answered through the API).
  await post(page, '/api/signup', { userid: 'rita', password: 'old-password-1', addresses: ['rita@r.test'] }, 201);
  const confirm = (await mailMatching(/Subject: confirm address rita \w+/)).match(/Subject: (confirm address rita \w+)/)[1];
  await post(page, '/api/command', confirm, 200);

  await page.goto(`${site}/#/login`);
  await page.click('#forgot-link');
  await page.fill('#forgot-form [name=user]', 'rita');
  await page.click('#forgot-submit');
  await waitText(page, '#forgot-sent', 'a reset mail is on its way');
  await shot(page, 'forgot-password.png');

  const link = (await mailMatching(/password reset for rita/)).match(/http:\/\/\S+\/#\/reset\?token=[0-9a-f]{64}/)[0];
  assert.ok(link.startsWith(site), link);
  await page.goto(link);
  await page.fill('#reset-form [name=password]', NEW_PASSWORD);
  await page.click('#reset-submit');
  await waitText(page, '#reset-done', 'The password of rita is set');

  await page.click('#reset-signin');
  await page.fill('[name=userid]', 'rita');
  await page.fill('[name=password]', NEW_PASSWORD);
  await page.click('#auth-submit');
  await waitText(page, '#nav-me', 'rita');
  noScriptErrors();
});

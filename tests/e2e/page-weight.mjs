// Page weight: the requests and bytes over the wire (as Chromium counts them, headers
// included) for the first load of a page and for a reload, as a visitor and as a signed-in
// player. Not a test: docs/benchmarks.md quotes its table.
//   ATAXX_URL=http://127.0.0.1:8080 node tests/e2e/page-weight.mjs
import { chromium } from 'playwright-core';

const BASE = process.env.ATAXX_URL;
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: FLAGS });

/** Loads `hash` once, then reloads it; the requests and bytes of each, with the API calls named. */
async function weigh(page, hash) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  let load = { requests: 0, bytes: 0, api: [] };
  const urls = new Map();
  cdp.on('Network.requestWillBeSent', ({ requestId, request }) => urls.set(requestId, request.url));
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    load.requests += 1;
    load.bytes += encodedDataLength;
    const url = new URL(urls.get(requestId) ?? 'http://x/');
    if (url.pathname.startsWith('/api/')) load.api.push(url.pathname + url.search);
  });
  const settle = async () => { await page.waitForLoadState('networkidle').catch(() => {}); await page.waitForTimeout(1500); };
  await page.goto(`${BASE}/${hash}`);
  await settle();
  const first = load;
  load = { requests: 0, bytes: 0, api: [] };
  await page.reload();
  await settle();
  return { first, reload: load };
}

const visitor = await (await browser.newContext()).newPage();
const rows = [['front page, visitor', await weigh(visitor, '#/')]];
const signedIn = await browser.newContext();
const name = `weigh${Date.now().toString(36).slice(-6)}`;
for (const [path, data] of [['/api/signup', { userid: name, password: 'horse-battery-42', addresses: [] }], ['/api/login', { userid: name, password: 'horse-battery-42' }]]) {
  await signedIn.request.post(`${BASE}${path}`, { data });
}
// The page learns who signed in on this browser as the sign-in form would have told it.
await signedIn.addInitScript((n) => localStorage.setItem('signedIn', n), name);
const player = await signedIn.newPage();
rows.push(['lobby, signed in', await weigh(player, '#/')]);
await browser.close();

console.log('| page | first load | reload | API calls twice on first load |');
console.log('|---|---|---|---|');
for (const [what, { first, reload }] of rows) {
  const twice = [...new Set(first.api.filter((u, i) => first.api.indexOf(u) !== i))];
  console.log(`| ${what} | ${first.requests} requests, ${(first.bytes / 1024).toFixed(1)} KiB | ${reload.requests} requests, ${(reload.bytes / 1024).toFixed(1)} KiB | ${twice.join(', ') || 'none'} |`);
}

// What every browser test file shares: a server and a Chromium of the file's own (so that the
// files can run side by side), people as browser contexts, waits on page text and board pieces,
// screenshots. run.sh sets ATAXX_BIN; ATAXX_URL instead names a server already running.

import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const SHOTS = process.env.SCREENSHOTS;

/** A loopback port nothing listens on now. */
const freePort = () => new Promise((resolve) => {
  const probe = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});

/**
 * Starts an `ataxx serve` of this file's own on a free loopback port, its database in a fresh
 * folder; `args(site, dir)` are its options (told its own address and folder). Stopped, and the
 * folder removed, when the file's tests end. Answers its address and folder.
 */
export async function serve(args) {
  const bin = process.env.ATAXX_BIN;
  assert.ok(bin, 'ATAXX_BIN must name the ataxx binary (tests/e2e/run.sh sets it)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataxx-e2e-'));
  const site = `http://127.0.0.1:${await freePort()}`;
  const server = spawn(bin, ['serve', '--db', path.join(dir, 'e2e.db'), '--http', site.slice('http://'.length),
    '--text', 'off', '--log', 'warn', ...args(site, dir)], { stdio: ['ignore', 'pipe', 'inherit'] });
  after(() => {
    server.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  await new Promise((resolve, reject) => {
    server.stdout.on('data', (chunk) => { if (String(chunk).includes('http ')) resolve(); });
    server.on('exit', (code) => reject(new Error(`ataxx serve exited with ${code}`)));
  });
  return { site, dir };
}

/**
 * The server the file's pages talk to: bots, no rate limits, a small analysis budget (the
 * computer analysis of a game comes in seconds), and `e2e-admin` as its admin.
 */
export const BASE = process.env.ATAXX_URL
  || (await serve(() => ['--no-rate-limits', '--analysis-nodes', '20000', '--admin', 'e2e-admin'])).site;

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const TIMEOUT = 10_000;
export const PASSWORD = 'horse-battery-42';

let browser;
/** Script errors of any page: each test ends by checking there were none. */
const errors = [];
export const noScriptErrors = () => assert.deepEqual(errors.splice(0), []);
before(async () => {
  // Playwright gives every launch a fresh temporary --user-data-dir.
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: FLAGS });
});
after(async () => { await browser?.close(); });

/** A fresh browser context and page for someone who has not signed in. */
export async function visitor(name, viewport = { width: 1280, height: 860 }) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  page.on('pageerror', (err) => {
    // Thrown by Playwright's stand-in for a routed socket when the page sends, or the server's
    // message arrives, just after the socket closed; Chromium's own WebSocket drops such a
    // send without throwing, so the pages cannot meet this error outside the tests.
    if (/WebSocket is already in CLOSING or CLOSED state/.test(err.message)) return;
    errors.push(`${name}'s page: ${err.message}`);
  });
  // Game connections pass through a switch that a test may turn off and on (page.line).
  page.line = { up: true, sockets: [] };
  await page.routeWebSocket(/\/api\/games\/\d+\/ws/, (ws) => {
    if (!page.line.up) return ws.close({ code: 1011, reason: 'line down' });
    ws.connectToServer();
    page.line.sockets.push(ws);
    return undefined;
  });
  return page;
}

/** A person who has just signed up as `name` and sees the lobby. */
export async function person(name, viewport = { width: 1280, height: 860 }) {
  const page = await visitor(name, viewport);
  await page.goto(`${BASE}/#/login`);
  await page.click('.tab[data-mode=signup]');
  await page.fill('[name=userid]', name);
  await page.fill('[name=password]', PASSWORD);
  await page.click('#auth-submit');
  await page.waitForSelector('#challenge-form');
  await waitText(page, '#nav-me', name);
  return page;
}

/** A signed-in browser context made through the API (a player a test drives through the API). */
export async function account(name) {
  const page = await visitor(name);
  for (const [path, data] of [['/api/signup', { userid: name, password: PASSWORD, addresses: [] }], ['/api/login', { userid: name, password: PASSWORD }]]) {
    const response = await page.request.post(`${BASE}${path}`, { data });
    assert.ok(response.ok(), `${path} for ${name}: ${response.status()} ${await response.text()}`);
  }
  return page;
}

/** Waits until the element's text contains `text` (a string or a RegExp). */
export async function waitText(page, selector, text) {
  const pattern = text instanceof RegExp ? text.source : text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  try {
    await page.waitForFunction(([sel, source]) => {
      const node = document.querySelector(sel);
      return node && new RegExp(source).test(node.textContent);
    }, [selector, pattern], { timeout: TIMEOUT });
  } catch (err) {
    const actual = await page.locator(selector).first().textContent().catch(() => '(missing)');
    throw new Error(`${selector} should contain ${text}, has ${JSON.stringify(actual)}: ${err.message}`);
  }
}

export const piece = (page, color, sq) => page.waitForSelector(`.board .piece.${color}[data-sq="${sq}"]`);
export const noPiece = (page, sq) => page.waitForSelector(`.board .piece[data-sq="${sq}"]`, { state: 'detached' });
export const clickSquare = (page, sq) => page.click(`.board rect[data-sq="${sq}"]`);
export const boardOf = (page) => Number(page.url().match(/#\/game\/(\d+)/)[1]);
export const moveCount = (page) => page.locator('#moves td.mv').count();

/** The game as the server has it (the page's own session asks). */
export const gameOf = (page, board) => page.evaluate((b) => fetch(`/api/games/${b}`).then((r) => r.json()), board);

/**
 * Asks the server for the game until `done(game)` holds, at most TIMEOUT; the game then. Polled
 * from here, not by waitForFunction: its predicate must be synchronous (a promise counts as a
 * truthy answer at once, microsoft/playwright#29132).
 */
export async function untilGame(page, board, done, what) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const game = await gameOf(page, board);
    if (done(game)) return game;
    assert.ok(Date.now() < deadline, `${what}: ${JSON.stringify(game)}`);
    await page.waitForTimeout(50);
  }
}

/** Sends a JSON request as the page's user and returns the answer's body, checking its status. */
export async function call(page, method, path, data, status = 200) {
  const response = await page.request.fetch(`${BASE}${path}`, { method, data });
  const body = await response.text();
  assert.equal(response.status(), status, `${method} ${path}: ${body}`);
  return body ? JSON.parse(body) : null;
}

export async function shot(page, name, fullPage = false) {
  if (!SHOTS) return;
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(400); // let the animations finish
  await page.screenshot({ path: path.join(SHOTS, name), fullPage });
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's serious and critical violations on the page as it is now. */
export async function violations(page) {
  // Once per document: the pages' routes change the hash, not the document, and axe-core is
  // half a megabyte of script to compile again.
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .filter((v) => ['serious', 'critical'].includes(v.impact))
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`));
  return found;
}

/**
 * Screenshots of the page as it is, `<name>-light.png` and `<name>-dark.png` (of the whole
 * page with `fullPage`); with `axe`, each theme is checked by axe-core first. Returns the
 * problems axe-core found (none without it).
 */
export async function shotsLightDark(page, name, { axe = false, fullPage = false } = {}) {
  const problems = [];
  for (const theme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: theme });
    if (axe) for (const v of await violations(page)) problems.push(`${name} (${theme}): ${v}`);
    await shot(page, `${name}-${theme}.png`, fullPage);
  }
  await page.emulateMedia({ colorScheme: null });
  return problems;
}

/** Presses Tab until the board has the focus. */
export async function tabToBoard(page) {
  for (let tabs = 0; tabs < 60; tabs++) {
    if (await page.evaluate(() => document.activeElement?.id === 'board')) return;
    await page.keyboard.press('Tab');
  }
  assert.fail('Tab never reached the board');
}

/**
 * Presses arrow keys until the keyboard cursor is on `cell`, choosing each key from where the
 * two cells are drawn (any board: squares or hexagons).
 */
export async function cursorTo(page, cell) {
  for (let presses = 0; presses < 40; presses++) {
    const at = await page.getAttribute('#board', 'data-cursor');
    if (at === cell) return;
    const [dx, dy, height] = await page.evaluate(([from, to]) => {
      const box = (name) => document.querySelector(`#board .squares [data-sq="${name}"]`).getBoundingClientRect();
      const [a, b] = [box(from), box(to)];
      return [b.left + b.width / 2 - a.left - a.width / 2, b.top + b.height / 2 - a.top - a.height / 2, a.height];
    }, [at, cell]);
    // Rows first (on hexagons the next row lies half a cell aside), then along the row.
    const key = Math.abs(dy) > height / 3 ? (dy > 0 ? 'ArrowDown' : 'ArrowUp') : dx > 0 ? 'ArrowRight' : 'ArrowLeft';
    await page.keyboard.press(key);
  }
  assert.fail(`the cursor never reached ${cell} (it is on ${await page.getAttribute('#board', 'data-cursor')})`);
}

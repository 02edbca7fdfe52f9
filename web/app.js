// The page shell: who is signed in, the navigation bar, the piece style, and the routes
// (#/ lobby, or the front page when signed out; #/tv, #/seeks, #/login, #/game/<board>,
// #/user/<name>, #/leaderboard, #/games?<filters>, #/rules, #/rules/<game>, #/tournaments,
// #/tournament/<id>, #/analysis?game=<id>&fen=<FEN>, #/admin, #/tokens, #/security, #/forgot,
// #/reset?token=<token>).

import { api, esc } from './api.js';
import { mountLobby } from './lobby.js';
import { mountGame } from './game.js';
import { mountProfile } from './profile.js';
import { mountLeaderboard } from './leaderboard.js';
import { mountGames } from './games.js';
import { mountRules } from './rules.js';
import { mountAnalysisBoard } from './analysis-board.js';
import { mountFront } from './front.js';
import { mountTv } from './tv.js';
import { mountSeeks } from './seeks.js';
import { mountTournament, mountTournaments } from './tournaments.js';
import { mountAdmin } from './admin.js';
import { mountTokens } from './tokens.js';
import { mountSecurity } from './security.js';
import { mountForgot, mountReset } from './password-reset.js';
import { notificationToggle, watchUser } from './notify.js';
import { soundToggle } from './sound.js';
import { loadGames } from './kinds.js';

// `admin`: whether the signed-in user is one of the server's admins (the nav shows #/admin).
const session = { me: null, admin: false };
// The session cookie is HttpOnly: the page remembers who signed in on this browser, so that a
// signed-out visitor's page never asks /api/me (and never logs its 401).
const SIGNED_IN = 'signedIn';
let unmount = () => {};

/** Shows a short message at the bottom of the page. */
function toast(message, kind = 'info') {
  const box = document.getElementById('toast');
  box.textContent = message;
  box.className = `show ${kind}`;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(hideToast, kind === 'error' ? 6000 : 3000);
}

function hideToast() {
  clearTimeout(toast.timer);
  document.getElementById('toast').className = '';
}

/** An address of the page that leads nowhere (`#/nonsense`, `#/game/abc`), said in words. */
function mountNoSuchPage(root, path) {
  root.innerHTML = `<section class="card no-such-game"><h1>No such page</h1>
    <p>This site has no page <code>#${esc(path)}</code>.</p><p><a href="#/">Go to the front page</a></p></section>`;
}

function applyStyle() {
  document.body.classList.toggle('cb', localStorage.getItem('pieceStyle') === 'cb');
  // 'dark' or 'light' as chosen on this browser; neither follows the system.
  const theme = localStorage.getItem('theme');
  document.body.classList.toggle('dark', theme === 'dark');
  document.body.classList.toggle('light', theme === 'light');
}

/** Whether the page shows dark now (the choice, else the system's preference). */
function isDark() {
  const theme = localStorage.getItem('theme');
  if (theme) return theme === 'dark';
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
}

function renderNav() {
  const nav = document.getElementById('nav');
  const cb = localStorage.getItem('pieceStyle') === 'cb';
  nav.innerHTML = `
    <label class="style-toggle" title="Orange and blue pieces marked with a cross and a ring">
      <input type="checkbox" id="cb-toggle" ${cb ? 'checked' : ''}> Colour-blind pieces
    </label>
    <label class="style-toggle" title="Dark theme (remembered on this browser)">
      <input type="checkbox" id="dark-toggle" ${isDark() ? 'checked' : ''}> Dark
    </label>
    ${session.me
      ? `<a href="#/">Lobby</a><a href="#/seeks">Seeks</a><a href="#/tv">TV</a><a href="#/tournaments">Tournaments</a><a href="#/leaderboard">Leaderboard</a><a href="#/rules">Rules</a>${session.admin ? '<a href="#/admin" id="nav-admin">Admin</a>' : ''}<a href="#/user/${esc(session.me)}" id="nav-me">${esc(session.me)}</a>
         <button type="button" class="link" id="signout">Sign out</button>`
      : '<a href="#/seeks">Seeks</a><a href="#/tv">TV</a><a href="#/tournaments">Tournaments</a><a href="#/leaderboard">Leaderboard</a><a href="#/games">Games</a><a href="#/rules">Rules</a><a href="#/login">Sign in</a>'}`;
  nav.prepend(...[soundToggle(), session.me && notificationToggle(toast)].filter(Boolean));
  nav.querySelector('#cb-toggle').addEventListener('change', (event) => {
    localStorage.setItem('pieceStyle', event.target.checked ? 'cb' : 'classic');
    applyStyle();
  });
  nav.querySelector('#dark-toggle').addEventListener('change', (event) => {
    localStorage.setItem('theme', event.target.checked ? 'dark' : 'light');
    applyStyle();
  });
  nav.querySelector('#signout')?.addEventListener('click', async () => {
    try { await api('/api/logout', { method: 'POST' }); } catch { /* the session is gone either way */ }
    session.me = null;
    session.admin = false;
    localStorage.removeItem(SIGNED_IN);
    renderNav();
    watchUser(null);
    location.hash = '#/login';
  });
}

/**
 * The menu button of narrow screens: it opens and closes the navigation under the header, which
 * closes again on the next page, on Escape and on a click elsewhere.
 */
function foldingMenu() {
  const header = document.querySelector('header.top');
  const button = document.getElementById('menu-toggle');
  const show = (open) => {
    header.classList.toggle('open', open);
    button.setAttribute('aria-expanded', String(open));
  };
  button.addEventListener('click', () => show(!header.classList.contains('open')));
  window.addEventListener('hashchange', () => show(false));
  document.addEventListener('keydown', (event) => { if (event.key === 'Escape') show(false); });
  document.addEventListener('click', (event) => { if (!header.contains(event.target)) show(false); });
}

/** Someone signed in, by the sign-in form or another page (the front page's quick play). */
function signedIn(name, admin = false) {
  session.me = name;
  session.admin = admin;
  localStorage.setItem(SIGNED_IN, name);
  renderNav();
  watchUser(name);
}

function mountLogin(root) {
  root.innerHTML = `
    <section class="card auth">
      <h1>Play Ataxx</h1>
      <p class="lead">Clone next to your pieces or jump two squares; every enemy piece touching where you land becomes yours.</p>
      <div class="tabs" role="tablist">
        <button type="button" role="tab" class="tab active" data-mode="signin">Sign in</button>
        <button type="button" role="tab" class="tab" data-mode="signup">Create account</button>
      </div>
      <form id="auth-form">
        <label>User name <input name="userid" autocomplete="username" required maxlength="32"></label>
        <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
        <label id="code-field" hidden>Code from the authenticator app (or a recovery code) <input name="code" autocomplete="one-time-code" maxlength="16"></label>
        <p class="hint signup-only" id="password-rule" hidden>A password has at least 8 characters, with no spaces, quotes or colons.</p>
        <label class="signup-only" hidden>E-mail (optional) <input name="email" type="email" autocomplete="email"></label>
        <p class="error" id="auth-error" role="alert"></p>
        <button type="submit" class="primary" id="auth-submit">Sign in</button>
      </form>
      <p class="signin-only"><a href="#/forgot" id="forgot-link">Forgot password?</a></p>
    </section>`;
  let mode = 'signin';
  const form = root.querySelector('#auth-form');
  root.querySelectorAll('.tab').forEach((tab) => tab.addEventListener('click', () => {
    mode = tab.dataset.mode;
    root.querySelectorAll('.tab').forEach((t) => t.classList.toggle('active', t === tab));
    form.querySelectorAll('.signup-only').forEach((el) => { el.hidden = mode !== 'signup'; });
    root.querySelector('.signin-only').hidden = mode === 'signup';
    form.password.autocomplete = mode === 'signup' ? 'new-password' : 'current-password';
    // The rule holds for new passwords only: an older, shorter one still signs in.
    if (mode === 'signup') { form.password.minLength = 8; form.password.setAttribute('aria-describedby', 'password-rule'); } else { form.password.removeAttribute('minlength'); form.password.removeAttribute('aria-describedby'); }
    root.querySelector('#auth-submit').textContent = mode === 'signup' ? 'Create account' : 'Sign in';
  }));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const userid = form.userid.value.trim();
    const password = form.password.value;
    const error = root.querySelector('#auth-error');
    error.textContent = '';
    try {
      if (mode === 'signup') {
        const addresses = form.email.value.trim() ? [form.email.value.trim()] : [];
        await api('/api/signup', { method: 'POST', body: { userid, password, addresses } });
      }
      const code = form.code.value.trim() || undefined;
      const me = await api('/api/login', { method: 'POST', body: { userid, password, code } });
      signedIn(me.userid, me.admin);
      // The sign-in form leaves the history: Back goes to the page before it.
      if (location.hash === '#/') route();
      else location.replace('#/');
    } catch (err) {
      error.textContent = err.message;
      // A second factor is on: the form asks for its code, in its own words (the server's also
      // tell the command language's way, PASSWORD:CODE).
      if (err.code === 'second_factor') {
        error.textContent = 'This account has a second factor on: type the code your authenticator app shows (or a recovery code), then sign in.';
        root.querySelector('#code-field').hidden = false;
        form.code.focus();
      }
    }
  });
  return () => {};
}

async function route() {
  unmount();
  unmount = () => {};
  const root = document.getElementById('page');
  root.innerHTML = '';
  const path = location.hash.replace(/^#/, '') || '/';
  // A page's filters follow a `?` (#/games?player=ann).
  const [where, query = ''] = path.split('?');
  const [, page, arg] = where.split('/');
  const ctx = { me: session.me, toast, signedIn };
  // A message of the page before would cover this one (the replay buttons on a phone).
  hideToast();
  if (page === 'game' && /^\d+$/.test(arg ?? '')) unmount = mountGame(root, ctx, Number(arg));
  else if (page === 'user' && arg) unmount = mountProfile(root, ctx, decodeURIComponent(arg));
  else if (page === 'leaderboard') unmount = mountLeaderboard(root);
  else if (page === 'games' && !arg) unmount = mountGames(root, new URLSearchParams(query));
  else if (page === 'rules') unmount = mountRules(root, arg);
  else if (page === 'analysis' && !arg) unmount = mountAnalysisBoard(root, ctx, new URLSearchParams(query));
  else if (page === 'tv') unmount = mountTv(root, ctx);
  else if (page === 'seeks') unmount = mountSeeks(root, ctx);
  else if (page === 'tournaments' && !arg) unmount = mountTournaments(root, ctx);
  else if (page === 'tournament' && /^\d+$/.test(arg ?? '')) unmount = mountTournament(root, ctx, Number(arg));
  else if (page === 'login') unmount = mountLogin(root);
  else if (page === 'admin') unmount = mountAdmin(root, ctx);
  else if (page === 'tokens') unmount = mountTokens(root, ctx);
  else if (page === 'security') unmount = mountSecurity(root, ctx);
  else if (page === 'forgot') unmount = mountForgot(root);
  else if (page === 'reset') unmount = mountReset(root, new URLSearchParams(query));
  else if (page) mountNoSuchPage(root, path);
  else if (!session.me) unmount = mountFront(root, ctx);
  else unmount = mountLobby(root, ctx);
}

async function start() {
  applyStyle();
  foldingMenu();
  const remembered = localStorage.getItem(SIGNED_IN);
  // The games are asked alongside: the pages read them once routed. A server away now leaves
  // them to the lobby's retries (or the next page's).
  const games = loadGames().catch(() => {});
  try {
    const me = remembered && (await api('/api/me'));
    session.me = me && me.userid;
    session.admin = Boolean(me && me.admin);
  } catch (err) {
    // Refused: signed out (or the session expired). Unreachable: still whoever signed in here,
    // and the pages retry until the server answers.
    session.me = err.status === 0 ? remembered : null;
    if (err.status !== 0) localStorage.removeItem(SIGNED_IN);
  }
  await games;
  renderNav();
  window.addEventListener('hashchange', route);
  route();
  watchUser(session.me);
}

start();

// A player's page: record, rating, the rating history plot, and their games.

import { api, esc, timeTag } from './api.js';
import { gameLine } from './games.js';

/** An SVG plot of rating points [{at_ms, rating, deviation}], with the deviation as a band. */
export function ratingPlot(points) {
  const width = 640;
  const height = 240;
  const pad = { left: 48, right: 12, top: 12, bottom: 28 };
  const lows = points.map((p) => p.rating - p.deviation);
  const highs = points.map((p) => p.rating + p.deviation);
  const ratings = points.map((p) => p.rating);
  let lo = Math.min(...ratings, ...lows.map((v, i) => Math.max(v, ratings[i] - 150)));
  let hi = Math.max(...ratings, ...highs.map((v, i) => Math.min(v, ratings[i] + 150)));
  const margin = Math.max(20, (hi - lo) * 0.1);
  lo = Math.floor((lo - margin) / 50) * 50;
  hi = Math.ceil((hi + margin) / 50) * 50;
  const x = (i) => pad.left + (points.length === 1 ? 0.5 : i / (points.length - 1)) * (width - pad.left - pad.right);
  const y = (v) => pad.top + (1 - (Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo)) * (height - pad.top - pad.bottom);
  const line = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(p.rating).toFixed(1)}`).join('');
  const band = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(p.rating + p.deviation).toFixed(1)}`).join('')
    + points.map((p, i) => [i, p]).reverse().map(([i, p]) => `L${x(i).toFixed(1)} ${y(p.rating - p.deviation).toFixed(1)}`).join('') + 'Z';
  const ticks = [];
  const stepSize = Math.max(50, Math.ceil((hi - lo) / 4 / 50) * 50);
  for (let v = lo; v <= hi; v += stepSize) {
    ticks.push(`<line x1="${pad.left}" x2="${width - pad.right}" y1="${y(v)}" y2="${y(v)}" class="grid"/>
      <text x="${pad.left - 6}" y="${y(v) + 4}" class="axis" text-anchor="end">${v}</text>`);
  }
  const date = (ms) => new Date(ms).toLocaleDateString();
  const bars = points.map((p, i) => `<line x1="${x(i)}" x2="${x(i)}" y1="${y(p.rating + p.deviation)}" y2="${y(p.rating - p.deviation)}" class="bar"/>`).join('');
  const dots = points.map((p, i) => `<circle cx="${x(i)}" cy="${y(p.rating)}" r="4" class="point">
    <title>${Math.round(p.rating)} ± ${Math.round(p.deviation)} after board ${p.board}, ${date(p.at_ms)}</title></circle>`).join('');
  return `<svg class="rating-plot" viewBox="0 0 ${width} ${height}" role="img" aria-label="rating history">
    ${ticks.join('')}
    <path d="${band}" class="band"/>
    ${bars}
    <path d="${line}" class="line"/>
    ${dots}
    <text x="${pad.left}" y="${height - 8}" class="axis">${date(points[0].at_ms)}</text>
    <text x="${width - pad.right}" y="${height - 8}" class="axis" text-anchor="end">${date(points[points.length - 1].at_ms)}</text>
  </svg>`;
}

export function mountProfile(root, { me }, name) {
  root.innerHTML = '<section class="card profile"><p>Loading…</p></section>';
  let closed = false;
  (async () => {
    let user;
    let games;
    try {
      [user, games] = await Promise.all([
        api(`/api/users/${encodeURIComponent(name)}`),
        api(`/api/games?player=${encodeURIComponent(name)}&limit=40`),
      ]);
    } catch (err) {
      root.innerHTML = err.status === 404
        ? `<section class="card no-such-game"><h1>No such player</h1>
            <p>There is no player named ${esc(name)} on this server.</p><p><a href="#/">Go to the front page</a></p></section>`
        : `<section class="card"><p class="error">${esc(err.message)}</p></section>`;
      return;
    }
    if (closed) return;
    const history = user.rating_history ?? [];
    const played = games.filter((g) => ['active', 'finished'].includes(g.status));
    root.innerHTML = `
      <section class="card profile">
        <h1>${esc(user.userid)} ${user.bot ? '<span class="badge">bot</span>' : ''}</h1>
        <div class="stats">
          <div><span class="big" id="rating">${esc(user.rating_text)}</span><span class="muted">rating${user.provisional ? ' (provisional)' : ''}</span></div>
          <div><span class="big">${user.wins}</span><span class="muted">wins</span></div>
          <div><span class="big">${user.losses}</span><span class="muted">losses</span></div>
          <div><span class="big">${user.draws}</span><span class="muted">draws</span></div>
        </div>
        ${user.bot ? `<p>${esc(user.bot)} level computer player.</p>` : ''}
        ${user.away_until_ms ? `<p id="away">On vacation until ${timeTag(user.away_until_ms)}: the deadlines of ${esc(user.userid)}'s correspondence games are paused on their turn.</p>` : ''}
        <h2>Rating history</h2>
        ${history.length ? ratingPlot(history) : '<p class="muted" id="no-history">No rated games yet.</p>'}
        ${me && me !== user.userid && !user.bot ? `<p><a class="button" href="#/">Challenge ${esc(user.userid)} from the lobby</a></p>` : ''}
        ${me && me === user.userid ? '<p><a href="#/tokens" id="nav-tokens">API tokens for bots and scripts</a> · <a href="#/security" id="nav-security">Second factor and vacation</a></p>' : ''}
        <h2>Games</h2>
        <p class="profile-games"><a href="#/games?player=${encodeURIComponent(user.userid)}">Search ${esc(user.userid)}'s games</a>
          · <a href="/api/games/search/pgn?player=${encodeURIComponent(user.userid)}" download id="profile-pgn">Download all finished games (PGN)</a></p>
        <ul class="games" id="profile-games">${played.map((g) => gameLine(g, user.userid)).join('') || '<li class="empty">No games yet.</li>'}</ul>
      </section>`;
  })();
  return () => { closed = true; };
}

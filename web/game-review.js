// The game page's computer analysis of a finished game (issue #33): the button that asks the
// server for it, its progress as the board's socket reports it ("ply 23 of 61"), and once it is
// done the evaluation graph under the board (a click on it shows that ply), the judgement marks
// of the move list, the engine's move drawn as an arrow on the position shown, and each
// player's accuracy and flagged moves. The server searches and judges; this draws its report
// (GET /api/games/{board}/analysis).

import { api, esc } from './api.js';

const WIDTH = 600;
const HEIGHT = 120;
/** The judgement marks of the move list, by class. */
export const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** The mark of ply `ply` (1 for the first move) once the analysis judged it, or ''. */
export function markOf(page, ply) {
  const judged = page.review?.plies[ply - 1];
  return judged?.class ? judged.class : '';
}

/**
 * The engine's move in the position shown (the best move of the ply after it), as
 * {from, to} cells; null when there is none (no report, the last position, a pass).
 */
export function bestArrow(page, cellsOf) {
  const best = page.review?.plies[page.shown()]?.best;
  if (!best || best === '0000') return null;
  return cellsOf(best);
}

/**
 * The graph's lines: in a two-player game one line, the first seat's winning chances after
 * every ply (the other seat's are their negation); with more seats a line per seat, its own
 * chances after each of its moves (every score is the mover's own).
 */
function series(report, seats) {
  const first = seats[0].letter;
  if (seats.length === 2) {
    return [{ letter: first, points: report.plies.map((p) => [p.ply, p.seat === first ? p.chances : -p.chances]) }];
  }
  return seats.map(({ letter }) => ({
    letter, points: report.plies.filter((p) => p.seat === letter).map((p) => [p.ply, p.chances]),
  }));
}

/** The evaluation graph as SVG text: x the ply, y the winning chances from -1 to 1. */
function graph(page) {
  const { review, view } = page;
  const total = Math.max(1, view.moves.length);
  const x = (ply) => (ply / total) * WIDTH;
  const y = (chances) => HEIGHT / 2 - chances * (HEIGHT / 2 - 4);
  const lines = series(review, view.seats).map(({ letter, points }) => {
    const path = [[0, 0], ...points].map(([ply, c]) => `${x(ply).toFixed(1)},${y(c).toFixed(1)}`).join(' ');
    // Two players: the first seat's advantage filled from the middle line.
    const area = view.seats.length === 2
      ? `<polygon class="area ${letter}" points="0,${HEIGHT / 2} ${path} ${x(points.at(-1)?.[0] ?? 0)},${HEIGHT / 2}"/>` : '';
    return `${area}<polyline class="line ${letter}" points="${path}"/>`;
  }).join('');
  const flagged = review.plies.filter((p) => p.class).map((p) => {
    const c = view.seats.length === 2 && p.seat !== view.seats[0].letter ? -p.chances : p.chances;
    return `<circle class="flag ${p.class}" cx="${x(p.ply).toFixed(1)}" cy="${y(c).toFixed(1)}" r="5" data-ply="${p.ply}"><title>${p.ply}. ${esc(p.move)}${MARKS[p.class]} (${p.class})</title></circle>`;
  }).join('');
  const shown = x(page.shown()).toFixed(1);
  const worst = review.plies.filter((p) => p.class).length;
  return `<svg class="eval-graph" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" role="img"
      aria-label="Evaluation graph: winning chances after each of ${view.moves.length} plies, ${worst} flagged moves; click to show a ply">
      <rect class="ground" width="${WIDTH}" height="${HEIGHT}"/>
      <line class="middle" x1="0" y1="${HEIGHT / 2}" x2="${WIDTH}" y2="${HEIGHT / 2}"/>
      ${lines}<line class="shown" x1="${shown}" y1="0" x2="${shown}" y2="${HEIGHT}"/>${flagged}</svg>`;
}

/** Each player's accuracy and flagged moves, a row per seat. */
function summary(page) {
  const { review, view } = page;
  const rows = view.seats.map(({ letter, name }) => {
    const player = review.players[letter];
    if (!player) return '';
    return `<tr><th scope="row"><span class="dot ${letter}"></span> ${esc(name)}</th><td>${player.accuracy.toFixed(1)}</td>
      <td>${player.inaccuracies}</td><td>${player.mistakes}</td><td>${player.blunders}</td></tr>`;
  }).join('');
  return `<table class="review-summary"><thead><tr><th scope="col">Player</th><th scope="col">Accuracy</th>
    <th scope="col" title="inaccuracies">?! </th><th scope="col" title="mistakes">?</th><th scope="col" title="blunders">??</th></tr></thead>
    <tbody>${rows}</tbody></table>`;
}

/** Where the analysis stands, in words. */
function progressText({ status, done, total }) {
  if (status === 'queued') return 'Computer analysis: waiting for a worker…';
  // Positions analysed of all, the start among them: the plies judged so far.
  return `Computer analysis: ply ${Math.max(0, done - 1)} of ${Math.max(0, total - 1)}`;
}

/** Draws the analysis part of the page: the button, the progress, or the report. */
export function drawReview(page) {
  const { view, $, me } = page;
  const box = $('#review');
  const button = $('#request-analysis');
  const finished = view.status === 'finished' && view.moves.length > 0;
  button.hidden = !finished || !me || page.reviewState !== 'none';
  if (!finished || page.reviewState === 'none' || page.reviewState === 'unknown') {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  if (page.reviewState !== 'done') {
    $('#review-progress').textContent = progressText(page.reviewProgress);
    $('#review-graph').innerHTML = '';
    $('#review-summary').innerHTML = '';
    return;
  }
  $('#review-progress').textContent = '';
  $('#review-graph').innerHTML = graph(page);
  $('#review-summary').innerHTML = summary(page);
}

/** Follows the board's analysis: loads it, asks for it, takes the socket's progress. */
export function attachReview(page) {
  const { $, board } = page;
  page.review = null;
  page.reviewState = 'unknown'; // 'unknown' | 'none' | 'queued' | 'running' | 'done'
  page.reviewProgress = null;

  function take(report) {
    // Answers and socket events cross: an answer older than what the page has is dropped.
    const known = page.reviewProgress?.done ?? -1;
    if (page.reviewState === 'done' || report.progress.done < known) return;
    page.reviewProgress = { status: report.status, ...report.progress };
    page.reviewState = report.status;
    page.review = report.status === 'done' ? report : null;
    page.draw();
  }

  async function load() {
    try {
      const report = await api(`/api/games/${board}/analysis`);
      if (!page.closed) take(report);
    } catch (err) {
      // A page left meanwhile draws nothing more.
      if (page.closed || err.code !== 'no_analysis') return;
      page.reviewState = 'none';
      page.draw();
    }
  }

  $('#request-analysis').addEventListener('click', async () => {
    try {
      const report = await api(`/api/games/${board}/analysis`, { method: 'POST' });
      if (!page.closed) take(report);
    } catch (err) {
      page.toast(err.message, 'error');
    }
  });

  $('#review-graph').addEventListener('click', (event) => {
    const svg = event.target.closest('svg');
    if (!svg || !page.view) return;
    const flag = event.target.closest('[data-ply]');
    const total = page.view.moves.length;
    const box = svg.getBoundingClientRect();
    const ply = flag ? Number(flag.dataset.ply) : Math.round(((event.clientX - box.left) / box.width) * total);
    const target = Math.min(total, Math.max(0, ply));
    page.viewPly = target === total ? null : target;
    page.selected = null;
    page.draw();
  });

  let loaded = false;
  return {
    /** The game changed: a finished game's analysis is looked up once. */
    onView(view) {
      if (loaded || view.status !== 'finished') return;
      loaded = true;
      load();
    },
    /** An `analysis` event of the board's socket. */
    onEvent({ status, done, total }) {
      if (page.reviewState === 'done') return;
      page.reviewProgress = { status, done, total };
      if (status === 'done') { load(); return; }
      page.reviewState = status;
      page.draw();
    },
  };
}

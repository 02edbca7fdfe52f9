// The rules the pages need to answer clicks at once and to replay games: FEN, move targets,
// playing a move with its flips. The server remains the judge of every move.

/** Square name of file f and rank r (0-based): "a1". */
export const squareName = (f, r) => String.fromCharCode(97 + f) + (r + 1);

/** [file, rank] of a square name, 0-based. */
export const parseSquare = (name) => [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1];

/** A position: size n, cells[rank][file] in 'x' | 'o' | '-' | '', turn, counters. */
export function parseFen(fen) {
  const [board, turn = 'x', half = '0', full = '1'] = fen.trim().split(/\s+/);
  const rows = board.split('/');
  const n = rows.length;
  const cells = Array.from({ length: n }, () => Array(n).fill(''));
  rows.forEach((row, i) => {
    let f = 0;
    for (const ch of row.toLowerCase()) {
      if (/\d/.test(ch)) f += Number(ch);
      else cells[n - 1 - i][f++] = ch;
    }
  });
  return { n, cells, turn: turn.toLowerCase(), halfmove: Number(half), fullmove: Number(full) };
}

export function toFen(pos) {
  const rows = [];
  for (let r = pos.n - 1; r >= 0; r--) {
    let row = '';
    let run = 0;
    for (let f = 0; f < pos.n; f++) {
      const c = pos.cells[r][f];
      if (c === '') { run++; continue; }
      if (run) { row += run; run = 0; }
      row += c;
    }
    if (run) row += run;
    rows.push(row);
  }
  return `${rows.join('/')} ${pos.turn} ${pos.halfmove} ${pos.fullmove}`;
}

const other = (c) => (c === 'x' ? 'o' : 'x');
const onBoard = (pos, f, r) => f >= 0 && r >= 0 && f < pos.n && r < pos.n;

/** Squares at exactly distance d (1 = the 8 neighbours, 2 = the jump ring of 16). */
function ring(pos, f, r, d) {
  const out = [];
  for (let df = -d; df <= d; df++) {
    for (let dr = -d; dr <= d; dr++) {
      if (Math.max(Math.abs(df), Math.abs(dr)) === d && onBoard(pos, f + df, r + dr)) out.push([f + df, r + dr]);
    }
  }
  return out;
}

export const pieceAt = (pos, name) => { const [f, r] = parseSquare(name); return pos.cells[r][f]; };

/** Empty squares the piece on `from` reaches: {singles, jumps} as square names. */
export function targetsOf(pos, from) {
  const [f, r] = parseSquare(from);
  const empty = ([a, b]) => pos.cells[b][a] === '';
  return {
    singles: ring(pos, f, r, 1).filter(empty).map(([a, b]) => squareName(a, b)),
    jumps: ring(pos, f, r, 2).filter(empty).map(([a, b]) => squareName(a, b)),
  };
}

/** Empty squares next to a piece of `color`: where its single moves go. */
export function singleTargets(pos, color = pos.turn) {
  const out = new Set();
  for (let r = 0; r < pos.n; r++) {
    for (let f = 0; f < pos.n; f++) {
      if (pos.cells[r][f] !== color) continue;
      for (const [a, b] of ring(pos, f, r, 1)) if (pos.cells[b][a] === '') out.add(squareName(a, b));
    }
  }
  return out;
}

function canMove(pos, color) {
  for (let r = 0; r < pos.n; r++) {
    for (let f = 0; f < pos.n; f++) {
      if (pos.cells[r][f] !== color) continue;
      for (const d of [1, 2]) if (ring(pos, f, r, d).some(([a, b]) => pos.cells[b][a] === '')) return true;
    }
  }
  return false;
}

export function count(pos, color) {
  return pos.cells.reduce((sum, row) => sum + row.filter((c) => c === color).length, 0);
}

/** The side to move has no move but the game goes on: it must pass. */
export const mustPass = (pos) => !isGameOver(pos) && !canMove(pos, pos.turn);

export function isGameOver(pos) {
  return count(pos, 'x') === 0 || count(pos, 'o') === 0 || pos.halfmove >= 100
    || (!canMove(pos, 'x') && !canMove(pos, 'o'));
}

/** Reads strict move text: {from, to} (from null for a single), or null for a pass. */
export function parseMove(text) {
  if (text === '0000') return null;
  return text.length === 4 ? { from: text.slice(0, 2), to: text.slice(2) } : { from: null, to: text };
}

/**
 * Plays strict move text on a copy of `pos`. Returns {pos, flipped: [names], from, to}.
 */
export function play(pos, text) {
  const next = { ...pos, cells: pos.cells.map((row) => row.slice()) };
  const mv = parseMove(text);
  const mover = pos.turn;
  const flipped = [];
  if (mv) {
    const [tf, tr] = parseSquare(mv.to);
    if (mv.from) {
      const [ff, fr] = parseSquare(mv.from);
      next.cells[fr][ff] = '';
    }
    next.cells[tr][tf] = mover;
    for (const [a, b] of ring(pos, tf, tr, 1)) {
      if (next.cells[b][a] === other(mover)) {
        next.cells[b][a] = mover;
        flipped.push(squareName(a, b));
      }
    }
  }
  next.halfmove = mv && !mv.from ? 0 : pos.halfmove + 1;
  if (mover === 'o') next.fullmove = pos.fullmove + 1;
  next.turn = other(mover);
  return { pos: next, flipped, from: mv?.from ?? null, to: mv?.to ?? null };
}

/** Every position of a game: positions[i] is the board after i moves. */
export function replay(startFen, moves) {
  const positions = [parseFen(startFen)];
  for (const m of moves) positions.push(play(positions[positions.length - 1], m.move).pos);
  return positions;
}

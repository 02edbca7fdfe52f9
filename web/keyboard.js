// Playing with the keyboard alone: the board takes the focus, the arrow keys move a visible
// cursor to the nearest cell in their direction (so square, hexagonal, four-player and Ankor
// boards all work from what is drawn), Enter or Space acts as a click on the cursor's cell
// (pick, then drop) and Escape lets go (game-moves.js handles it). Where the cursor is and what
// lies there is said to screen readers.

const DIRECTIONS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
const PIECES = { x: 'x piece', o: 'o piece', r: 'red piece', b: 'blue piece', g: 'green piece', y: 'yellow piece' };

/** The cells drawn now in `container`: name → the elements that carry it. */
function cellsOf(container) {
  const found = new Map();
  for (const node of container.querySelectorAll('.squares [data-sq], [data-cell]')) {
    const name = node.dataset.sq ?? node.dataset.cell;
    if (!found.has(name)) found.set(name, []);
    found.get(name).push(node);
  }
  return found;
}

const centre = (nodes) => {
  const box = nodes[0].getBoundingClientRect();
  return [box.left + box.width / 2, box.top + box.height / 2];
};

/** What lies on cell `name` (drawn by `nodes`), in words. */
function describe(container, name, nodes) {
  const piece = container.querySelector(`.pieces [data-sq="${CSS.escape(name)}"]`)
    ?? nodes.find((n) => n.dataset.color);
  const shape = nodes[0];
  const what = piece ? PIECES[piece.dataset.color] ?? `${piece.dataset.color} cube`
    : shape.classList.contains('blocked') ? 'blocked' : 'empty';
  const marks = [];
  if (shape.classList.contains('selected') || nodes.some((n) => n.classList.contains('selected'))) marks.push('picked');
  if (container.querySelector(`[data-target="${CSS.escape(name)}"]`)) marks.push('a move goes here');
  return `${name}: ${what}${marks.length ? `, ${marks.join(', ')}` : ''}`;
}

/** The cell nearest the middle of the board: where the cursor starts. */
function middle(container, all) {
  const box = container.getBoundingClientRect();
  const mid = [box.left + box.width / 2, box.top + box.height / 2];
  let best = null;
  let bestDistance = Infinity;
  for (const [name, nodes] of all) {
    const [x, y] = centre(nodes);
    const distance = Math.hypot(x - mid[0], y - mid[1]);
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  return best;
}

/**
 * The nearest cell of `all` from `cursor` in direction [dx, dy]: its distance plus how far off
 * the axis it lies. (Distance, not the step along the axis: on hexagons the next row lies off
 * the axis, and measuring along it skipped that row for the one beyond.)
 */
function nearest(all, cursor, [dx, dy]) {
  const [cx, cy] = centre(all.get(cursor));
  let best = cursor;
  let bestScore = Infinity;
  for (const [name, nodes] of all) {
    const [x, y] = centre(nodes);
    const along = (x - cx) * dx + (y - cy) * dy;
    if (along < 2) continue;
    const across = Math.abs((x - cx) * dy - (y - cy) * dx);
    const score = Math.hypot(along, across) + across;
    if (score < bestScore) [best, bestScore] = [name, score];
  }
  return best;
}

/** Makes the board in `container` playable by keys; returns a function that undoes it. */
export function attachKeyboard(container) {
  let cursor = null;
  // The cursor shows only while the keys are in use: after a mouse click it would look like a
  // selection.
  let keyed = false;
  container.tabIndex = 0;
  container.setAttribute('role', 'application');
  container.setAttribute('aria-roledescription', 'board');
  container.setAttribute('aria-label', 'Board: arrow keys move the cursor, Enter picks a piece and drops it, Escape lets go');
  const status = document.createElement('p');
  status.className = 'sr-only';
  status.setAttribute('aria-live', 'polite');
  container.after(status);

  const cells = () => cellsOf(container);

  /** Shows the cursor on what is drawn now (the board redraws on every change). */
  function show() {
    const all = cells();
    if (cursor && !all.has(cursor)) cursor = null;
    // The board took the focus before it was drawn (or lost the cursor's cell): start again.
    if (!cursor && document.activeElement === container) cursor = middle(container, all);
    for (const node of container.querySelectorAll('.kb-cursor')) node.classList.remove('kb-cursor');
    container.dataset.cursor = cursor ?? '';
    if (!cursor || !keyed || document.activeElement !== container) return;
    for (const node of all.get(cursor)) node.classList.add('kb-cursor');
  }

  /** The cell the cursor goes to in `direction`. */
  function step(direction) {
    const all = cells();
    return cursor && all.has(cursor) ? nearest(all, cursor, direction) : middle(container, all);
  }

  const say = () => {
    const all = cells();
    if (cursor && all.has(cursor)) status.textContent = describe(container, cursor, all.get(cursor));
  };

  const onKey = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const direction = DIRECTIONS[event.key];
    const wasKeyed = keyed;
    if (direction || event.key === 'Enter' || event.key === ' ') keyed = true;
    if (direction) {
      // The first key shows the cursor where it is; the next ones move it.
      if (wasKeyed) cursor = step(direction);
      else cursor ??= middle(container, cells());
      show();
      say();
    } else if (event.key === 'Enter' || event.key === ' ') {
      if (!cursor || !wasKeyed) { cursor ??= middle(container, cells()); show(); say(); return event.preventDefault(); }
      // The top element of the cell (a move target lies over a hole or cube) takes the click.
      const nodes = cells().get(cursor);
      nodes?.at(-1).dispatchEvent(new MouseEvent('click', { bubbles: true }));
      say();
    } else {
      return; // Escape and the rest go on to the page (game-moves.js lets go of a picked piece).
    }
    // The replay's arrow keys must not also move through the game.
    event.preventDefault();
    event.stopPropagation();
  };
  const onFocus = () => {
    // Reached by Tab (focus-visible): the keys are in use; by a click: not until one is pressed.
    keyed = container.matches(':focus-visible');
    show();
    if (keyed) say();
  };
  const onPointer = () => {
    keyed = false;
    show();
  };
  container.addEventListener('keydown', onKey);
  container.addEventListener('pointerdown', onPointer);
  container.addEventListener('focus', onFocus);
  container.addEventListener('blur', show);
  const redraws = new MutationObserver(show);
  redraws.observe(container, { childList: true, subtree: true });
  return () => {
    redraws.disconnect();
    container.removeEventListener('keydown', onKey);
    container.removeEventListener('pointerdown', onPointer);
    container.removeEventListener('focus', onFocus);
    container.removeEventListener('blur', show);
    status.remove();
  };
}

"""Plays seeded random games with python-ataxx and prints, for every ply, what python-ataxx says
about the position: its FEN, its sorted legal moves, whether the game is over and the result.

The Rust test `differential.rs` replays the same plies through this project's rules and compares.
Output: one JSON object per line, {"game": i, "fen": ..., "moves": [...], "over": b, "result": r,
"played": move-or-null}.
"""

import json
import random
import sys

import ataxx

# Quarter squares as (file, rank-from-top) that may be blocked; a7 (0, 0) never is.
QUARTER = [(f, r) for r in range(4) for f in range(4) if (f, r) != (0, 0)]


def random_layout_fen(rng):
    """A start FEN with a random mirror-symmetric layout of 1 to 6 quarter squares blocked."""
    cells = [["." for _ in range(7)] for _ in range(7)]
    for f, r in rng.sample(QUARTER, rng.randint(1, 6)):
        for ff in {f, 6 - f}:
            for rr in {r, 6 - r}:
                cells[rr][ff] = "-"
    cells[0][0], cells[6][6] = "x", "x"
    cells[0][6], cells[6][0] = "o", "o"
    rows = []
    for row in cells:
        text, run = "", 0
        for c in row:
            if c == ".":
                run += 1
                continue
            if run:
                text += str(run)
                run = 0
            text += c
        rows.append(text + (str(run) if run else ""))
    return "/".join(rows) + " x 0 1"


def start_fen(rng, game):
    kind = game % 4
    if kind == 1:
        return random_layout_fen(rng)
    if kind == 2:
        # Near the 100-ply rule, so that clock endings are reached.
        return f"x5o/7/7/7/7/7/o5x x {rng.randint(80, 99)} {rng.randint(1, 60)}"
    return ataxx.FEN_STARTPOS


def main():
    games, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    out = sys.stdout
    for game in range(games):
        board = ataxx.Board(start_fen(rng, game))
        while True:
            moves = board.legal_moves()
            over = board.gameover()
            played = None if over or not moves else rng.choice(moves)
            out.write(json.dumps({
                "game": game,
                "fen": board.get_fen(),
                "moves": sorted(str(m) for m in moves),
                "over": over,
                "result": board.result(),
                "played": None if played is None else str(played),
            }) + "\n")
            if played is None:
                break
            board.makemove(played)


if __name__ == "__main__":
    main()

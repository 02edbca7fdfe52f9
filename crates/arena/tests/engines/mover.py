#!/usr/bin/env python3
"""A tiny UAI engine for the match runner's tests (standard library only).

It reads the FEN of every `position` command, lists the legal moves itself and answers `go`
with the move that leaves it the most pieces (ties broken by a seeded random choice), or with a
random move under --random. Flags make it misbehave on purpose:

  --illegal-at N   answer the N-th `go` of this process with an occupied square
  --exit-at N      exit without answering the N-th `go`
  --hang-at N      stop answering anything at the N-th `go`
  --junk           answer every `go` with junk lines and an unreadable bestmove
  --noisy          tolerable quirks: a banner before `id`, non-UAI lines, bare `info score N`,
                   CRLF line ends, passes written `a1a1`
  --random         play a random legal move instead of the greedy one
  --noise P        play a random legal move with probability P percent
  --seed N         seed for tie-breaks and --random
"""
import random
import sys
import time


def arg(name, default=None):
    if name in sys.argv:
        return int(sys.argv[sys.argv.index(name) + 1])
    return default


ILLEGAL_AT = arg("--illegal-at")
EXIT_AT = arg("--exit-at")
HANG_AT = arg("--hang-at")
JUNK = "--junk" in sys.argv
NOISY = "--noisy" in sys.argv
RANDOM = "--random" in sys.argv
NOISE = arg("--noise", 0)
rng = random.Random(arg("--seed", 0))


def say(line):
    sys.stdout.write(line + ("\r\n" if NOISY else "\n"))
    sys.stdout.flush()


def parse_fen(fen):
    fields = fen.split()
    rows = fields[0].split("/")
    n = len(rows)
    cells = {}
    for r, row in enumerate(rows):
        rank = n - 1 - r
        file = 0
        for c in row:
            if c.isdigit():
                file += int(c)
            else:
                cells[(file, rank)] = c.lower()
                file += 1
    turn = fields[1].lower() if len(fields) > 1 else "x"
    return n, cells, turn


def name(sq):
    return "abcdefghi"[sq[0]] + str(sq[1] + 1)


def legal_moves(n, cells, turn):
    """(text, destination, origin or None) for every legal move; [('0000', None, None)] if stuck."""
    own = [sq for sq, c in cells.items() if c == turn]
    empty = [(f, r) for f in range(n) for r in range(n) if (f, r) not in cells]
    moves = []
    for to in empty:
        dist = [max(abs(to[0] - s[0]), abs(to[1] - s[1])) for s in own]
        if 1 in dist:
            moves.append((name(to), to, None))
        for s, d in zip(own, dist):
            if d == 2:
                moves.append((name(s) + name(to), to, s))
    return moves or [("0000", None, None)]


def pieces_after(cells, turn, move):
    _, to, origin = move
    if to is None:
        return 0
    gained = sum(
        1
        for (f, r), c in cells.items()
        if c not in (turn, "-") and max(abs(f - to[0]), abs(r - to[1])) == 1
    )
    return 2 * gained + (0 if origin else 1)


def choose(fen):
    n, cells, turn = parse_fen(fen)
    moves = legal_moves(n, cells, turn)
    if RANDOM or rng.random() * 100 < NOISE:
        return rng.choice(moves)[0]
    scored = [(pieces_after(cells, turn, m), m[0]) for m in moves]
    best = max(score for score, _ in scored)
    return rng.choice([text for score, text in scored if score == best])


def main():
    fen = "x5o/7/7/7/7/7/o5x x 0 1"
    searches = 0
    if NOISY:
        say("Mover test engine, noisy edition")
    for line in sys.stdin:
        tokens = line.split()
        if not tokens:
            continue
        command = tokens[0]
        if command == "uai":
            say("id name mover")
            say("id author arena tests")
            say("uaiok")
        elif command == "isready":
            say("readyok")
        elif command == "position":
            if tokens[1] == "startpos":
                fen = "x5o/7/7/7/7/7/o5x x 0 1"
            else:
                end = tokens.index("moves") if "moves" in tokens else len(tokens)
                fen = " ".join(tokens[2:end])
        elif command == "go":
            searches += 1
            if searches == EXIT_AT:
                sys.exit(3)
            if searches == HANG_AT:
                time.sleep(3600)
            if JUNK:
                say("%%% junk %%%")
                say("bestmove ??junk")
                continue
            move = choose(fen)
            if searches == ILLEGAL_AT:
                n, cells, turn = parse_fen(fen)
                move = name(next(sq for sq, c in cells.items() if c == turn))
            if NOISY:
                say("thinking very hard")
                say("info depth 1 score 12")
                if move == "0000":
                    move = "a1a1"
            say("bestmove " + move)
        elif command == "quit":
            return
        elif NOISY:
            say("Unknown command: " + command)


main()

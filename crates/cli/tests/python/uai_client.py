"""Plays one game between two instances of a UAI engine through python-ataxx's UAI client.

Usage: uai_client.py DEPTH ENGINE [ARGS...]. Every bestmove is checked with python-ataxx's own
rules. Prints a JSON summary: plies, result, and the engine's name.
"""

import json
import sys

import ataxx
import ataxx.uai


def main():
    depth, command = int(sys.argv[1]), sys.argv[2:]
    engines = [ataxx.uai.Engine(command), ataxx.uai.Engine(command)]
    for engine in engines:
        engine.uai()
        engine.setoption("Hash", "16")
        engine.isready(5)
        engine.uainewgame()
    board = ataxx.Board()
    plies = 0
    while not board.gameover() and plies < 400:
        engine = engines[plies % 2]
        engine.position(board.get_fen())
        engine.isready(5)
        best, _ = engine.go(depth=depth, maxwait=30)
        if best is None:
            raise SystemExit(f"no bestmove at {board.get_fen()}")
        move = ataxx.Move.from_san(best)
        if not board.is_legal(move):
            raise SystemExit(f"illegal bestmove {best} at {board.get_fen()}")
        board.makemove(move)
        plies += 1
    name = engines[0].name
    for engine in engines:
        engine.quit()
    print(json.dumps({"plies": plies, "result": board.result(), "fen": board.get_fen(), "name": name}))


if __name__ == "__main__":
    main()

"""Reads a PGN file with python-ataxx's PGN reader and replays every game.

Prints one JSON object per game: its Result and FinalFEN tags, the number of plies python-ataxx
read, the FEN it reached and the result it computes. python-ataxx silently skips a game it cannot
parse, so the caller compares the number of games too.
"""

import json
import sys

import ataxx
import ataxx.pgn


def main():
    for game in ataxx.pgn.GameIterator(sys.argv[1]):
        board = ataxx.Board(game.headers.get("FEN", ataxx.FEN_STARTPOS))
        plies = 0
        for node in game.main_line():
            board.makemove(node.move)
            plies += 1
        print(json.dumps({
            "result_tag": game.headers.get("Result"),
            "final_fen_tag": game.headers.get("FinalFEN"),
            "plies": plies,
            "fen": board.get_fen(),
            "result": board.result(),
        }))


if __name__ == "__main__":
    main()

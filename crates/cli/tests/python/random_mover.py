# A random mover for square Ataxx (blocked cells allowed) that speaks just enough UAI, written
# for the tests: it shares no code with the project.
import os, random, sys

# With a directory for marker files: crash on the second `go` and answer an illegal move on
# the third, once each, so that `ataxx bot` has to restart the engine.
marks = sys.argv[1] if len(sys.argv) > 1 else None

def once(name):
    if marks is None:
        return False
    path = os.path.join(marks, name)
    if os.path.exists(path):
        return False
    open(path, "w").close()
    return True

def legal_moves(fen):
    placement, side = fen.split()[0], fen.split()[1]
    board = []
    for text in placement.split("/"):
        row, digits = [], ""
        for ch in text + "/":
            if ch.isdigit():
                digits += ch
                continue
            if digits:
                row += ["."] * int(digits)
                digits = ""
            if ch != "/":
                row.append(ch)
        board.append(row)
    n = len(board)
    name = lambda r, c: "abcdefg"[c] + str(n - r)
    clones, jumps = set(), []
    for r in range(n):
        for c in range(n):
            if board[r][c] != side:
                continue
            for dr in range(-2, 3):
                for dc in range(-2, 3):
                    rr, cc = r + dr, c + dc
                    if (dr, dc) == (0, 0) or not (0 <= rr < n and 0 <= cc < n):
                        continue
                    if board[rr][cc] != ".":
                        continue
                    if max(abs(dr), abs(dc)) == 1:
                        clones.add(name(rr, cc))
                    else:
                        jumps.append(name(r, c) + name(rr, cc))
    return sorted(clones) + jumps or ["0000"]

fen, goes = None, 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uai":
        print("id name random mover")
        print("uaiok")
    elif words[0] == "isready":
        print("readyok")
    elif words[0] == "position" and words[1] == "fen":
        fen = " ".join(words[2:])
    elif words[0] == "go":
        goes += 1
        if goes == 2 and once("crashed"):
            os._exit(3)
        if goes == 3 and once("illegal"):
            print("bestmove a1a1")
        else:
            print("bestmove " + random.choice(legal_moves(fen)))
    elif words[0] == "quit":
        break
    sys.stdout.flush()

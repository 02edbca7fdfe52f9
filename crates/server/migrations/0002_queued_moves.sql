-- Moves stored with `ataxx queue`, played when it becomes their player's turn.
CREATE TABLE queued_moves (
    board BIGINT NOT NULL REFERENCES games (board),
    name TEXT NOT NULL,
    mv TEXT NOT NULL,
    guard BIGINT,
    PRIMARY KEY (board, name)
);

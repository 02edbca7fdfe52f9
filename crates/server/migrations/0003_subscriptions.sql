-- Users following a board's events without playing on it (`ataxx subscribe`).
CREATE TABLE subscriptions (
    board BIGINT NOT NULL REFERENCES games (board),
    name TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    PRIMARY KEY (board, name)
);

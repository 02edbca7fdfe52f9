-- The server's tables. Portable SQL: SQLite and PostgreSQL both run it (no autoincrement,
-- BIGINT for integers and flags, DOUBLE PRECISION for ratings, TEXT for the rest).

CREATE TABLE users (
    name TEXT PRIMARY KEY,
    password_hash TEXT NOT NULL,
    addresses TEXT NOT NULL,
    bot_level TEXT,
    refuses_challenges BIGINT NOT NULL,
    game_limit BIGINT,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    wins BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    last_game_ms BIGINT
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    name TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);

CREATE TABLE games (
    board BIGINT PRIMARY KEY,
    x_name TEXT NOT NULL,
    o_name TEXT NOT NULL,
    x_accepted BIGINT NOT NULL,
    o_accepted BIGINT NOT NULL,
    status TEXT NOT NULL,
    layout TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    fen TEXT NOT NULL,
    plies BIGINT NOT NULL,
    version BIGINT NOT NULL,
    result TEXT NOT NULL,
    termination TEXT NOT NULL,
    rated BIGINT NOT NULL,
    nag_days BIGINT NOT NULL,
    forfeit_days BIGINT NOT NULL,
    total_days BIGINT,
    clock_base_ms BIGINT,
    clock_increment_ms BIGINT,
    x_remaining_ms BIGINT,
    o_remaining_ms BIGINT,
    x_used_ms BIGINT NOT NULL,
    o_used_ms BIGINT NOT NULL,
    proposal TEXT NOT NULL,
    proposal_by TEXT NOT NULL,
    nagged_ply BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    started_ms BIGINT,
    last_move_ms BIGINT,
    finished_ms BIGINT,
    x_rating_change DOUBLE PRECISION,
    o_rating_change DOUBLE PRECISION
);

CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_x ON games (x_name);
CREATE INDEX games_by_o ON games (o_name);

CREATE TABLE moves (
    board BIGINT NOT NULL REFERENCES games (board),
    ply BIGINT NOT NULL,
    mv TEXT NOT NULL,
    auto BIGINT NOT NULL,
    flips BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (board, ply)
);

CREATE TABLE chat (
    board BIGINT NOT NULL REFERENCES games (board),
    seq BIGINT NOT NULL,
    name TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (board, seq)
);

CREATE TABLE rating_history (
    name TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    board BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (name, board)
);

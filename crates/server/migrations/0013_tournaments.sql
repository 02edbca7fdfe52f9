-- Tournaments (issue 34): arenas, Swiss and the engine league. Every decision a tournament
-- makes (a pairing, a bye, a new round, its end) is a row here, written in one transaction by
-- the leader node, so a node that dies loses none; results arrive in the transaction that ends
-- the game. Portable SQL as in 0001.
CREATE TABLE tournaments (
    id BIGINT PRIMARY KEY,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    creator TEXT NOT NULL,
    status TEXT NOT NULL,
    rounds BIGINT NOT NULL,
    round BIGINT NOT NULL,
    minutes BIGINT NOT NULL,
    clock_base_ms BIGINT,
    clock_increment_ms BIGINT,
    days BIGINT,
    rated BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    starts_ms BIGINT,
    started_ms BIGINT,
    finished_ms BIGINT
);

CREATE TABLE tournament_players (
    tournament BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    joined_ms BIGINT NOT NULL,
    withdrawn BIGINT NOT NULL,
    PRIMARY KEY (tournament, name)
);

CREATE TABLE tournament_pairings (
    tournament BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round BIGINT NOT NULL,
    board BIGINT NOT NULL,
    x TEXT NOT NULL,
    o TEXT,
    game BIGINT,
    result TEXT NOT NULL,
    PRIMARY KEY (tournament, round, board)
);

-- A game's end finds its pairing by board number.
CREATE INDEX tournament_pairings_by_game ON tournament_pairings (game);

INSERT INTO counters (name, value) VALUES ('tournament', 0);

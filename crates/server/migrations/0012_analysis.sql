-- Computer analysis of finished games (issue #33): one job per board, queued until a worker of
-- any node takes it under a lease (lease_holder until lease_until_ms, renewed with every position
-- it stores), so that a job whose node died is taken again once its lease has passed; and one
-- row per analysed position, so that a job taken again goes on where the last holder stopped.
-- Portable SQL as in 0001.
CREATE TABLE analysis_jobs (
    board BIGINT PRIMARY KEY REFERENCES games (board),
    requested_by TEXT NOT NULL,
    requested_ms BIGINT NOT NULL,
    -- queued, running or done
    status TEXT NOT NULL,
    -- The positions to analyse: the game's plies plus its start.
    positions BIGINT NOT NULL,
    lease_holder TEXT NOT NULL,
    lease_until_ms BIGINT NOT NULL,
    finished_ms BIGINT NOT NULL
);

CREATE INDEX analysis_jobs_waiting ON analysis_jobs (status, requested_ms);

-- A position of an analysed board: `ply` plies after its start. Scores are hundredths of a
-- piece (Ankor: of a cube of connection distance); a forced end is 100000 less the plies to it.
CREATE TABLE analysis_positions (
    board BIGINT NOT NULL REFERENCES analysis_jobs (board),
    ply BIGINT NOT NULL,
    -- For the seat to move (the seat that moved, once the game is over).
    score BIGINT NOT NULL,
    -- For the seat that made the ply before this position; NULL at the start.
    mover_score BIGINT,
    -- The engine's move ('' once the game is over) and its line, moves separated by spaces.
    best TEXT NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (board, ply)
);

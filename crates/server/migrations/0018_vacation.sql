-- Vacation (issue #49): a correspondence player away for some days. While a user has a row in
-- `vacations`, the deadlines of their correspondence games (nag, forfeit, total time) do not run
-- on their turn; when it ends (at until_ms, by the sweeper, or early by the player) those games
-- resume with the time they had. Live games are not affected. Portable SQL as in 0001.
CREATE TABLE vacations (
    name TEXT PRIMARY KEY REFERENCES users (name) ON DELETE CASCADE,
    started_ms BIGINT NOT NULL,
    until_ms BIGINT NOT NULL
);

-- The vacation days each user has taken in a calendar year (UTC), against the yearly allowance.
CREATE TABLE vacation_days (
    name TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    year BIGINT NOT NULL,
    days BIGINT NOT NULL,
    PRIMARY KEY (name, year)
);

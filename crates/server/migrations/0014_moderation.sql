-- Chat people can trust (issue #32): moderators, mutes, reports and blocks, and a spectators'
-- chat beside the players'. Portable SQL as in 0001 (SQLite and PostgreSQL).

-- Chat lines say whose room they were written in: `players` (the board's players) or
-- `spectators` (anyone else signed in).
ALTER TABLE chat ADD COLUMN channel TEXT NOT NULL DEFAULT 'players';

-- Users a server admin (`serve --admin`, a moderator without a row) made moderators.
CREATE TABLE moderators (
    name TEXT PRIMARY KEY REFERENCES users (name) ON DELETE CASCADE,
    granted_by TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);

-- A user's chat is refused until `until_ms`; the latest mute of a user replaces the one before.
CREATE TABLE mutes (
    name TEXT PRIMARY KEY REFERENCES users (name) ON DELETE CASCADE,
    until_ms BIGINT NOT NULL,
    muted_by TEXT NOT NULL,
    reason TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);

-- `blocker` sees no chat of `blocked` and takes no challenge from them.
CREATE TABLE blocks (
    blocker TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    blocked TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (blocker, blocked)
);

-- What users reported of others, for the moderators.
CREATE TABLE reports (
    id BIGINT PRIMARY KEY,
    reporter TEXT NOT NULL,
    reported TEXT NOT NULL,
    board BIGINT,
    reason TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);

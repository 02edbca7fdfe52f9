-- Admin without SQL (issue #35): bans, cheater marks and the admin log. Portable SQL as in 0001
-- (SQLite and PostgreSQL). A closed account needs no column: its password hash is the one no
-- password matches (`accounts::is_closed`), as when a user closes their own.

-- A banned user cannot sign in (so cannot move, chat, seek or mail) until an admin unbans them.
CREATE TABLE bans (
    name TEXT PRIMARY KEY REFERENCES users (name) ON DELETE CASCADE,
    banned_by TEXT NOT NULL,
    reason TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);

-- A user marked as a cheater: their games from then on are unrated, and the leaderboards leave
-- them out.
CREATE TABLE cheaters (
    name TEXT PRIMARY KEY REFERENCES users (name) ON DELETE CASCADE,
    marked_by TEXT NOT NULL,
    reason TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);

-- Every act of an admin, in order: who, when, what (`ban`, `unban`, `close`, `cheater`,
-- `uncheater`, `abort`), on whom or which board, and why.
CREATE TABLE admin_log (
    id BIGINT PRIMARY KEY,
    at_ms BIGINT NOT NULL,
    admin TEXT NOT NULL,
    act TEXT NOT NULL,
    target TEXT NOT NULL,
    reason TEXT NOT NULL
);

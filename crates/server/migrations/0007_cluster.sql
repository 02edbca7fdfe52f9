-- Board numbers from the database, not MAX(board) + 1 (two server nodes would hand out the same
-- number): a counter row that `UPDATE ... RETURNING` bumps atomically on SQLite and PostgreSQL
-- (the row lock serialises concurrent challenges across nodes). Portable SQL as in 0001.
CREATE TABLE counters (
    name TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);

INSERT INTO counters (name, value) SELECT 'board', COALESCE(MAX(board), 100) FROM games;

-- Events too long for a PostgreSQL notification (8000 bytes): the notification names the row,
-- every node reads it, the leader deletes it a minute later (crates/server/src/cluster.rs).
CREATE TABLE event_bodies (
    id BIGINT PRIMARY KEY,
    created_ms BIGINT NOT NULL,
    body TEXT NOT NULL
);

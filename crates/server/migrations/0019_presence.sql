-- Who is online (issue #51): the last lobby heartbeat of each signed-in user, in the database so
-- that every node of a cluster lists the same people. Rows older than the online window are
-- deleted by the next heartbeat. Portable SQL as in 0001.
CREATE TABLE presence (
    name TEXT PRIMARY KEY REFERENCES users (name) ON DELETE CASCADE,
    seen_ms BIGINT NOT NULL
);

-- Personal API tokens with scopes (issue #49): a script or bot signs in with one instead of
-- the account's password. Only the SHA-256 of the secret is kept; the secret is shown once.
-- Portable SQL as in 0001 (SQLite and PostgreSQL).
CREATE TABLE api_tokens (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    label TEXT NOT NULL,
    -- The scopes, space-separated: `read`, `board:play`, `bot:play`.
    scopes TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE INDEX api_tokens_by_name ON api_tokens (name);

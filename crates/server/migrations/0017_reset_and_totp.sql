-- Issue #49: password resets by mail and a TOTP second factor. Portable SQL as in 0001 (SQLite
-- and PostgreSQL).

-- A password reset mailed to a confirmed address: only the SHA-256 digest of its token is kept.
-- A token opens one reset before `expires_ms`; using it sets `used_ms` on every token of the
-- account. Rows stay a day after they were made, so that the mails an account was sent can be
-- counted (the throttle).
CREATE TABLE password_resets (
    token_hash TEXT PRIMARY KEY,
    name TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    used_ms BIGINT NOT NULL
);

CREATE INDEX password_resets_by_name ON password_resets (name, created_ms);

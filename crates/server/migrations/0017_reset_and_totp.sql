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

-- A second factor (RFC 6238 TOTP) of an account: the shared secret (base32, as authenticator
-- apps take it; the server must compute codes, so it cannot keep a hash), whether its owner
-- confirmed it with a code (only then does sign-in ask for one), and the last time step a code
-- was accepted for (a code is used once).
CREATE TABLE totp (
    name TEXT PRIMARY KEY REFERENCES users (name) ON DELETE CASCADE,
    secret TEXT NOT NULL,
    enabled BIGINT NOT NULL,
    last_step BIGINT NOT NULL,
    created_ms BIGINT NOT NULL
);

-- The single-use recovery codes of an account's second factor, as SHA-256 digests.
CREATE TABLE totp_recovery (
    name TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    PRIMARY KEY (name, code_hash)
);

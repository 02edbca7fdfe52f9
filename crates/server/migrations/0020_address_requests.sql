-- Issue #50, finding 1: each address an account asks for waits for its own token. One token per
-- account (users.address_token) confirmed every address of the request at once, so a stranger
-- who listed 200 victims beside their own address confirmed them all with their own mail.
-- A row per address of the account's latest request: the SHA-256 of the token mailed to that
-- address alone, or '' once confirmed (and for an address the account already had). Requests
-- left unconfirmed by the old columns are dropped: they are asked for again. Portable SQL as
-- in 0001.
CREATE TABLE address_requests (
    name TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    address TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    requested_ms BIGINT NOT NULL,
    PRIMARY KEY (name, address)
);
ALTER TABLE users DROP COLUMN pending_addresses;
ALTER TABLE users DROP COLUMN address_token;

-- Issue #35 (running a server for real) and #28, 8: the addresses each account signed in from,
-- so that a cap on an account's failed logins from all addresses together holds back only
-- addresses that never signed in to it (the owner's own keep working). Portable SQL as in 0001.
CREATE TABLE known_logins (
    account TEXT NOT NULL,
    address TEXT NOT NULL,
    last_login_ms BIGINT NOT NULL,
    PRIMARY KEY (account, address)
);

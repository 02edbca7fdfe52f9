-- Rate limits in the database, so that they hold across server nodes (issue 14): failed logins
-- per (client address, account), and attempts per key in fixed one-minute windows (signups per
-- address). Portable SQL as in 0001.
CREATE TABLE login_failures (
    address TEXT NOT NULL,
    account TEXT NOT NULL,
    failures BIGINT NOT NULL,
    last_failure_ms BIGINT NOT NULL,
    locked_until_ms BIGINT NOT NULL,
    PRIMARY KEY (address, account)
);

CREATE TABLE rate_windows (
    name TEXT PRIMARY KEY,
    started_ms BIGINT NOT NULL,
    used BIGINT NOT NULL
);

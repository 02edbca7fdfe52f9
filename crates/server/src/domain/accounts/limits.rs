//! The attempts each rate-limit window allows: signups, failed logins, connections, resets.

/// How many attempts a window allows.
#[derive(Clone, Copy, Debug)]
pub struct RateLimits {
    /// Signups per client address per minute.
    pub signups_per_minute: u32,
    /// Failed logins per (client address, userid) before that address must wait for that
    /// account: one minute after the limit, doubling with every further failure (up to an hour).
    /// Other addresses are not held back by these failures.
    pub failures_per_minute: u32,
    /// Failed logins per client address, whatever the userids, before that address must wait
    /// for every account (the same doubling wait): made-up userids are throttled too.
    pub failures_per_address: u32,
    /// Failed logins on one account from all addresses together (in the hour since the last)
    /// before the addresses that never signed in to it must wait (the same doubling wait); the
    /// addresses the owner signed in from are let in.
    pub failures_per_account: u32,
    /// Open text-door connections per client address, counted by each node (a connection
    /// belongs to one process, and goes when it dies).
    pub text_connections_per_address: u32,
    /// Open HTTP connections (WebSockets included) per client address, counted by each node.
    pub http_connections_per_address: u32,
    /// Whether the expensive public HTTP reads (PGN exports, the explorer, game search, the
    /// leaderboards) are rate limited per client address, by each node.
    pub public_reads: bool,
    /// Password reset requests per client address per minute, whatever the accounts named.
    pub resets_per_minute: u32,
}

impl RateLimits {
    pub const DEFAULT: RateLimits = RateLimits {
        signups_per_minute: 10,
        failures_per_minute: 10,
        failures_per_address: 100,
        failures_per_account: 100,
        text_connections_per_address: 20,
        http_connections_per_address: 100,
        public_reads: true,
        resets_per_minute: 5,
    };
    /// No limits (load tests).
    pub const OFF: RateLimits = RateLimits {
        signups_per_minute: u32::MAX,
        failures_per_minute: u32::MAX,
        failures_per_address: u32::MAX,
        failures_per_account: u32::MAX,
        text_connections_per_address: u32::MAX,
        http_connections_per_address: u32::MAX,
        public_reads: false,
        resets_per_minute: u32::MAX,
    };
}

//! Rate limits on the public reads that cost the server most: PGN exports (up to
//! [`crate::domain::games::MAX_EXPORT`] games a call), the opening explorer, game search and the
//! leaderboards. Anyone may read them without an account, so without a limit one client could
//! keep the database busy for everyone.
//!
//! Each family of routes has a token bucket per client address (the address
//! [`super::TrustedProxies`] derives; IPv6 by /64, since one host is given a whole /64): a burst,
//! then a steady rate. One request more is answered 429 `rate_limited` with `Retry-After`. The
//! buckets are this node's (in memory, `governor`): on a cluster each node counts its own, which
//! is enough to keep one client from holding a node.

use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota};

use super::ApiError;
use crate::error::Error;

/// A family of public reads that share one bucket per client address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reads {
    /// PGN exports: `/api/games/search/pgn`, `/api/tournaments/{id}/pgn`.
    Export,
    /// `/api/explorer`: the analysis board asks once per position shown.
    Explorer,
    /// `/api/games/search`, `/api/leaderboard`, `/api/standings`.
    Search,
}

impl Reads {
    /// The burst a client address may make, and how often one more request is allowed after it
    /// (docs/server.md lists them).
    fn quota(self) -> Quota {
        let (burst, every) = match self {
            Reads::Export => (5, Duration::from_secs(12)),
            Reads::Explorer => (60, Duration::from_millis(500)),
            Reads::Search => (30, Duration::from_secs(1)),
        };
        Quota::with_period(every)
            .expect("a period above zero")
            .allow_burst(NonZeroU32::new(burst).expect("a burst above zero"))
    }

    /// The label of its refusals in the `ataxx_rate_limited_total` metric.
    fn label(self) -> &'static str {
        match self {
            Reads::Export => "pgn_export",
            Reads::Explorer => "explorer",
            Reads::Search => "search",
        }
    }
}

/// How many checks pass between two sweeps of the buckets that are full again (and so hold
/// nothing worth keeping), which bounds the memory to the addresses seen recently.
const SWEEP_EVERY: u64 = 4096;

/// One family's buckets; clones share them. None: not limited (`ataxx serve --no-rate-limits`).
#[derive(Clone)]
pub(super) struct ReadLimit {
    reads: Reads,
    buckets: Option<Arc<DefaultKeyedRateLimiter<IpAddr>>>,
    checks: Arc<AtomicU64>,
}

impl ReadLimit {
    pub(super) fn new(reads: Reads, limited: bool) -> ReadLimit {
        ReadLimit {
            reads,
            buckets: limited.then(|| Arc::new(DefaultKeyedRateLimiter::keyed(reads.quota()))),
            checks: Arc::default(),
        }
    }

    /// Takes a token for `client`, or the refusal saying when the next one comes.
    fn check(&self, client: IpAddr) -> Result<(), Error> {
        let Some(buckets) = &self.buckets else {
            return Ok(());
        };
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            buckets.retain_recent();
        }
        buckets.check_key(&bucket_key(client)).map_err(|not_until| {
            crate::metrics::metrics()
                .rate_limited
                .with_label_values(&[self.reads.label()])
                .inc();
            let wait = not_until.wait_time_from(buckets.clock().now());
            Error::RateLimited {
                retry_after_s: wait.as_secs_f64().ceil().max(1.0) as u64,
            }
        })
    }
}

/// The bucket an address counts in: an IPv4 address itself, an IPv6 address's /64.
fn bucket_key(client: IpAddr) -> IpAddr {
    match client.to_canonical() {
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & (u128::MAX << 64))),
        v4 => v4,
    }
}

/// The middleware that holds a route to its family's quota.
pub(super) async fn limited(
    State(limit): State<ReadLimit>,
    request: Request,
    next: Next,
) -> Response {
    // The HTTP door gives every request its client's address (listen.rs).
    let client = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    if let Some(Err(refusal)) = client.map(|client| limit.check(client)) {
        return ApiError(refusal).into_response();
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_host_counts_by_its_64_and_a_mapped_ipv4_as_itself() {
        let key = |text: &str| bucket_key(text.parse().unwrap()).to_string();
        assert_eq!(key("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::");
        assert_eq!(key("2001:db8:1:2:bbbb::9"), "2001:db8:1:2::");
        assert_eq!(key("2001:db8:1:3::1"), "2001:db8:1:3::");
        assert_eq!(key("::ffff:203.0.113.7"), "203.0.113.7");
        assert_eq!(key("203.0.113.7"), "203.0.113.7");
    }

    #[test]
    fn a_burst_is_let_through_and_the_next_request_told_when_to_come_back() {
        let limit = ReadLimit::new(Reads::Export, true);
        let one: IpAddr = "203.0.113.7".parse().unwrap();
        let other: IpAddr = "203.0.113.8".parse().unwrap();
        for _ in 0..5 {
            limit.check(one).unwrap();
        }
        match limit.check(one) {
            Err(Error::RateLimited { retry_after_s }) => assert!((1..=12).contains(&retry_after_s)),
            other => panic!("expected a refusal, got {other:?}"),
        }
        limit.check(other).unwrap();
        let unlimited = ReadLimit::new(Reads::Export, false);
        for _ in 0..100 {
            unlimited.check(one).unwrap();
        }
    }
}

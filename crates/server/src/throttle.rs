//! Failed-login throttling per (client address, account), with exponential backoff.
//!
//! Counting failures per account alone lets anyone lock a user out (ten wrong passwords for
//! `zed` from anywhere, and `zed`'s right password is refused). Here the count belongs to the
//! pair (address, account): after `limit` failures from one address, that address waits one
//! minute before its next attempt on that account, then twice as long after each further
//! failure (up to an hour); a success clears the pair. The owner, typing the right password from
//! another address, is never held back by a stranger's failures. Every lockout is logged as
//! abuse (`warn`), with the address and the account, never the password.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// The first wait after `limit` failures; it doubles with each further failure.
const FIRST_WAIT: Duration = Duration::from_secs(60);
/// The longest wait.
const MAX_WAIT: Duration = Duration::from_secs(3600);
/// Pairs with no failure for this long are forgotten.
const FORGET_AFTER: Duration = Duration::from_secs(3600);
/// Table size above which forgotten pairs are swept out.
const SWEEP_ABOVE: usize = 100_000;

#[derive(Clone, Copy, Debug)]
struct Record {
    failures: u32,
    last_failure: Instant,
    locked_until: Option<Instant>,
}

/// The failures of each (address, account) pair.
#[derive(Default, Debug)]
pub struct LoginThrottle {
    pairs: HashMap<(Option<IpAddr>, String), Record>,
}

impl LoginThrottle {
    /// Refuses an attempt from `peer` on `account` while that pair is locked.
    pub fn check(
        &mut self,
        peer: Option<IpAddr>,
        account: &str,
        limit: u32,
        now: Instant,
    ) -> Result<()> {
        if limit == u32::MAX {
            return Ok(());
        }
        let Some(record) = self.pairs.get(&(peer, account.to_string())) else {
            return Ok(());
        };
        match record.locked_until {
            Some(until) if until > now => Err(Error::RateLimited {
                retry_after_s: (until - now).as_secs().max(1),
            }),
            _ => Ok(()),
        }
    }

    /// Counts a failure; from the `limit`-th on, locks the pair with a doubling wait.
    pub fn failed(&mut self, peer: Option<IpAddr>, account: &str, limit: u32, now: Instant) {
        if limit == u32::MAX {
            return;
        }
        if self.pairs.len() > SWEEP_ABOVE {
            self.pairs.retain(|_, r| {
                now.duration_since(r.last_failure) < FORGET_AFTER
                    || r.locked_until.is_some_and(|until| until > now)
            });
        }
        let record = self
            .pairs
            .entry((peer, account.to_string()))
            .or_insert(Record {
                failures: 0,
                last_failure: now,
                locked_until: None,
            });
        if now.duration_since(record.last_failure) >= FORGET_AFTER {
            record.failures = 0;
            record.locked_until = None;
        }
        record.failures += 1;
        record.last_failure = now;
        if record.failures >= limit.max(1) {
            let doublings = (record.failures - limit.max(1)).min(16);
            let wait = FIRST_WAIT.saturating_mul(1 << doublings).min(MAX_WAIT);
            record.locked_until = Some(now + wait);
            tracing::warn!(
                peer = ?peer,
                user = %account,
                failures = record.failures,
                wait_s = wait.as_secs(),
                "repeated failed logins: this address waits before trying this account again"
            );
        }
    }

    /// A right password clears the pair's failures.
    pub fn succeeded(&mut self, peer: Option<IpAddr>, account: &str) {
        if !self.pairs.is_empty() {
            self.pairs.remove(&(peer, account.to_string()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> Option<IpAddr> {
        Some(text.parse().unwrap())
    }

    #[test]
    fn a_strangers_failures_never_lock_the_owner_out_from_another_address() {
        let mut throttle = LoginThrottle::default();
        let now = Instant::now();
        for _ in 0..10 {
            throttle.check(ip("10.0.0.66"), "zed", 10, now).unwrap();
            throttle.failed(ip("10.0.0.66"), "zed", 10, now);
        }
        assert!(throttle.check(ip("10.0.0.66"), "zed", 10, now).is_err());
        // zed from home, and the stranger on another account, are not held back.
        throttle.check(ip("192.168.1.5"), "zed", 10, now).unwrap();
        throttle.check(ip("10.0.0.66"), "amy", 10, now).unwrap();
    }

    #[test]
    fn the_wait_doubles_with_each_failure_after_the_limit_and_a_success_clears_it() {
        let mut throttle = LoginThrottle::default();
        let peer = ip("10.0.0.66");
        let mut now = Instant::now();
        for _ in 0..3 {
            throttle.failed(peer, "zed", 3, now);
        }
        let wait = |t: &mut LoginThrottle, now| match t.check(peer, "zed", 3, now) {
            Err(Error::RateLimited { retry_after_s }) => retry_after_s,
            other => panic!("{other:?}"),
        };
        assert_eq!(wait(&mut throttle, now), 60);
        now += Duration::from_secs(61);
        throttle.check(peer, "zed", 3, now).unwrap();
        throttle.failed(peer, "zed", 3, now);
        assert_eq!(wait(&mut throttle, now), 120);
        now += Duration::from_secs(121);
        throttle.failed(peer, "zed", 3, now);
        assert_eq!(wait(&mut throttle, now), 240);
        for _ in 0..20 {
            throttle.failed(peer, "zed", 3, now);
        }
        assert_eq!(wait(&mut throttle, now), 3600, "capped at an hour");
        throttle.succeeded(peer, "zed");
        throttle.check(peer, "zed", 3, now).unwrap();
    }

    #[test]
    fn no_limits_means_no_lockout() {
        let mut throttle = LoginThrottle::default();
        let now = Instant::now();
        for _ in 0..100 {
            throttle.failed(None, "zed", u32::MAX, now);
        }
        throttle.check(None, "zed", u32::MAX, now).unwrap();
    }
}

//! Rate limits, kept in the database so that they hold across server nodes: failed logins per
//! (client address, account), per client address and per account with exponential backoff, and
//! attempts per key in fixed one-minute windows (signups per address).
//!
//! Counting failures per account alone lets anyone lock a user out (ten wrong passwords for
//! `zed` from anywhere, and `zed`'s right password is refused). Here the count belongs to the
//! pair (address, account): after `limit` failures from one address, that address waits one
//! minute before its next attempt on that account, then twice as long after each further
//! failure (up to an hour); a success clears the pair. The owner, typing the right password from
//! another address, is never held back by a stranger's failures. An address's failures on all
//! accounts together are counted too, with a higher limit: made-up userids, each failing once,
//! would otherwise never be held back (and each costs an argon2 run). Every lockout is logged as
//! abuse (`warn`), with the address and the account, never the password.
//!
//! Times are wall-clock milliseconds (nodes share no monotonic clock), without the test clock's
//! offset: moving a game's time does not unlock anyone.

use std::net::IpAddr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::error::{Error, Result};
use crate::store::limits::{self, LoginFailures};
use crate::store::Storage;

/// The first wait after `limit` failures; it doubles with each further failure.
const FIRST_WAIT: Duration = Duration::from_secs(60);
/// The longest wait.
const MAX_WAIT: Duration = Duration::from_secs(3600);
/// A pair's failures older than this no longer count.
const FORGET_AFTER: Duration = Duration::from_secs(3600);
/// The length of a counting window.
const WINDOW: Duration = Duration::from_secs(60);

fn ms(duration: Duration) -> i64 {
    duration.as_millis() as i64
}

fn wall_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// How a client address is stored (None: a connection without one, such as a test's).
fn address_key(peer: Option<IpAddr>) -> String {
    peer.map_or_else(|| "local".to_string(), |ip| ip.to_string())
}

/// The refusal of an attempt over the `limit` (counted in the metrics) until `until_ms`.
fn retry_after(limit: &'static str, until_ms: i64, now_ms: i64) -> Error {
    crate::metrics::metrics()
        .rate_limited
        .with_label_values(&[limit])
        .inc();
    Error::RateLimited {
        retry_after_s: ((until_ms - now_ms) / 1000).max(1) as u64,
    }
}

impl LoginFailures {
    /// Refuses an attempt while the pair is locked.
    fn check(&self, now_ms: i64) -> Result<()> {
        match self.locked_until_ms > now_ms {
            true => Err(retry_after("login", self.locked_until_ms, now_ms)),
            false => Ok(()),
        }
    }

    /// The record after one more failure: from the `limit`-th on, locked with a doubling wait.
    fn after_failure(previous: Option<LoginFailures>, limit: u32, now_ms: i64) -> LoginFailures {
        let failures = match previous {
            Some(p) if now_ms - p.last_failure_ms < ms(FORGET_AFTER) => p.failures + 1,
            _ => 1,
        };
        let limit = i64::from(limit.max(1));
        let locked_until_ms = match failures >= limit {
            true => {
                let doublings = (failures - limit).min(16) as u32;
                let wait = FIRST_WAIT.saturating_mul(1 << doublings).min(MAX_WAIT);
                now_ms + ms(wait)
            }
            false => 0,
        };
        LoginFailures {
            failures,
            last_failure_ms: now_ms,
            locked_until_ms,
        }
    }
}

/// How many failed logins an address may make before it waits: on one account, and on all
/// accounts together; and how many an account may take from all addresses together before the
/// addresses that never signed in to it wait. `u32::MAX` is no limit.
#[derive(Clone, Copy, Debug)]
pub struct LoginLimits {
    pub per_account: u32,
    pub per_address: u32,
    pub per_account_from_all: u32,
}

/// The address or account under which failures on all of them are counted (no userid has a
/// `*`, and no client address is one).
const ANY: &str = "*";

/// How long a sign-in keeps its address known to the account.
const KNOWN_FOR: Duration = Duration::from_secs(90 * 24 * 3600);

/// One record an attempt is counted in: the pair, and its limit.
struct Counted<'a> {
    address: &'a str,
    account: &'a str,
    limit: u32,
}

impl LoginLimits {
    /// The records an attempt from `address` on `account` counts in, those with a limit.
    fn records<'a>(&self, address: &'a str, account: &'a str) -> Vec<Counted<'a>> {
        [
            (address, account, self.per_account),
            (address, ANY, self.per_address),
            (ANY, account, self.per_account_from_all),
        ]
        .into_iter()
        .filter(|(_, _, limit)| *limit != u32::MAX)
        .map(|(address, account, limit)| Counted {
            address,
            account,
            limit,
        })
        .collect()
    }
}

/// The failed logins of each (address, account) pair, of each address and of each account, in
/// the database, and the addresses each account signed in from.
///
/// The cap on an account's failures from all addresses together (issue #28, 8: many addresses,
/// each under its own limits, could otherwise guess on for ever) must not become a way to lock
/// the owner out: when it is reached, only addresses that have not signed in to the account in
/// the last 90 days wait; an address the owner used before is let in as always.
#[derive(Clone)]
pub struct LoginThrottle {
    storage: Storage,
}

impl LoginThrottle {
    pub fn new(storage: Storage) -> LoginThrottle {
        LoginThrottle { storage }
    }

    /// Refuses an attempt from `peer` on `account` while that pair or that address is locked,
    /// or the account is and `peer` never signed in to it; returns whether the pair has
    /// failures on record (a success then clears them). One query when nothing is locked.
    pub async fn check(
        &self,
        peer: Option<IpAddr>,
        account: &str,
        allowed: LoginLimits,
    ) -> Result<bool> {
        let address = address_key(peer);
        let counted = allowed.records(&address, account);
        if counted.is_empty() {
            return Ok(false);
        }
        let pairs: Vec<(&str, &str)> = counted.iter().map(|c| (c.address, c.account)).collect();
        let mut conn = self.storage.read().await?;
        let now = wall_ms();
        let mut pair_failed = false;
        for ((key_address, key_account), record) in
            limits::login_failure_records(&mut conn, &pairs).await?
        {
            if let Err(refusal) = record.check(now) {
                let spared = key_address == ANY
                    && limits::is_known_login(&mut conn, account, &address, now - ms(KNOWN_FOR))
                        .await?;
                if !spared {
                    return Err(refusal);
                }
            }
            pair_failed |= key_address == address && key_account == account;
        }
        Ok(pair_failed)
    }

    /// Counts a failure against the pair, the address and the account; from a record's limit
    /// on, locks it with a doubling wait.
    pub async fn failed(
        &self,
        peer: Option<IpAddr>,
        account: &str,
        allowed: LoginLimits,
    ) -> Result<()> {
        let now = wall_ms();
        let address = address_key(peer);
        let mut tx = self.storage.write().await?;
        let mut locked = vec![];
        for counted in allowed.records(&address, account) {
            let (key_address, key_account) = (counted.address, counted.account);
            let previous = limits::lock_login_failures(&mut tx, key_address, key_account).await?;
            let record = LoginFailures::after_failure(previous, counted.limit, now);
            limits::set_login_failures(&mut tx, key_address, key_account, &record).await?;
            if record.locked_until_ms > now {
                locked.push((key_address, key_account, record));
            }
        }
        // Now and then, pairs nobody failed on for long are swept out.
        if rand::random::<u8>() == 0 {
            limits::forget_login_failures(&mut tx, now - ms(FORGET_AFTER)).await?;
        }
        tx.commit().await?;
        for (key_address, key_account, record) in locked {
            tracing::warn!(
                peer = ?peer,
                address = %key_address,
                user = %key_account,
                failures = record.failures,
                wait_s = (record.locked_until_ms - now) / 1000,
                "repeated failed logins: this address waits before trying this account again \
                 (address \"*\": every address that never signed in to it; user \"*\": any account)"
            );
        }
        Ok(())
    }

    /// A right password clears the pair's failures (not the address's: one account of its own
    /// must not let an address guess on at others).
    pub async fn succeeded(&self, peer: Option<IpAddr>, account: &str) -> Result<()> {
        let mut tx = self.storage.write().await?;
        limits::clear_login_failures(&mut tx, &address_key(peer), account).await?;
        tx.commit().await
    }

    /// A right password checked in full (not from the digest cache): the address becomes known
    /// to the account, and the pair's failures, if it had any, are cleared.
    pub async fn signed_in(
        &self,
        peer: Option<IpAddr>,
        account: &str,
        failed_before: bool,
    ) -> Result<()> {
        let now = wall_ms();
        let address = address_key(peer);
        let mut tx = self.storage.write().await?;
        limits::remember_login(&mut tx, account, &address, now).await?;
        if failed_before {
            limits::clear_login_failures(&mut tx, &address, account).await?;
        }
        if rand::random::<u8>() == 0 {
            limits::forget_known_logins(&mut tx, now - ms(KNOWN_FOR)).await?;
        }
        tx.commit().await
    }
}

/// Attempts per key in fixed one-minute windows, in the database.
#[derive(Clone)]
pub struct Windows {
    storage: Storage,
}

impl Windows {
    pub fn new(storage: Storage) -> Windows {
        Windows { storage }
    }

    /// Refuses when `key` already used `limit` attempts in its window.
    pub async fn check(&self, key: &str, limit: u32) -> Result<()> {
        if limit == u32::MAX {
            return Ok(());
        }
        let now = wall_ms();
        let mut conn = self.storage.read().await?;
        match limits::window(&mut conn, key).await? {
            Some((started, used)) if now - started < ms(WINDOW) && used >= i64::from(limit) => {
                Err(retry_after("window", started + ms(WINDOW), now))
            }
            _ => Ok(()),
        }
    }

    /// Counts an attempt of `key` (a new window starts when the last one is over).
    pub async fn count(&self, key: &str) -> Result<()> {
        let now = wall_ms();
        let mut tx = self.storage.write().await?;
        limits::count_in_window(&mut tx, key, now, now - ms(WINDOW)).await?;
        tx.commit().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fail_times(n: usize, limit: u32, now: i64) -> LoginFailures {
        let mut record = None;
        for _ in 0..n {
            record = Some(LoginFailures::after_failure(record, limit, now));
        }
        record.unwrap()
    }

    fn wait_s(record: &LoginFailures, now: i64) -> u64 {
        match record.check(now) {
            Err(Error::RateLimited { retry_after_s }) => retry_after_s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_wait_doubles_with_each_failure_after_the_limit_and_is_capped_at_an_hour() {
        let mut now = 1_000_000;
        let record = fail_times(2, 3, now);
        record.check(now).unwrap();
        let mut record = LoginFailures::after_failure(Some(record), 3, now);
        assert_eq!(wait_s(&record, now), 60);
        now += 61_000;
        record.check(now).unwrap();
        record = LoginFailures::after_failure(Some(record), 3, now);
        assert_eq!(wait_s(&record, now), 120);
        now += 121_000;
        record = LoginFailures::after_failure(Some(record), 3, now);
        assert_eq!(wait_s(&record, now), 240);
        for _ in 0..20 {
            record = LoginFailures::after_failure(Some(record), 3, now);
        }
        assert_eq!(wait_s(&record, now), 3600, "capped at an hour");
    }

    #[test]
    fn failures_older_than_an_hour_no_longer_count() {
        let now = 5_000_000;
        let record = fail_times(9, 10, now);
        let later = now + ms(FORGET_AFTER);
        let record = LoginFailures::after_failure(Some(record), 10, later);
        assert_eq!(record.failures, 1);
        record.check(later).unwrap();
    }
}

//! Chat people can trust: blocks (a blocked user's chat is hidden from the blocker, and their
//! challenges to the blocker are refused: `games::challenge`), reports for the moderators, and
//! mutes, which moderators set and `Games::chat` enforces on every door. A moderator is one of the
//! server's admins (`serve --admin`) or a user an admin made one.

use std::sync::Arc;

use crate::domain::accounts::{existing_user, normalize_userid};
use crate::domain::clock::Clock;
use crate::error::{Error, Result};
use crate::model::ReportRow;
use crate::store::{self, Storage};

/// The longest mute a moderator sets at once: a year.
pub const MAX_MUTE_MINUTES: i64 = 365 * 24 * 60;
/// The longest report reason, in bytes.
pub const MAX_REASON: usize = 1000;

#[derive(Clone)]
pub struct Moderation {
    storage: Storage,
    clock: Arc<Clock>,
    /// `serve --admin`, lower case.
    admins: Vec<String>,
}

impl Moderation {
    pub fn new(storage: Storage, clock: Arc<Clock>, admins: Vec<String>) -> Moderation {
        Moderation {
            storage,
            clock,
            admins,
        }
    }

    pub async fn is_moderator(&self, user: &str) -> Result<bool> {
        if self.admins.iter().any(|admin| admin == user) {
            return Ok(true);
        }
        let mut conn = self.storage.read().await?;
        store::is_moderator(&mut conn, user).await
    }

    async fn require_moderator(&self, user: &str) -> Result<()> {
        match self.is_moderator(user).await? {
            true => Ok(()),
            false => Err(Error::NotAModerator(user.to_string())),
        }
    }

    /// An admin makes `name` a moderator.
    pub async fn grant(&self, admin: &str, name: &str) -> Result<String> {
        if !self.admins.iter().any(|a| a == admin) {
            return Err(Error::Command(format!(
                "{admin} may not make moderators: only the server's admins (serve --admin) may"
            )));
        }
        let name = existing_user(&self.storage, name).await?;
        let mut tx = self.storage.write().await?;
        store::grant_moderator(&mut tx, &name, admin, self.clock.now_ms()).await?;
        tx.commit().await?;
        tracing::info!(moderator = %name, by = %admin, "moderator granted");
        Ok(name)
    }

    /// A moderator mutes `name` for `minutes`; returns when the mute ends (ms).
    pub async fn mute(
        &self,
        moderator: &str,
        name: &str,
        minutes: i64,
        reason: &str,
    ) -> Result<i64> {
        self.require_moderator(moderator).await?;
        if !(1..=MAX_MUTE_MINUTES).contains(&minutes) {
            return Err(Error::Command(format!(
                "a mute lasts 1 to {MAX_MUTE_MINUTES} minutes, not {minutes}"
            )));
        }
        let name = existing_user(&self.storage, name).await?;
        let now = self.clock.now_ms();
        let until_ms = now + minutes * 60_000;
        let mut tx = self.storage.write().await?;
        store::mute(&mut tx, &name, until_ms, moderator, reason.trim(), now).await?;
        tx.commit().await?;
        tracing::info!(user = %name, by = %moderator, minutes, "muted");
        Ok(until_ms)
    }

    pub async fn block(&self, user: &str, other: &str) -> Result<String> {
        let other = existing_user(&self.storage, other).await?;
        if other == user {
            return Err(Error::Command("you cannot block yourself".into()));
        }
        let mut tx = self.storage.write().await?;
        store::block(&mut tx, user, &other, self.clock.now_ms()).await?;
        tx.commit().await?;
        Ok(other)
    }

    pub async fn unblock(&self, user: &str, other: &str) -> Result<()> {
        let other = normalize_userid(other)?;
        let mut tx = self.storage.write().await?;
        store::unblock(&mut tx, user, &other).await?;
        tx.commit().await
    }

    /// The users `user` blocked.
    pub async fn blocks(&self, user: &str) -> Result<Vec<String>> {
        let mut conn = self.storage.read().await?;
        store::blocked_by(&mut conn, user).await
    }

    /// `reporter` reports `reported` (on `board`, when named); returns the stored report.
    pub async fn report(
        &self,
        reporter: &str,
        reported: &str,
        board: Option<i64>,
        reason: &str,
    ) -> Result<ReportRow> {
        let reported = existing_user(&self.storage, reported).await?;
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(Error::Command("a report says what happened".into()));
        }
        if reason.len() > MAX_REASON {
            return Err(Error::TooLong {
                what: "a report",
                max: MAX_REASON,
            });
        }
        let mut report = ReportRow {
            id: 0,
            reporter: reporter.to_string(),
            reported,
            board,
            reason: reason.to_string(),
            at_ms: self.clock.now_ms(),
        };
        let mut tx = self.storage.write().await?;
        report.id = store::insert_report(&mut tx, &report).await?;
        tx.commit().await?;
        Ok(report)
    }

    /// Every report, newest first, for a moderator.
    pub async fn reports(&self, moderator: &str) -> Result<Vec<ReportRow>> {
        self.require_moderator(moderator).await?;
        let mut conn = self.storage.read().await?;
        store::reports(&mut conn).await
    }
}

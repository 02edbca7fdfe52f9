//! Admin without SQL (issue #35): the server's admins (`serve --admin`) ban and unban users,
//! close accounts, mark cheaters and abort stuck games, and every act is written to the admin
//! log in the same transaction as the act itself.
//!
//! What each act does:
//! - `ban`: the user can no longer sign in on any door ([`Accounts::verify`] refuses them), their
//!   sessions end, their open challenges are withdrawn or declined, their seeks withdrawn, and
//!   nobody can challenge them. Their games in play go on: their clocks run, and they lose them
//!   on time (a correspondence game at its forfeit time).
//! - `unban`: undoes the ban; nothing withdrawn comes back.
//! - `close`: the account is closed as if its owner closed it (`signoff`): no sign-in ever again,
//!   games in play resigned (cancelled before a first move), challenges and seeks withdrawn.
//! - `cheater`: the user's games from now on are unrated, and the leaderboards leave them out.
//!   Past results and ratings stay as they were (no refunds to their opponents).
//! - `abort`: an open board ends with no result, unrated (a stuck game, a bad challenge).
//! - `reset`: mails the user a password reset token, as their own request would (issue #49):
//!   the admin never sets or learns a password.

use std::sync::Arc;

use crate::domain::accounts::{existing_user, Accounts, ResetMail, ResetMailed};
use crate::domain::clock::Clock;
use crate::domain::games::{Games, Leaving, LeftBoards};
use crate::domain::moderation::MAX_REASON;
use crate::domain::outbox::Sender;
use crate::domain::seeks::Seeks;
use crate::error::{Error, Result};
use crate::model::{AdminAct, GameSummary};
use crate::store::{self, Mark, Storage, WriteTx};

/// How many acts the admin log shows at most.
pub const LOG_LIMIT: i64 = 1000;

/// What a ban or a closed account withdrew.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Shut {
    pub user: String,
    /// The boards it left (a ban leaves only challenges).
    pub boards: LeftBoards,
    /// The seeks withdrawn.
    pub seeks: Vec<i64>,
}

#[derive(Clone)]
pub struct Admin {
    storage: Storage,
    clock: Arc<Clock>,
    accounts: Accounts,
    games: Games,
    seeks: Seeks,
    /// `serve --admin`, lower case.
    admins: Vec<String>,
    /// `serve --admin-2fa`: an admin acts only with a second factor on.
    second_factor_required: bool,
}

impl Admin {
    pub fn new(
        storage: Storage,
        clock: Arc<Clock>,
        accounts: Accounts,
        games: Games,
        seeks: Seeks,
        admins: Vec<String>,
        second_factor_required: bool,
    ) -> Admin {
        Admin {
            storage,
            clock,
            accounts,
            games,
            seeks,
            admins,
            second_factor_required,
        }
    }

    pub fn is_admin(&self, user: &str) -> bool {
        self.admins.iter().any(|admin| admin == user)
    }

    /// Refuses a user who is not an admin, and with `--admin-2fa` an admin whose second factor
    /// is off.
    async fn require_admin(&self, user: &str) -> Result<()> {
        if !self.is_admin(user) {
            return Err(Error::NotAnAdmin(user.to_string()));
        }
        if self.second_factor_required && !self.accounts.has_second_factor(user).await? {
            return Err(Error::Command(format!(
                "{user} must turn on a second factor (TOTP) before using admin powers on this \
                 server (serve --admin-2fa): POST /api/totp, then /api/totp/confirm with a code"
            )));
        }
        Ok(())
    }

    /// Checks the admin and the reason, and opens the transaction that will hold the act and
    /// its log entry.
    async fn begin(&self, admin: &str, act: &str, target: &str, reason: &str) -> Result<WriteTx> {
        self.require_admin(admin).await?;
        let reason = reason.trim();
        if reason.len() > MAX_REASON {
            return Err(Error::TooLong {
                what: "an admin's reason",
                max: MAX_REASON,
            });
        }
        let mut tx = self.storage.write().await?;
        let entry = AdminAct {
            id: 0,
            at_ms: self.clock.now_ms(),
            admin: admin.to_string(),
            act: act.to_string(),
            target: target.to_string(),
            reason: reason.to_string(),
        };
        store::insert_admin_act(&mut tx, &entry).await?;
        tracing::info!(%admin, act, target, reason, "admin act");
        Ok(tx)
    }

    /// The existing user `name` whom `admin` acts against, refused (`why` says why) when
    /// an admin. The admin is checked first: whether someone is an admin is told to admins only.
    async fn non_admin_target(&self, admin: &str, name: &str, why: &str) -> Result<String> {
        self.require_admin(admin).await?;
        let name = existing_user(&self.storage, name).await?;
        if self.is_admin(&name) {
            return Err(Error::Command(format!(
                "{name} is one of the server's admins: {why}"
            )));
        }
        Ok(name)
    }

    /// Bans `name`: see the module's description.
    pub async fn ban(&self, admin: &str, name: &str, reason: &str) -> Result<Shut> {
        let name = self
            .non_admin_target(admin, name, "an admin is not banned")
            .await?;
        let mut tx = self.begin(admin, "ban", &name, reason).await?;
        store::set_mark(
            &mut tx,
            Mark::Banned,
            &name,
            admin,
            reason.trim(),
            self.clock.now_ms(),
        )
        .await?;
        self.accounts.end_sessions_in(tx, &name).await?;
        self.withdraw(name, Leaving::Challenges).await
    }

    pub async fn unban(&self, admin: &str, name: &str, reason: &str) -> Result<String> {
        let name = existing_user(&self.storage, name).await?;
        let mut tx = self.begin(admin, "unban", &name, reason).await?;
        if !store::clear_mark(&mut tx, Mark::Banned, &name).await? {
            return Err(Error::Command(format!("{name} is not banned")));
        }
        tx.commit().await?;
        Ok(name)
    }

    /// Closes `name`'s account: see the module's description.
    pub async fn close(&self, admin: &str, name: &str, reason: &str) -> Result<Shut> {
        let name = self
            .non_admin_target(admin, name, "remove the --admin first")
            .await?;
        let tx = self.begin(admin, "close", &name, reason).await?;
        self.accounts.close_in(tx, &name).await?;
        self.withdraw(name, Leaving::Everything).await
    }

    /// Leaves the boards of a banned or closed user and withdraws their seeks.
    async fn withdraw(&self, user: String, leaving: Leaving) -> Result<Shut> {
        let boards = self.games.leave_all(&user, leaving).await?;
        let seeks = self.seeks.withdraw_all(&user, None).await?;
        Ok(Shut {
            user,
            boards,
            seeks,
        })
    }

    /// Marks `name` as a cheater (`on`) or takes the mark away.
    pub async fn cheater(&self, admin: &str, name: &str, on: bool, reason: &str) -> Result<String> {
        let name = existing_user(&self.storage, name).await?;
        let act = match on {
            true => "cheater",
            false => "uncheater",
        };
        let mut tx = self.begin(admin, act, &name, reason).await?;
        match on {
            true => {
                store::set_mark(
                    &mut tx,
                    Mark::Cheater,
                    &name,
                    admin,
                    reason.trim(),
                    self.clock.now_ms(),
                )
                .await?
            }
            false => {
                if !store::clear_mark(&mut tx, Mark::Cheater, &name).await? {
                    return Err(Error::Command(format!("{name} is not marked as a cheater")));
                }
            }
        }
        tx.commit().await?;
        Ok(name)
    }

    /// Aborts board `board`: it ends with no result, unrated.
    pub async fn abort(&self, admin: &str, board: i64, reason: &str) -> Result<GameSummary> {
        let tx = self
            .begin(admin, "abort", &board.to_string(), reason)
            .await?;
        let why = match reason.trim() {
            "" => format!("aborted by {admin}"),
            reason => format!("aborted by {admin}: {reason}"),
        };
        self.games.abort(tx, board, &why).await
    }

    /// Mails `name` a password reset token (to their confirmed addresses, within the throttles
    /// of [`Accounts::mail_reset_in`]); the act is logged whether or not a mail could go.
    pub async fn send_reset(
        &self,
        admin: &str,
        name: &str,
        reason: &str,
        sender: &Sender<'_>,
        compose: ResetMail<'_>,
    ) -> Result<ResetMailed> {
        self.require_admin(admin).await?;
        let name = existing_user(&self.storage, name).await?;
        let tx = self.begin(admin, "reset", &name, reason).await?;
        self.accounts
            .mail_reset_in(tx, &name, sender, compose)
            .await
    }

    /// The admin log, newest first.
    pub async fn log(&self, admin: &str) -> Result<Vec<AdminAct>> {
        self.require_admin(admin).await?;
        let mut conn = self.storage.read().await?;
        store::admin_log(&mut conn, LOG_LIMIT).await
    }
}

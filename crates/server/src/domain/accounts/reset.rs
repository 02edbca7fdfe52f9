//! Password resets (issue #49): a forgotten password is replaced through a single-use token
//! mailed to the account's confirmed addresses (the `addresses` column holds only confirmed
//! ones where the server sends mail: new ones wait in `address_requests`, each for its own
//! token).
//!
//! - The token is 32 random bytes in hex; only its SHA-256 digest is stored, and it opens one
//!   reset within [`RESET_MS`]. Using it marks every token of the account used, sets the new
//!   password and ends every session of the account on every node (as a password change does).
//! - A request is answered the same whether or not the account exists, is closed or has a
//!   confirmed address: the door says "if that account has a confirmed address, a reset mail is
//!   on its way" in every case.
//! - Throttles: requests per client address per minute ([`RateLimits::resets_per_minute`],
//!   refused with a wait, whatever the account, so the refusal tells nothing of it); at most
//!   [`RESETS_PER_ACCOUNT_PER_HOUR`] tokens per account and [`RESET_MAILS_PER_ADDRESS_PER_HOUR`]
//!   reset mails per address an hour, beyond which nothing is mailed and the answer stays the
//!   same.
//!
//! [`RateLimits::resets_per_minute`]: super::RateLimits

use rand::Rng;

use super::sessions::{hex, token_hash};
use super::{is_closed, normalize_userid, Accounts};
use crate::domain::outbox::{self, Outgoing, Sender};
use crate::error::{Error, Result};
use crate::store::{self, mail as mail_store, WriteTx};

/// How long a reset token is good for: an hour.
pub const RESET_MS: i64 = 3600 * 1000;
/// Reset tokens one account is sent in an hour.
pub const RESETS_PER_ACCOUNT_PER_HOUR: i64 = 3;
/// Reset mails one address takes in an hour.
pub const RESET_MAILS_PER_ADDRESS_PER_HOUR: i64 = 3;
const HOUR_MS: i64 = 3600 * 1000;
/// Used and expired tokens are kept this long, for the count per account.
const KEEP_MS: i64 = 24 * HOUR_MS;
/// The outbox kind of a reset mail (its body is blanked once the relay took it).
pub const RESET_KIND: &str = "reset";

/// Composes the mail that carries a reset token: given the account and the token.
pub type ResetMail<'a> = &'a (dyn Fn(&str, &str) -> Outgoing + Send + Sync);

/// What a reset request did: told to admins and the log, never to whoever asked.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct ResetMailed {
    /// The account named, when it exists.
    pub user: Option<String>,
    /// The addresses the token went to (none: no confirmed address, a closed account, or over
    /// a throttle).
    pub addresses: Vec<String>,
}

/// The refusal of a token that opens no reset.
fn no_such_token() -> Error {
    Error::Command(
        "that reset token is unknown, used or expired: ask for a new reset mail".to_string(),
    )
}

impl Accounts {
    /// A reset asked for by anyone: `who` is a userid or one of an account's addresses. Counted
    /// against the client address first, so that a refusal tells nothing of the account.
    pub async fn request_reset(
        &self,
        who: &str,
        sender: &Sender<'_>,
        compose: ResetMail<'_>,
    ) -> Result<ResetMailed> {
        let key = format!(
            "reset:{}",
            self.peer.map_or("local".to_string(), |ip| ip.to_string())
        );
        self.windows
            .check(&key, self.limits.resets_per_minute)
            .await?;
        if self.limits.resets_per_minute != u32::MAX {
            self.windows.count(&key).await?;
        }
        let who = who.trim();
        let name = match who.contains('@') {
            true => {
                let mut conn = self.storage.read().await?;
                mail_store::user_by_address(&mut conn, who).await?
            }
            false => normalize_userid(who).ok(),
        };
        let Some(name) = name else {
            tracing::info!(peer = ?self.peer, "password reset asked for no account");
            return Ok(ResetMailed::default());
        };
        let tx = self.storage.write().await?;
        self.mail_reset_in(tx, &name, sender, compose).await
    }

    /// Mails a new reset token of `name` to its confirmed addresses, in `tx` (which may hold
    /// more of the same change: an admin's log entry), and commits it. Nothing is mailed to a
    /// closed account, a computer player, or over the throttles.
    pub async fn mail_reset_in(
        &self,
        mut tx: WriteTx,
        name: &str,
        sender: &Sender<'_>,
        compose: ResetMail<'_>,
    ) -> Result<ResetMailed> {
        let now = self.clock.now_ms();
        let mailed = self.reset_recipients(&mut tx, name, now).await?;
        if !mailed.addresses.is_empty() {
            let user = mailed
                .user
                .as_deref()
                .expect("an account has the addresses");
            let token = hex(&rand::rng().random::<[u8; 32]>());
            store::forget_resets(&mut tx, now - KEEP_MS).await?;
            store::insert_reset(&mut tx, &token_hash(&token), user, now, now + RESET_MS).await?;
            let mail = Outgoing {
                kind: RESET_KIND.into(),
                ..compose(user, &token)
            };
            outbox::queue(&mut tx, sender, &mailed.addresses, &mail).await?;
            tracing::info!(%user, peer = ?self.peer, "password reset mailed");
        }
        tx.commit().await?;
        Ok(mailed)
    }

    /// The account `name` and the addresses a reset token of it may go to now.
    async fn reset_recipients(
        &self,
        tx: &mut WriteTx,
        name: &str,
        now: i64,
    ) -> Result<ResetMailed> {
        let since = now - HOUR_MS;
        let Some(user) = store::user(tx, name).await? else {
            tracing::info!(peer = ?self.peer, "password reset asked for no account");
            return Ok(ResetMailed::default());
        };
        let mut mailed = ResetMailed {
            user: Some(user.name.clone()),
            addresses: vec![],
        };
        if is_closed(&user) || user.bot_level.is_some() {
            return Ok(mailed);
        }
        if store::resets_since(tx, &user.name, since).await? >= RESETS_PER_ACCOUNT_PER_HOUR {
            tracing::warn!(user = %user.name, peer = ?self.peer,
                "password reset not mailed: the account had its resets this hour");
            return Ok(mailed);
        }
        for address in user.addresses.split_whitespace() {
            let had = mail_store::outbox_count_since(tx, address, RESET_KIND, since).await?;
            match had < RESET_MAILS_PER_ADDRESS_PER_HOUR {
                true => mailed.addresses.push(address.to_string()),
                false => tracing::warn!(user = %user.name, %address,
                    "password reset not mailed to an address that had its resets this hour"),
            }
        }
        Ok(mailed)
    }

    /// Sets a new password with a mailed token; returns the account. Every session of the
    /// account ends, on every node, and every other token of it is spent.
    pub async fn reset_password(&self, token: &str, new: &str) -> Result<String> {
        let token = token.trim();
        if token.is_empty() || token.len() > 128 {
            return Err(no_such_token());
        }
        super::check_password(new)?;
        let digest = token_hash(token);
        let now = self.clock.now_ms();
        {
            let mut conn = self.storage.read().await?;
            if store::reset_user(&mut conn, &digest, now).await?.is_none() {
                return Err(no_such_token());
            }
        }
        let new = new.to_string();
        let hash = self
            .argon2
            .run(move || super::passwords::hash_password(&new))
            .await?;
        let mut tx = self.storage.write().await?;
        // Taken in the write: of two uses at once, on any nodes, one finds it spent.
        let name = store::take_reset(&mut tx, &digest, now)
            .await?
            .ok_or_else(no_such_token)?;
        if store::user(&mut tx, &name)
            .await?
            .is_none_or(|user| is_closed(&user))
        {
            return Err(Error::Command(format!(
                "the account {name} is closed: its password cannot be reset"
            )));
        }
        store::set_password_hash(&mut tx, &name, &hash).await?;
        self.end_sessions_in(tx, &name).await?;
        tracing::info!(user = %name, peer = ?self.peer, "password reset");
        Ok(name)
    }
}

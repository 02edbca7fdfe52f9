//! Accounts: signup, passwords (argon2id), sessions with bearer tokens, rate limits.
//!
//! Passwords are hashed with argon2id and never stored or logged in clear. The pbmserv language
//! types the password in every command, so a successful check is remembered in memory as a keyed
//! SHA-256 digest (the key is random per process): later commands by the same user cost a digest,
//! not an argon2 run. Changing or closing the account forgets it.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use rand::Rng;

use crate::domain::clock::Clock;
use crate::domain::gate::Gate;
use crate::error::{Error, Result};
use crate::events::Publisher;
pub use crate::model::Revocation;
use crate::model::UserRow;
use crate::store::{self, Storage};

mod api_tokens;
mod bot_accounts;
pub use bot_accounts::{bot_account_name, engine_bots, ENGINE_BOT};
mod challenge_policy;
pub use api_tokens::is_api_token;
mod limits;
pub use limits::RateLimits;
mod passwords;
pub use passwords::check_password;
use passwords::{hash_password, Verified, VerifiedFrom, NO_LOGIN};
mod reset;
mod sessions;
pub(crate) use sessions::{hex, token_hash};
mod totp;
pub use reset::{ResetMail, ResetMailed};
pub use totp::split_code;

/// The longest userid.
pub const MAX_USERID: usize = 32;
/// The prefix reserved for the computer players' accounts.
pub const BOT_PREFIX: &str = "bot-";
/// The mail addresses one account may list (issue #50: one signup named 500).
pub const ADDRESSES_PER_ACCOUNT_MAX: usize = 3;

/// The addresses of a signup or `change address`, each once (addresses are compared without
/// case), at most [`ADDRESSES_PER_ACCOUNT_MAX`] of them.
pub fn address_list(addresses: &[String]) -> Result<Vec<String>> {
    let mut list: Vec<String> = vec![];
    for address in addresses {
        if !list.iter().any(|a| a.eq_ignore_ascii_case(address)) {
            list.push(address.clone());
        }
    }
    if list.len() > ADDRESSES_PER_ACCOUNT_MAX {
        return Err(Error::Command(format!(
            "an account has at most {ADDRESSES_PER_ACCOUNT_MAX} mail addresses, not {}",
            list.len()
        )));
    }
    Ok(list)
}

/// The account service.
#[derive(Clone)]
pub struct Accounts {
    storage: Storage,
    clock: Arc<Clock>,
    limits: RateLimits,
    windows: crate::domain::throttle::Windows,
    logins: crate::domain::throttle::LoginThrottle,
    /// Bounds the argon2 runs at once (each takes 19 MiB), whatever asks for them.
    argon2: Gate,
    /// The client address of the request this handle serves (see [`Accounts::for_peer`]).
    peer: Option<IpAddr>,
    /// Announces ended sessions to open WebSockets, of every node (through the hub).
    publisher: Publisher,
    /// (userid, client address) -> (stored hash, keyed digest of the password last verified
    /// against it). The stored hash is read every time, so a password changed on another node
    /// voids the entry. Per address, so that a new address checks the password in full once and
    /// so becomes known to the account (throttle.rs).
    verified: Arc<Mutex<HashMap<VerifiedFrom, Verified>>>,
    cache_key: [u8; 32],
}

/// The stored name of the user `name` names, or the refusal for one that does not exist.
pub async fn existing_user(storage: &Storage, name: &str) -> Result<String> {
    let name = normalize_userid(name)?;
    let mut conn = storage.read().await?;
    match store::user(&mut conn, &name).await? {
        Some(user) => Ok(user.name),
        None => Err(Error::UnknownUser(name)),
    }
}

/// Checks a userid: 1 to 32 characters from letters, digits, `_`, `.`, `-`, starting with a
/// letter or digit. Userids are case-insensitive and stored in lower case.
pub fn normalize_userid(userid: &str) -> Result<String> {
    let invalid = |reason| Error::InvalidUserid {
        userid: userid.chars().take(40).collect(),
        reason,
    };
    if userid.is_empty() || userid.len() > MAX_USERID {
        return Err(invalid("a userid has 1 to 32 characters"));
    }
    if !userid
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
    {
        return Err(invalid(
            "a userid has only letters, digits, '_', '.' and '-'",
        ));
    }
    if !userid.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(invalid("a userid starts with a letter or digit"));
    }
    Ok(userid.to_ascii_lowercase())
}

/// Whether a person's account was closed (`signoff`): it can no longer log in. Computer
/// players never log in, but their accounts are open.
pub fn is_closed(user: &UserRow) -> bool {
    user.password_hash == NO_LOGIN && user.bot_level.is_none()
}

impl Accounts {
    pub fn new(
        storage: Storage,
        clock: Arc<Clock>,
        limits: RateLimits,
        publisher: Publisher,
    ) -> Accounts {
        Accounts {
            windows: crate::domain::throttle::Windows::new(storage.clone()),
            logins: crate::domain::throttle::LoginThrottle::new(storage.clone()),
            argon2: Gate::by_cores("password checks", 1, 16),
            storage,
            clock,
            limits,
            peer: None,
            publisher,
            verified: Arc::default(),
            cache_key: rand::rng().random(),
        }
    }

    /// The same service, counting failed logins against `peer` (the client's address).
    pub fn for_peer(&self, peer: Option<IpAddr>) -> Accounts {
        Accounts {
            peer,
            ..self.clone()
        }
    }

    /// Creates an account. `peer` is the client address the signup limit counts by.
    pub async fn signup(
        &self,
        userid: &str,
        password: &str,
        addresses: &[String],
        peer: Option<IpAddr>,
    ) -> Result<UserRow> {
        let name = normalize_userid(userid)?;
        if name.starts_with(BOT_PREFIX) {
            return Err(Error::InvalidUserid {
                userid: userid.to_string(),
                reason: "userids starting with \"bot-\" belong to the computer players",
            });
        }
        check_password(password)?;
        let addresses = address_list(addresses)?;
        let key = format!(
            "signup:{}",
            peer.map_or("local".to_string(), |ip| ip.to_string())
        );
        self.windows
            .check(&key, self.limits.signups_per_minute)
            .await?;
        let password = password.to_string();
        let hash = self.argon2.run(move || hash_password(&password)).await?;
        let user = UserRow {
            addresses: addresses.join(" "),
            ..self.new_user(name, hash)
        };
        let mut tx = self.storage.write().await?;
        if store::user(&mut tx, &user.name).await?.is_some() {
            return Err(Error::UserExists(user.name));
        }
        store::insert_user(&mut tx, &user).await?;
        tx.commit().await?;
        if self.limits.signups_per_minute != u32::MAX {
            self.windows.count(&key).await?;
        }
        tracing::info!(user = %user.name, "signup");
        Ok(user)
    }

    fn new_user(&self, name: String, password_hash: String) -> UserRow {
        UserRow {
            name,
            password_hash,
            addresses: String::new(),
            bot_level: None,
            refuses_challenges: false,
            game_limit: None,
            created_ms: self.clock.now_ms(),
        }
    }

    /// Creates the account of a computer player if it does not exist yet.
    pub async fn ensure_bot(&self, name: &str, level: &str) -> Result<()> {
        let mut tx = self.storage.write().await?;
        if store::user(&mut tx, name).await?.is_none() {
            let user = UserRow {
                bot_level: Some(level.to_string()),
                ..self.new_user(name.to_string(), NO_LOGIN.to_string())
            };
            if let Err(err) = store::insert_user(&mut tx, &user).await {
                // Another node starting at the same moment made it.
                drop(tx);
                let mut conn = self.storage.read().await?;
                return match store::user(&mut conn, name).await? {
                    Some(_) => Ok(()),
                    None => Err(err),
                };
            }
        }
        tx.commit().await
    }

    /// Replaces `userid`'s mail addresses, given the password.
    pub async fn change_addresses(
        &self,
        userid: &str,
        password: &str,
        addresses: &[String],
    ) -> Result<()> {
        let addresses = address_list(addresses)?;
        let name = self.verify(userid, password).await?;
        let mut tx = self.storage.write().await?;
        store::set_addresses(&mut tx, &name, &addresses.join(" ")).await?;
        tx.commit().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_userid_is_lower_case_letters_digits_and_few_marks() {
        assert_eq!(normalize_userid("Alice").unwrap(), "alice");
        assert!(normalize_userid("al:ice").is_err());
        assert!(normalize_userid("").is_err());
    }

    #[test]
    fn an_account_lists_each_address_once_and_at_most_three() {
        let list = |l: &[&str]| address_list(&l.iter().map(|a| a.to_string()).collect::<Vec<_>>());
        assert_eq!(
            list(&["a@x.test", "A@X.test", "b@x.test"]).unwrap(),
            ["a@x.test", "b@x.test"]
        );
        assert!(list(&["a@x", "b@x", "c@x"]).is_ok());
        assert!(list(&["a@x", "b@x", "c@x", "d@x"]).is_err());
    }
}

//! Accounts: signup, passwords (argon2id), sessions with bearer tokens, rate limits.
//!
//! Passwords are hashed with argon2id and never stored or logged in clear. The pbmserv language
//! types the password in every command, so a successful check is remembered in memory as a keyed
//! SHA-256 digest (the key is random per process): later commands by the same user cost a digest,
//! not an argon2 run. Changing or closing the account forgets it.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, OnceLock};

use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;
use rand::Rng;
use sha2::{Digest, Sha256};

use crate::domain::clock::Clock;
use crate::domain::gate::Gate;
use crate::domain::throttle::LoginLimits;
use crate::error::{Error, Result};
use crate::events::Publisher;
pub use crate::model::Revocation;
use crate::model::UserRow;
use crate::store::{self, Storage, WriteTx};

mod api_tokens;
pub use api_tokens::{is_api_token, MAX_LABEL, MAX_TOKENS, TOKEN_PREFIX};
mod reset;
mod totp;
pub use reset::{ResetMail, ResetMailed};
pub use totp::{code as totp_code, split_code, TotpSetup};

/// Sessions last 30 days.
const SESSION_MS: i64 = 30 * 24 * 3600 * 1000;
/// The longest userid and password.
pub const MAX_USERID: usize = 32;
pub const MAX_PASSWORD: usize = 128;
/// The shortest password: eight, the floor NIST SP 800-63B sets for passwords people choose
/// (each login is argon2-checked and failures are counted, so length is what guessing meets).
pub const MIN_PASSWORD: usize = 8;
/// The prefix reserved for the computer players' accounts.
pub const BOT_PREFIX: &str = "bot-";
/// A password hash no password matches (bot accounts cannot log in).
const NO_LOGIN: &str = "!";

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

/// A stored password hash and the keyed digest of the password last verified against it.
type Verified = (String, [u8; 32]);
/// A user and the client address a password was verified from.
type VerifiedFrom = (String, Option<IpAddr>);

/// A right password: whose, and what the sign-in checks next.
struct PasswordChecked {
    name: String,
    banned: bool,
    second_factor: bool,
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
    /// The client address of the request this handle serves (see [`Accounts::from_peer`]).
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
///
/// ```
/// use ataxx_server::domain::accounts::normalize_userid;
/// assert_eq!(normalize_userid("Alice").unwrap(), "alice");
/// assert!(normalize_userid("al:ice").is_err());
/// assert!(normalize_userid("").is_err());
/// ```
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

/// Checks a new password (signup and change, on every door): 8 to 128 characters, no spaces,
/// quotes or colons (pbmserv's rule, so that it can be typed in a command line).
pub fn check_password(password: &str) -> Result<()> {
    // Characters, not bytes: the limits are the ones the message and the API document state.
    let length = password.chars().count();
    if length < MIN_PASSWORD {
        return Err(Error::InvalidPassword(
            "a password has at least 8 characters",
        ));
    }
    if length > MAX_PASSWORD {
        return Err(Error::InvalidPassword(
            "a password has at most 128 characters",
        ));
    }
    if password
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | ':'))
    {
        return Err(Error::InvalidPassword(
            "a password has no spaces, quotes or colons",
        ));
    }
    Ok(())
}

/// Whether a person's account was closed (`signoff`): it can no longer log in. Computer
/// players never log in, but their accounts are open.
pub fn is_closed(user: &UserRow) -> bool {
    user.password_hash == NO_LOGIN && user.bot_level.is_none()
}

fn hash_password(password: &str) -> String {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2 hashes any password with default parameters")
        .to_string()
}

/// Checks a password against a stored hash; an unknown user is checked against a fixed hash so
/// that both failures take as long.
fn password_matches(password: &str, stored: Option<&str>) -> bool {
    static DECOY: OnceLock<String> = OnceLock::new();
    let decoy = DECOY.get_or_init(|| hash_password("decoy-password"));
    let (hash, known) = match stored {
        Some(hash) if hash != NO_LOGIN => (hash, true),
        _ => (decoy.as_str(), false),
    };
    let Ok(parsed) = PasswordHash::new(hash) else {
        return false;
    };
    let matches = Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok();
    matches && known
}

fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
    pub fn from_peer(&self, peer: Option<IpAddr>) -> Accounts {
        Accounts {
            peer,
            ..self.clone()
        }
    }

    /// Ended sessions: a password change or closed account ends all of a user's, a logout one.
    pub fn revocations(&self) -> tokio::sync::broadcast::Receiver<Revocation> {
        self.publisher.hub().revocations()
    }

    /// Commits `tx`, which ended sessions of `user` (all, or the one of `token`), and tells the
    /// sockets of every node.
    async fn commit_revocation(&self, tx: WriteTx, user: &str, token: Option<&str>) -> Result<()> {
        let revocation = Revocation {
            user: user.to_string(),
            token_hash: token.map(token_hash),
        };
        crate::domain::publish::commit_revocation(&self.publisher, tx, revocation).await
    }

    fn digest(&self, password: &str) -> [u8; 32] {
        let mut hasher = Sha256::new();
        hasher.update(self.cache_key);
        hasher.update(password.as_bytes());
        hasher.finalize().into()
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

    /// Checks a userid and password; returns the stored (lower-case) userid. Failures are
    /// throttled per (client address, userid), so a stranger's failures never lock the owner
    /// out from another address, and per account from all addresses, which holds back only
    /// addresses that never signed in to it.
    ///
    /// A banned user's right password is refused with [`Error::Banned`] (every door signs in
    /// here, so a ban shuts them all); a wrong one with [`Error::Auth`], as for anyone.
    ///
    /// A user with a second factor on gives its code after the password and a colon
    /// (`PASSWORD:CODE`), the command language's one word for both (see `accounts/totp.rs`).
    pub async fn verify(&self, userid: &str, password: &str) -> Result<String> {
        let (password, code) = split_code(password);
        self.verify_with_code(userid, password, code).await
    }

    /// [`Accounts::verify`] with the second factor's code apart (the HTTP login).
    pub async fn verify_with_code(
        &self,
        userid: &str,
        password: &str,
        code: Option<&str>,
    ) -> Result<String> {
        let checked = self.verify_password(userid, password).await?;
        if checked.banned {
            return Err(Error::Banned(checked.name));
        }
        if checked.second_factor {
            self.second_factor(&checked.name, code).await?;
        }
        Ok(checked.name)
    }

    fn login_limits(&self) -> LoginLimits {
        LoginLimits {
            per_account: self.limits.failures_per_minute,
            per_address: self.limits.failures_per_address,
            per_account_from_all: self.limits.failures_per_account,
        }
    }

    /// Checks the password; returns the stored userid, whether that user is banned and whether
    /// a second factor is on.
    async fn verify_password(&self, userid: &str, password: &str) -> Result<PasswordChecked> {
        let name = normalize_userid(userid).map_err(|_| Error::Auth)?;
        let limit = self.login_limits();
        let failed_before = self.logins.check(self.peer, &name, limit).await?;
        let digest = self.digest(password);
        let (stored, banned, second_factor) = {
            let mut conn = self.storage.read().await?;
            match store::sign_in_record(&mut conn, &name).await? {
                Some(record) => (
                    Some(record.password_hash),
                    record.banned,
                    record.second_factor,
                ),
                None => (None, false, false),
            }
        };
        let passed = |name| PasswordChecked {
            name,
            banned,
            second_factor,
        };
        let cached = stored.as_ref().is_some_and(|hash| {
            self.verified
                .lock()
                .expect("credential cache")
                .get(&(name.clone(), self.peer))
                == Some(&(hash.clone(), digest))
        });
        if cached {
            if failed_before {
                self.logins.succeeded(self.peer, &name).await?;
            }
            return Ok(passed(name));
        }
        let password = password.to_string();
        let checked = stored.clone();
        let ok = self
            .argon2
            .run(move || password_matches(&password, checked.as_deref()))
            .await?;
        if !ok {
            crate::metrics::metrics().failed_logins.inc();
            self.logins.failed(self.peer, &name, limit).await?;
            tracing::info!(user = %name, peer = ?self.peer, "authentication failed");
            return Err(Error::Auth);
        }
        self.logins
            .signed_in(self.peer, &name, failed_before)
            .await?;
        if let Some(hash) = stored {
            self.verified
                .lock()
                .expect("credential cache")
                .insert((name.clone(), self.peer), (hash, digest));
        }
        Ok(passed(name))
    }

    fn forget(&self, name: &str) {
        self.verified
            .lock()
            .expect("credential cache")
            .retain(|(user, _), _| user != name);
    }

    pub async fn change_password(&self, userid: &str, current: &str, new: &str) -> Result<()> {
        let name = self.verify(userid, current).await?;
        check_password(new)?;
        let new = new.to_string();
        let hash = self.argon2.run(move || hash_password(&new)).await?;
        let mut tx = self.storage.write().await?;
        store::set_password_hash(&mut tx, &name, &hash).await?;
        store::delete_sessions_of(&mut tx, &name).await?;
        self.commit_revocation(tx, &name, None).await?;
        self.forget(&name);
        Ok(())
    }

    pub async fn change_addresses(
        &self,
        userid: &str,
        password: &str,
        addresses: &[String],
    ) -> Result<()> {
        let name = self.verify(userid, password).await?;
        let mut tx = self.storage.write().await?;
        store::set_addresses(&mut tx, &name, &addresses.join(" ")).await?;
        tx.commit().await
    }

    /// Closes an account (`signoff`, `delete`): it can no longer log in; the userid stays taken
    /// so that its games keep their names.
    pub async fn close(&self, userid: &str, password: &str) -> Result<String> {
        let name = self.verify(userid, password).await?;
        let tx = self.storage.write().await?;
        self.close_in(tx, &name).await?;
        Ok(name)
    }

    /// Closes `name`'s account in `tx` (which may hold more of the same change, such as an
    /// admin's log entry) and commits it, ending its sessions.
    pub async fn close_in(&self, mut tx: WriteTx, name: &str) -> Result<()> {
        store::set_password_hash(&mut tx, name, NO_LOGIN).await?;
        self.end_sessions_in(tx, name).await
    }

    /// Ends every session and API token of `name` in `tx` (which holds the change that ends them:
    /// a ban, a closed account) and commits it; open sockets of every node hear of it.
    pub async fn end_sessions_in(&self, mut tx: WriteTx, name: &str) -> Result<()> {
        store::delete_sessions_of(&mut tx, name).await?;
        store::delete_api_tokens_of(&mut tx, name).await?;
        self.commit_revocation(tx, name, None).await?;
        self.forget(name);
        Ok(())
    }

    /// Opens a session: returns the bearer token (also the browser cookie's value).
    /// `code`: the second factor's, for a user who has one on.
    pub async fn login(
        &self,
        userid: &str,
        password: &str,
        code: Option<&str>,
    ) -> Result<(String, String)> {
        let name = self.verify_with_code(userid, password, code).await?;
        let bytes: [u8; 32] = rand::rng().random();
        let token = hex(&bytes);
        let now = self.clock.now_ms();
        let mut tx = self.storage.write().await?;
        store::delete_expired_sessions(&mut tx, now).await?;
        store::insert_session(&mut tx, &token_hash(&token), &name, now, now + SESSION_MS).await?;
        tx.commit().await?;
        Ok((name, token))
    }

    /// The user a token belongs to.
    pub async fn token_user(&self, token: &str) -> Result<String> {
        if token.is_empty() || token.len() > 128 {
            return Err(Error::Auth);
        }
        if is_api_token(token) {
            return Ok(self.api_token_scopes(token).await?.0);
        }
        let mut conn = self.storage.read().await?;
        store::session_user(&mut conn, &token_hash(token), self.clock.now_ms())
            .await?
            .ok_or(Error::Auth)
    }

    /// Ends the session of `token`; a token that opens no session is refused (`Error::Auth`), so
    /// that a client learns its credentials were not what it thought.
    pub async fn logout(&self, token: &str) -> Result<()> {
        let user = self.token_user(token).await?;
        let mut tx = self.storage.write().await?;
        store::delete_session(&mut tx, &token_hash(token)).await?;
        self.commit_revocation(tx, &user, Some(token)).await
    }

    /// Whether a revocation ends the session of `user` holding `token`.
    pub fn ends_session(revocation: &Revocation, user: &str, token: Option<&str>) -> bool {
        revocation.user == user
            && match (&revocation.token_hash, token) {
                (None, _) => true,
                (Some(hash), Some(token)) => *hash == token_hash(token),
                (Some(_), None) => false,
            }
    }
}

#[cfg(test)]
mod revocation_tests {
    use super::*;

    #[test]
    fn a_logout_ends_one_session_a_password_change_all() {
        let all = Revocation {
            user: "zed".into(),
            token_hash: None,
        };
        assert!(Accounts::ends_session(&all, "zed", Some("t1")));
        assert!(!Accounts::ends_session(&all, "amy", Some("t1")));
        let one = Revocation {
            user: "zed".into(),
            token_hash: Some(token_hash("t1")),
        };
        assert!(Accounts::ends_session(&one, "zed", Some("t1")));
        assert!(!Accounts::ends_session(&one, "zed", Some("t2")));
    }
}

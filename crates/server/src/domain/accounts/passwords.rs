//! Passwords: the rules a new one follows, argon2id hashes, and the check of a sign-in, whose
//! success is remembered as a keyed digest so that a user's next command costs no argon2 run.

use std::net::IpAddr;
use std::sync::OnceLock;

use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;
use sha2::{Digest, Sha256};

use super::{normalize_userid, split_code, Accounts};
use crate::domain::throttle::LoginLimits;
use crate::error::{Error, Result};
use crate::store;

/// The longest password.
pub const MAX_PASSWORD: usize = 128;
/// The shortest password: eight, the floor NIST SP 800-63B sets for passwords people choose
/// (each login is argon2-checked and failures are counted, so length is what guessing meets).
pub const MIN_PASSWORD: usize = 8;
/// A password hash no password matches (bot accounts cannot log in).
pub(super) const NO_LOGIN: &str = "!";

/// A stored password hash and the keyed digest of the password last verified against it.
pub(super) type Verified = (String, [u8; 32]);
/// A user and the client address a password was verified from.
pub(super) type VerifiedFrom = (String, Option<IpAddr>);

/// A right password: whose, and what the sign-in checks next.
struct PasswordChecked {
    name: String,
    banned: bool,
    second_factor: bool,
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

/// An argon2id hash of `password`, with a fresh salt.
pub(super) fn hash_password(password: &str) -> String {
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

impl Accounts {
    /// The keyed digest of `password` that the credential cache holds (see `verified`).
    fn digest(&self, password: &str) -> [u8; 32] {
        let mut hasher = Sha256::new();
        hasher.update(self.cache_key);
        hasher.update(password.as_bytes());
        hasher.finalize().into()
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

    pub(super) fn login_limits(&self) -> LoginLimits {
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

    pub(super) fn forget(&self, name: &str) {
        self.verified
            .lock()
            .expect("credential cache")
            .retain(|(user, _), _| user != name);
    }

    /// Changes `userid`'s password, given the current one; ends every session of theirs.
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
}

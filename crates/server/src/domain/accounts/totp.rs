//! A second factor (issue #49): RFC 6238 time-based one-time passwords, which any authenticator
//! app computes from a shared secret: HMAC-SHA1 of the 30-second time step, six digits.
//!
//! - Enabling makes a 160-bit secret and shows it (base32, and as an `otpauth://` URI for a QR
//!   code); it is off until its owner confirms it with a current code, which also yields ten
//!   single-use recovery codes, shown once and stored as SHA-256 digests.
//! - Once on, every sign-in needs a code (or a recovery code) after the password. The command
//!   language has no place for another word in every command, so there the code follows the
//!   password after a colon, `PASSWORD:CODE` (passwords have no colons). A code is taken from
//!   the step before to the step after now (a clock 30 s off still works) and each step's code
//!   works once ([`store::accept_totp_step`]), as RFC 6238 section 5.2 asks.
//! - Disabling needs a code (or a recovery code) too.

use data_encoding::BASE32_NOPAD;
use hmac::{Hmac, Mac};
use rand::Rng;
use sha1::Sha1;

use super::sessions::token_hash;
use super::Accounts;
use crate::error::{Error, Result};
use crate::store;

/// The length of a time step, in seconds (RFC 6238's default, which every app uses).
const STEP_S: i64 = 30;
/// The digits of a code.
const DIGITS: u32 = 6;
/// How many recovery codes an account gets.
pub const RECOVERY_CODES: usize = 10;

/// The code of `secret` for time step `step` (RFC 4226's HOTP with the step as counter),
/// `digits` long.
pub fn code(secret: &[u8], step: u64, digits: u32) -> u32 {
    let mut mac = Hmac::<Sha1>::new_from_slice(secret).expect("HMAC takes a key of any length");
    mac.update(&step.to_be_bytes());
    let digest = mac.finalize().into_bytes();
    let offset = usize::from(digest[19] & 0x0f);
    let word = u32::from_be_bytes(digest[offset..offset + 4].try_into().expect("four bytes"));
    (word & 0x7fff_ffff) % 10u32.pow(digits)
}

/// A second factor being set up: what the app is given.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TotpSetup {
    /// The secret in base32, to type into an app.
    pub secret: String,
    /// `otpauth://totp/...`, for a QR code.
    pub uri: String,
}

/// The form of a recovery code: ten base32 letters and digits, lower case.
fn new_recovery_code() -> String {
    BASE32_NOPAD
        .encode(&rand::rng().random::<[u8; 7]>())
        .to_ascii_lowercase()
        .chars()
        .take(10)
        .collect()
}

/// Splits the password word of the command language: `PASSWORD:CODE` or `PASSWORD`.
pub fn split_code(word: &str) -> (&str, Option<&str>) {
    match word.split_once(':') {
        Some((password, code)) => (password, Some(code)),
        None => (word, None),
    }
}

impl Accounts {
    /// The time step now, by the wall clock (a test clock's offset does not move codes).
    fn step_now() -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
            / STEP_S
    }

    /// Whether `name` has a second factor on.
    pub async fn has_second_factor(&self, name: &str) -> Result<bool> {
        let mut conn = self.storage.read().await?;
        Ok(store::totp(&mut conn, name)
            .await?
            .is_some_and(|totp| totp.enabled))
    }

    /// Makes a new secret for `name`, off until confirmed ([`Accounts::confirm_totp`]).
    pub async fn begin_totp(&self, name: &str) -> Result<TotpSetup> {
        if self.has_second_factor(name).await? {
            return Err(Error::Command(format!(
                "{name} has a second factor on already: turn it off first (with a code)"
            )));
        }
        let secret = BASE32_NOPAD.encode(&rand::rng().random::<[u8; 20]>());
        let mut tx = self.storage.write().await?;
        store::set_pending_totp(&mut tx, name, &secret, self.clock.now_ms()).await?;
        tx.commit().await?;
        let uri = format!(
            "otpauth://totp/ataxx:{name}?secret={secret}&issuer=ataxx&algorithm=SHA1&digits={DIGITS}&period={STEP_S}"
        );
        Ok(TotpSetup { secret, uri })
    }

    /// Turns the waiting secret of `name` on with a current code; returns the recovery codes
    /// (shown this once).
    pub async fn confirm_totp(&self, name: &str, code: &str) -> Result<Vec<String>> {
        let mut tx = self.storage.write().await?;
        let Some(totp) = store::totp(&mut tx, name).await? else {
            return Err(Error::Command(format!(
                "{name} has no second factor to confirm: enable it first"
            )));
        };
        if totp.enabled {
            return Err(Error::Command(format!(
                "{name} has a second factor on already"
            )));
        }
        let step = matching_step(&totp, code).ok_or_else(wrong_code)?;
        if !store::accept_totp_step(&mut tx, name, step).await? {
            return Err(wrong_code());
        }
        let codes: Vec<String> = (0..RECOVERY_CODES).map(|_| new_recovery_code()).collect();
        for code in &codes {
            store::insert_recovery_code(&mut tx, name, &token_hash(code)).await?;
        }
        tx.commit().await?;
        tracing::info!(user = %name, "second factor on");
        Ok(codes)
    }

    /// Turns the second factor of `name` off; needs a code or a recovery code.
    pub async fn disable_totp(&self, name: &str, code: &str) -> Result<()> {
        self.second_factor(name, Some(code)).await?;
        let mut tx = self.storage.write().await?;
        store::delete_totp(&mut tx, name).await?;
        tx.commit().await?;
        tracing::info!(user = %name, "second factor off");
        Ok(())
    }

    /// Checks the second factor of `name`, whose password was right: nothing to check when it
    /// is off; else a code of the steps around now not used before, or a recovery code (spent).
    pub(super) async fn second_factor(&self, name: &str, code: Option<&str>) -> Result<()> {
        let totp = {
            let mut conn = self.storage.read().await?;
            store::totp(&mut conn, name).await?
        };
        let Some(totp) = totp.filter(|totp| totp.enabled) else {
            return Ok(());
        };
        let Some(code) = code.map(str::trim).filter(|code| !code.is_empty()) else {
            return Err(Error::SecondFactor(name.to_string()));
        };
        let mut tx = self.storage.write().await?;
        let accepted = match matching_step(&totp, code) {
            Some(step) => store::accept_totp_step(&mut tx, name, step).await?,
            None => {
                store::take_recovery_code(&mut tx, name, &token_hash(&code.to_ascii_lowercase()))
                    .await?
            }
        };
        if !accepted {
            drop(tx);
            crate::metrics::metrics().failed_logins.inc();
            // Counted as a failed login: six digits are guessed no faster than a password.
            self.logins
                .failed(self.peer, name, self.login_limits())
                .await?;
            tracing::info!(user = %name, peer = ?self.peer, "second factor refused");
            return Err(wrong_code());
        }
        tx.commit().await
    }
}

/// The step, from the one before now to the one after and later than the last used, whose code
/// `code` is.
fn matching_step(totp: &store::TotpRow, code: &str) -> Option<i64> {
    let secret = BASE32_NOPAD.decode(totp.secret.as_bytes()).ok()?;
    let given: u32 = code
        .trim()
        .parse()
        .ok()
        .filter(|_| code.trim().len() == 6)?;
    let now = Accounts::step_now();
    (now - 1..=now + 1)
        .filter(|step| *step > totp.last_step)
        .find(|step| self::code(&secret, *step as u64, DIGITS) == given)
}

fn wrong_code() -> Error {
    Error::Command(
        "that code is wrong or used: give the current code of the authenticator app, or an \
         unused recovery code"
            .into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_codes_are_rfc_6238_s_test_vectors() {
        // RFC 6238 appendix B, SHA-1: the 20-byte ASCII secret, eight digits.
        let secret = b"12345678901234567890";
        for (time, expected) in [
            (59u64, 94287082),
            (1111111109, 7081804),
            (1234567890, 89005924),
            (2000000000, 69279037),
        ] {
            assert_eq!(code(secret, time / 30, 8), expected, "at {time}");
        }
        assert_eq!(code(secret, 1, 6), 287082);
    }

    #[test]
    fn a_password_word_carries_its_code_after_a_colon() {
        assert_eq!(split_code("secret-1:123456"), ("secret-1", Some("123456")));
        assert_eq!(split_code("secret-1"), ("secret-1", None));
    }
}

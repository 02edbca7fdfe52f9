//! Sessions: bearer tokens (the browser cookie's value too) opened by a login, ended by a
//! logout, a password change, a closed account or a ban; every node's sockets hear of an end.

use rand::Rng;
use sha2::{Digest, Sha256};

use super::passwords::NO_LOGIN;
use super::{is_api_token, Accounts, Revocation};
use crate::error::{Error, Result};
use crate::store::{self, WriteTx};

/// Sessions last 30 days.
const SESSION_MS: i64 = 30 * 24 * 3600 * 1000;

/// What the store keeps of a token: its SHA-256, in hex.
pub(crate) fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Bytes in lower-case hex.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Accounts {
    /// Ended sessions: a password change or closed account ends all of a user's, a logout one.
    pub fn revocations(&self) -> tokio::sync::broadcast::Receiver<Revocation> {
        self.publisher.hub().revocations()
    }

    /// Commits `tx`, which ended sessions of `user` (all, or the one of `token`), and tells the
    /// sockets of every node.
    pub(super) async fn commit_revocation(
        &self,
        tx: WriteTx,
        user: &str,
        token: Option<&str>,
    ) -> Result<()> {
        let revocation = Revocation {
            user: user.to_string(),
            token_hash: token.map(token_hash),
        };
        crate::domain::publish::commit_revocation(&self.publisher, tx, revocation).await
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

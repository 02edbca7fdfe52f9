//! Personal API tokens (issue #49): a user names a token and picks its scopes; the secret is
//! shown once, at creation, and kept only as its SHA-256 (a random 256-bit secret needs no slow
//! hash: nothing can be guessed from it). A revoked token stops at once on every node: each
//! request looks its hash up in the store, and the revocation's notice closes its open sockets.

use rand::Rng;

use super::sessions::{hex, token_hash};
use super::Accounts;
use crate::error::{Error, Result};
use crate::model::{ApiTokenRow, Revocation, Scope};
use crate::store;

/// What every API token's secret starts with, so that a leaked one is recognised (and told
/// apart from a session's token at a glance).
pub const TOKEN_PREFIX: &str = "ataxx_";
/// The longest token name, and the most tokens one account keeps.
pub const MAX_LABEL: usize = 64;
pub const MAX_TOKENS: usize = 50;

/// Whether `token` is an API token's secret (rather than a session's).
pub fn is_api_token(token: &str) -> bool {
    token.starts_with(TOKEN_PREFIX)
}

impl Accounts {
    /// Makes a token for `user`; returns it and its secret, which is never shown again.
    pub async fn create_api_token(
        &self,
        user: &str,
        label: &str,
        scopes: &[Scope],
    ) -> Result<(ApiTokenRow, String)> {
        let label = label.trim();
        if label.is_empty() {
            return Err(Error::Command("a token needs a name".into()));
        }
        if label.len() > MAX_LABEL {
            return Err(Error::TooLong {
                what: "a token's name",
                max: MAX_LABEL,
            });
        }
        if scopes.is_empty() {
            return Err(Error::Command(
                "a token needs at least one scope: read, board:play or bot:play".into(),
            ));
        }
        let mut scopes = scopes.to_vec();
        scopes.sort();
        scopes.dedup();
        let secret = format!("{TOKEN_PREFIX}{}", hex(&rand::rng().random::<[u8; 32]>()));
        let token = ApiTokenRow {
            id: hex(&rand::rng().random::<[u8; 8]>()),
            label: label.to_string(),
            scopes,
            created_ms: self.clock.now_ms(),
        };
        let mut tx = self.storage.write().await?;
        if store::api_tokens_of(&mut tx, user).await?.len() >= MAX_TOKENS {
            return Err(Error::Command(format!(
                "{user} has {MAX_TOKENS} tokens, the most an account keeps: revoke one first"
            )));
        }
        store::insert_api_token(&mut tx, &token, &token_hash(&secret), user).await?;
        tx.commit().await?;
        Ok((token, secret))
    }

    /// `user`'s tokens, without their secrets.
    pub async fn api_tokens(&self, user: &str) -> Result<Vec<ApiTokenRow>> {
        let mut conn = self.storage.read().await?;
        store::api_tokens_of(&mut conn, user).await
    }

    /// Revokes `user`'s token `id`: later requests with it are refused, and the sockets it
    /// opened, on every node, close.
    pub async fn revoke_api_token(&self, user: &str, id: &str) -> Result<()> {
        let mut tx = self.storage.write().await?;
        let hash = store::delete_api_token(&mut tx, user, id)
            .await?
            .ok_or_else(|| Error::UnknownToken(id.to_string()))?;
        let revocation = Revocation {
            user: user.to_string(),
            token_hash: Some(hash),
        };
        crate::domain::publish::commit_revocation(&self.publisher, tx, revocation).await
    }

    /// The owner and scopes of the API token `token` (refused as `Error::Auth` when no such
    /// token lives).
    pub async fn api_token_scopes(&self, token: &str) -> Result<(String, Vec<Scope>)> {
        if token.len() > 128 {
            return Err(Error::Auth);
        }
        let mut conn = self.storage.read().await?;
        store::api_token_user(&mut conn, &token_hash(token))
            .await?
            .ok_or(Error::Auth)
    }
}

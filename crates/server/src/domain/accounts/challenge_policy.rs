//! A user's stance on challenges: whether they take them at all (`accept`/`reject`) and how many
//! games they play at once (`limit`). Each setting keeps the other as it was.

use super::Accounts;
use crate::error::{Error, Result};
use crate::model::UserRow;
use crate::store;

impl Accounts {
    async fn current_user(&self, name: &str) -> Result<UserRow> {
        let mut conn = self.storage.read().await?;
        store::user(&mut conn, name)
            .await?
            .ok_or_else(|| Error::UnknownUser(name.to_string()))
    }

    /// Makes `user` take challenges or refuse them.
    pub async fn set_accepts_challenges(&self, user: &str, accepts: bool) -> Result<()> {
        let limit = self.current_user(user).await?.game_limit;
        let mut tx = self.storage.write().await?;
        store::set_challenge_policy(&mut tx, user, !accepts, limit).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Lets `user` play at most `limit` games at once.
    pub async fn set_game_limit(&self, user: &str, limit: i64) -> Result<()> {
        let refuses = self.current_user(user).await?.refuses_challenges;
        let mut tx = self.storage.write().await?;
        store::set_challenge_policy(&mut tx, user, refuses, Some(limit)).await?;
        tx.commit().await?;
        Ok(())
    }
}

//! A user's stance on challenges: whether they take them at all (`accept`/`reject`) and how many
//! games they play at once (`limit`). Each setting keeps the other as it was.

use crate::error::{Error, Result};
use crate::model::UserRow;
use crate::store::{self, Storage};

async fn current_user(storage: &Storage, name: &str) -> Result<UserRow> {
    let mut conn = storage.read().await?;
    store::user(&mut conn, name)
        .await?
        .ok_or_else(|| Error::UnknownUser(name.to_string()))
}

/// Makes `user` take challenges or refuse them.
pub async fn set_accepts_challenges(storage: &Storage, user: &str, accepts: bool) -> Result<()> {
    let limit = current_user(storage, user).await?.game_limit;
    let mut tx = storage.write().await?;
    store::set_challenge_policy(&mut tx, user, !accepts, limit).await?;
    tx.commit().await?;
    Ok(())
}

/// Lets `user` play at most `limit` games at once.
pub async fn set_game_limit(storage: &Storage, user: &str, limit: i64) -> Result<()> {
    let refuses = current_user(storage, user).await?.refuses_challenges;
    let mut tx = storage.write().await?;
    store::set_challenge_policy(&mut tx, user, refuses, Some(limit)).await?;
    tx.commit().await?;
    Ok(())
}

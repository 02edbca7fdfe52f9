//! Accounts played by an engine through the API (`ataxx bot`): an account without games may
//! become one, as on lichess; it is labelled a bot wherever its name shows (`"bot": "uai"`).

use sqlx::Row;

use crate::error::{Error, Result};
use crate::store::{self, Storage};

/// The `bot` label of accounts played through the API (built-in levels carry their level's name).
pub const ENGINE_BOT: &str = "uai";

/// Marks `name` as a bot account. Refused when the account has played or been challenged to a
/// game (its record would mix a person's games with an engine's); a bot already is fine.
pub async fn upgrade(storage: &Storage, name: &str) -> Result<()> {
    let mut tx = storage.write().await?;
    let user = store::user(&mut tx, name)
        .await?
        .ok_or_else(|| Error::UnknownUser(name.to_string()))?;
    if user.bot_level.as_deref() == Some(ENGINE_BOT) {
        return Ok(());
    }
    let row = sqlx::query("SELECT COUNT(*) AS n FROM seats WHERE name = $1")
        .bind(name)
        .fetch_one(&mut *tx)
        .await?;
    let boards: i64 = row.try_get("n")?;
    if boards > 0 {
        return Err(Error::Command(format!(
            "{name} has {boards} game(s): only an account without games may become a bot"
        )));
    }
    sqlx::query("UPDATE users SET bot_level = $1 WHERE name = $2")
        .bind(ENGINE_BOT)
        .bind(name)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    tracing::info!(%name, "account upgraded to a bot");
    Ok(())
}

/// The accounts played through `ataxx bot`, by name.
pub async fn engine_bots(conn: &mut sqlx::AnyConnection) -> Result<Vec<crate::model::UserRow>> {
    let rows = sqlx::query("SELECT name FROM users WHERE bot_level = $1 ORDER BY name")
        .bind(ENGINE_BOT)
        .fetch_all(&mut *conn)
        .await?;
    let mut bots = vec![];
    for row in rows {
        let name: String = row.try_get("name")?;
        bots.extend(store::user(conn, &name).await?);
    }
    Ok(bots)
}

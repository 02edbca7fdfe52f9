//! Bot accounts: each built-in level's (`bot-<level>`), and accounts played by an engine through
//! the API (`ataxx bot`): an account without games may become one, as on lichess; it is
//! labelled a bot wherever its name shows (`"bot": "uai"`).

use ataxx_players::Level;

use super::{Accounts, BOT_PREFIX};
use crate::error::{Error, Result};
use crate::model::UserRow;
use crate::store::{self, Conn};

/// The account of a built-in level: the bot prefix and the level's name.
pub fn bot_account_name(level: &Level) -> String {
    format!("{BOT_PREFIX}{}", level.name)
}

/// The `bot` label of accounts played through the API (built-in levels carry their level's name).
pub const ENGINE_BOT: &str = "uai";

impl Accounts {
    /// Marks `name` as a bot account. Refused when the account has played or been challenged to a
    /// game (its record would mix a person's games with an engine's); a bot already is fine.
    pub async fn become_bot(&self, name: &str) -> Result<()> {
        let mut tx = self.storage.write().await?;
        let user = store::user(&mut tx, name)
            .await?
            .ok_or_else(|| Error::UnknownUser(name.to_string()))?;
        if user.bot_level.as_deref() == Some(ENGINE_BOT) {
            return Ok(());
        }
        let boards = store::board_count(&mut tx, name).await?;
        if boards > 0 {
            return Err(Error::Command(format!(
                "{name} has {boards} game(s): only an account without games may become a bot"
            )));
        }
        store::set_bot_level(&mut tx, name, ENGINE_BOT).await?;
        tx.commit().await?;
        tracing::info!(%name, "account upgraded to a bot");
        Ok(())
    }
}

/// The accounts played through `ataxx bot`, by name.
pub async fn engine_bots(conn: &mut Conn) -> Result<Vec<UserRow>> {
    store::users_with_bot_level(conn, ENGINE_BOT).await
}

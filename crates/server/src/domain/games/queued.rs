//! Looking at a player's queued move without taking it (so that a second `queue` can say which
//! move it replaced).

use sqlx::Row;

use super::Games;
use crate::error::Result;

impl Games {
    /// The move `user` has queued on `board`, if any.
    pub async fn queued_move_of(&self, board: i64, user: &str) -> Result<Option<String>> {
        let mut conn = self.storage.read().await?;
        let row = sqlx::query("SELECT mv FROM queued_moves WHERE board = $1 AND name = $2")
            .bind(board)
            .bind(user)
            .fetch_optional(&mut *conn)
            .await?;
        Ok(match row {
            Some(row) => Some(row.try_get("mv")?),
            None => None,
        })
    }
}

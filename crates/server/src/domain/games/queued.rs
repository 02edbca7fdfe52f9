//! Looking at a player's queued move without taking it (so that a second `queue` can say which
//! move it replaced).

use super::Games;
use crate::error::Result;
use crate::store;

impl Games {
    /// The move `user` has queued on `board`, if any.
    pub async fn queued_move_of(&self, board: i64, user: &str) -> Result<Option<String>> {
        let mut conn = self.storage.read().await?;
        store::queued_move_of(&mut conn, board, user).await
    }
}

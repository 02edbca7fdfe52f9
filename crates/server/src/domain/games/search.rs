//! The games search (`GET /api/games/search`) and the bulk export of what it finds
//! (`GET /api/games/search/pgn`): finished games only, newest first.

use serde::Serialize;

use super::Games;
use crate::error::Result;
use crate::model::{GameSearch, GameSummary, GameView};
use crate::store;

/// The most games one export writes (the newest ones): a player's whole record for years of
/// play, while one request stays a bounded amount of work.
pub const MAX_EXPORT: i64 = 5000;

/// One page of the search, and how many games match in all.
#[derive(Clone, Debug, Serialize)]
pub struct Found {
    pub total: i64,
    pub games: Vec<GameSummary>,
}

impl Games {
    pub async fn search(&self, search: &GameSearch) -> Result<Found> {
        let mut conn = self.storage.read().await?;
        let now = self.now_ms();
        let (total, rows) = store::search_games(&mut conn, search).await?;
        Ok(Found {
            total,
            games: rows.iter().map(|g| g.summary(now)).collect(),
        })
    }

    /// Every game the search matches (up to [`MAX_EXPORT`]) with its moves, for an export.
    pub async fn search_views(&self, search: &GameSearch) -> Result<Vec<GameView>> {
        let all = GameSearch {
            offset: 0,
            limit: MAX_EXPORT,
            ..search.clone()
        };
        let found = self.search(&all).await?;
        let mut views = Vec::with_capacity(found.games.len());
        for game in found.games {
            views.push(self.view(game.board).await?);
        }
        Ok(views)
    }
}

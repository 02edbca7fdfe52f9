//! Listings of boards: what `games` and `show <userid>` select, the finished games `history`
//! shows, and the count of boards in play that `list` gives.

use games::GameKind;

use crate::domain::games::Games;

use crate::error::Result;
use crate::model::GameSummary;
use crate::model::Status;
use crate::store::{self, Storage};

/// The filter a listing of boards takes (who plays, which states, which game, how many).
use crate::model::GameFilter;

/// What a `games` or `show <userid>` listing selects (spec section 3), plus `open` (challenges
/// waiting for acceptance) and `recent` (latest finished games).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    All,
    Active,
    Inactive,
    Next,
    Open,
    Recent,
}

impl Selection {
    fn statuses(self) -> Vec<Status> {
        match self {
            Selection::All => vec![],
            Selection::Active | Selection::Next => vec![Status::Active],
            Selection::Inactive | Selection::Recent => vec![Status::Finished],
            Selection::Open => vec![Status::Challenge],
        }
    }
}

/// How many players the server has and how many boards of each game are in play.
pub struct Census {
    pub players: usize,
    /// Every game, in [`GameKind::ALL`] order, with its active boards.
    pub active: Vec<(GameKind, i64)>,
}

/// The listings of boards, over the games and their database.
#[derive(Clone)]
pub struct Listings {
    storage: Storage,
    games: Games,
}

impl Listings {
    pub fn new(storage: Storage, games: Games) -> Listings {
        Listings { storage, games }
    }

    /// The boards of `game` where `users` play (every board of it when none is named) that
    /// a selection picks.
    pub async fn boards(
        &self,
        game: GameKind,
        users: &[String],
        selection: Selection,
    ) -> Result<Vec<GameSummary>> {
        let limit = if selection == Selection::Recent {
            20
        } else {
            500
        };
        let players: Vec<Option<String>> = match users.is_empty() {
            true => vec![None],
            false => users.iter().cloned().map(Some).collect(),
        };
        let mut out: Vec<GameSummary> = vec![];
        for player in players {
            let filter = GameFilter {
                player: player.clone(),
                statuses: selection.statuses(),
                game: Some(game.name().to_string()),
                limit,
            };
            for game in self.games.list(&filter).await? {
                let next = selection != Selection::Next
                    || player
                        .as_ref()
                        .is_none_or(|p| game.to_move.as_ref() == Some(p));
                if next && !out.iter().any(|g| g.board == game.board) {
                    out.push(game);
                }
            }
        }
        Ok(out)
    }

    /// The latest finished boards of a game (`history`), newest first.
    pub async fn finished(&self, game: GameKind) -> Result<Vec<GameSummary>> {
        self.games
            .list(&GameFilter {
                statuses: vec![Status::Finished],
                game: Some(game.name().to_string()),
                limit: 100,
                ..Default::default()
            })
            .await
    }

    /// Counts players and boards in play (`list`).
    pub async fn census(&self) -> Result<Census> {
        let mut conn = self.storage.read().await?;
        let players = store::users(&mut conn).await?.len();
        let mut active = vec![];
        for game in GameKind::ALL {
            active.push((
                game,
                store::count_games(&mut conn, game.name(), Status::Active).await?,
            ));
        }
        Ok(Census { players, active })
    }
}

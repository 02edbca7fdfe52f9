//! Leaderboards: per game and speed (live, correspondence), established ratings ranked and
//! provisional ones apart, each with its trend.
//!
//! Ratings are kept per game (see [`crate::domain::ratings`]); a speed selects the players who have
//! finished rated games of that speed, and counts only those games.

use serde::Serialize;

use std::sync::Arc;

use crate::domain::clock::Clock;
use crate::error::{Error, Result};
use crate::store::{self, Storage};

/// How many of a player's latest rated games the trend spans.
pub const TREND_GAMES: usize = 5;

/// The speeds a leaderboard can select.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speed {
    /// Every rated game.
    All,
    /// Games with a clock.
    Live,
    Correspondence,
}

impl Speed {
    pub fn parse(text: &str) -> Result<Speed> {
        match text {
            "all" => Ok(Speed::All),
            "live" => Ok(Speed::Live),
            "correspondence" => Ok(Speed::Correspondence),
            other => Err(Error::Command(format!(
                "speed {other:?}: give live, correspondence or all"
            ))),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Speed::All => "all",
            Speed::Live => "live",
            Speed::Correspondence => "correspondence",
        }
    }

    /// Whether this speed's games have a clock (None: either).
    pub fn clocked(self) -> Option<bool> {
        match self {
            Speed::All => None,
            Speed::Live => Some(true),
            Speed::Correspondence => Some(false),
        }
    }
}

/// One player's line.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    /// 1 for the best established rating; None for provisional ones.
    pub rank: Option<usize>,
    pub userid: String,
    pub rating: f64,
    pub deviation: f64,
    /// Rounded, `?` when provisional.
    pub rating_text: String,
    /// Finished rated games of this game and speed.
    pub games: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
    /// The rating change over the player's last [`TREND_GAMES`] rated games of this game
    /// (rounded to a point).
    pub trend: i64,
    /// A computer player (a built-in level or an engine behind `ataxx bot`).
    pub bot: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct Leaderboard {
    pub game: String,
    pub speed: &'static str,
    /// Established ratings, best first.
    pub players: Vec<Entry>,
    /// Provisional ratings (fewer than 20 rated games), best first.
    pub provisional: Vec<Entry>,
}

/// Days without a game after which a player is listed as inactive.
pub const INACTIVE_DAYS: i64 = 180;

/// The group a player stands in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    Established,
    Provisional,
    /// No game for [`INACTIVE_DAYS`].
    Inactive,
}

impl Group {
    /// In the order the standings list them.
    pub const ALL: [Group; 3] = [Group::Established, Group::Provisional, Group::Inactive];

    pub fn name(self) -> &'static str {
        match self {
            Group::Established => "Established",
            Group::Provisional => "Provisional",
            Group::Inactive => "Inactive",
        }
    }
}

/// One player in the standings of a game.
pub struct Standing {
    pub rating: crate::model::RatingRow,
    /// The account; None only for a rating whose account is gone.
    pub user: Option<crate::model::UserRow>,
    pub group: Group,
}

impl Standing {
    /// A computer player.
    pub fn is_bot(&self) -> bool {
        self.user.as_ref().is_some_and(|u| u.bot_level.is_some())
    }
}

/// The leaderboards and standings of every game, over the ratings of one database.
#[derive(Clone)]
pub struct Standings {
    storage: Storage,
    clock: Arc<Clock>,
}

impl Standings {
    pub fn new(storage: Storage, clock: Arc<Clock>) -> Standings {
        Standings { storage, clock }
    }

    /// The leaderboard of a game at a speed.
    pub async fn leaderboard(&self, game: &str, speed: Speed) -> Result<Leaderboard> {
        let mut conn = self.storage.read().await?;
        let counts = store::rated_games_per_player(&mut conn, game, speed.clocked()).await?;
        // Players an admin marked as cheaters are left out (their ratings stay as they were).
        let cheaters = store::marked(&mut conn, store::Mark::Cheater).await?;
        let mut players = vec![];
        let mut provisional = vec![];
        for rating in store::ratings_of_game(&mut conn, game).await? {
            let Some(&games) = counts.get(&rating.name) else {
                continue;
            };
            if cheaters.contains(&rating.name) {
                continue;
            }
            let history: Vec<f64> = store::rating_history(&mut conn, &rating.name)
                .await?
                .into_iter()
                .filter(|point| point.game == game)
                .map(|point| point.rating)
                .collect();
            // The rating before the first of the last TREND_GAMES games: the point before them, or
            // the initial rating when the player has played no more than that.
            let before = match history.len() {
                n if n > TREND_GAMES => history[n - TREND_GAMES - 1],
                _ => crate::domain::ratings::initial().rating,
            };
            let bot = store::user(&mut conn, &rating.name)
                .await?
                .is_some_and(|u| u.bot_level.is_some());
            let entry = Entry {
                rank: None,
                userid: rating.name.clone(),
                rating: rating.rating,
                deviation: rating.deviation,
                rating_text: rating.rating_text(),
                games,
                wins: rating.wins,
                losses: rating.losses,
                draws: rating.draws,
                trend: (rating.rating - before).round() as i64,
                bot,
            };
            match rating.is_provisional() {
                true => provisional.push(entry),
                false => players.push(entry),
            }
        }
        for (i, entry) in players.iter_mut().enumerate() {
            entry.rank = Some(i + 1);
        }
        Ok(Leaderboard {
            game: game.to_string(),
            speed: speed.name(),
            players,
            provisional,
        })
    }

    /// The standings of a game: everyone who has played it, in rating order.
    pub async fn standings(&self, game: &str) -> Result<Vec<Standing>> {
        let now_ms = self.clock.now_ms();
        let mut conn = self.storage.read().await?;
        let mut out = vec![];
        for rating in store::ratings_of_game(&mut conn, game).await? {
            if rating.games_played() == 0 {
                continue;
            }
            let user = store::user(&mut conn, &rating.name).await?;
            let inactive = rating
                .last_game_ms
                .is_none_or(|t| now_ms - t > INACTIVE_DAYS * 24 * 3600 * 1000);
            let group = if inactive {
                Group::Inactive
            } else if rating.is_provisional() {
                Group::Provisional
            } else {
                Group::Established
            };
            out.push(Standing {
                rating,
                user,
                group,
            });
        }
        Ok(out)
    }
}

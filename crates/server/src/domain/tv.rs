//! Featured games: the games in play ranked by their players' ratings, for the front page's
//! small live boards and the TV page (the best game, then the next when it ends).
//!
//! A game's rating is the mean of its seats' ratings in that game (a player without rated
//! games counts with the starting rating); ties go to the game moved in last. Games between
//! people come before any game a server's computer player sits in, whatever its rating (as
//! lichess keeps bots off its main TV channel): a bot's fixed rating would otherwise put every
//! beginner's practice game on top.

use std::collections::HashMap;

use serde::Serialize;

use crate::domain::accounts::BOT_PREFIX;
use crate::domain::games::Games;

use crate::error::Result;
use crate::model::GameSummary;
use crate::model::Status;
use crate::model::{GameFilter, RatingRow};
use crate::store::{self, Storage};

/// The most games in play ranked for one answer (newest first before ranking).
const SCANNED: i64 = 500;

/// A game in play with the ratings that rank it.
#[derive(Clone, Debug, Serialize)]
pub struct Featured {
    /// The mean rating of the seats, rounded.
    pub rating: i64,
    /// Each seat's rating as shown (`1612`, `1500?` when provisional), in seat order.
    pub ratings: Vec<String>,
    pub game: GameSummary,
}

/// The featured games, over the games in play and their players' ratings.
#[derive(Clone)]
pub struct Tv {
    storage: Storage,
    games: Games,
}

impl Tv {
    pub fn new(storage: Storage, games: Games) -> Tv {
        Tv { storage, games }
    }

    /// The `limit` best-rated games in play, of one game (`Some(name)`) or of every game.
    pub async fn featured(&self, game: Option<&str>, limit: usize) -> Result<Vec<Featured>> {
        let playing = self
            .games
            .list(&GameFilter {
                statuses: vec![Status::Active],
                game: game.map(str::to_string),
                limit: SCANNED,
                ..GameFilter::default()
            })
            .await?;
        let mut ratings: HashMap<String, HashMap<String, RatingRow>> = HashMap::new();
        {
            let mut conn = self.storage.read().await?;
            for summary in &playing {
                if !ratings.contains_key(&summary.game) {
                    let rows = store::ratings_of_game(&mut conn, &summary.game).await?;
                    let by_name = rows.into_iter().map(|r| (r.name.clone(), r)).collect();
                    ratings.insert(summary.game.clone(), by_name);
                }
            }
        }
        let mut ranked: Vec<Featured> = playing
            .into_iter()
            .map(|summary| {
                let of_game = &ratings[&summary.game];
                let rows: Vec<RatingRow> = summary
                    .seats
                    .iter()
                    .map(|seat| {
                        of_game
                            .get(&seat.name)
                            .cloned()
                            .unwrap_or_else(|| RatingRow::initial(&seat.name, &summary.game))
                    })
                    .collect();
                let mean = rows.iter().map(|r| r.rating).sum::<f64>() / rows.len().max(1) as f64;
                Featured {
                    rating: mean.round() as i64,
                    ratings: rows.iter().map(RatingRow::rating_text).collect(),
                    game: summary,
                }
            })
            .collect();
        let moved = |f: &Featured| f.game.last_move_ms.or(f.game.started_ms).unwrap_or(0);
        let with_bot = |f: &Featured| f.game.seats.iter().any(|s| s.name.starts_with(BOT_PREFIX));
        ranked.sort_by(|a, b| {
            with_bot(a)
                .cmp(&with_bot(b))
                .then(b.rating.cmp(&a.rating))
                .then(moved(b).cmp(&moved(a)))
        });
        ranked.truncate(limit);
        Ok(ranked)
    }
}

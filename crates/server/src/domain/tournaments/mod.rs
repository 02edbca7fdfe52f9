//! Tournaments: arenas, Swiss and the engine league, played as ordinary boards.
//!
//! Anyone may join, leave and look (`acts.rs`, `views.rs`); only the leader node decides
//! ([`Tournaments::advance`], driven by [`Tournaments::direct`]: `director.rs`): it starts
//! tournaments, pairs, gives byes, opens rounds and ends them. Each decision is one transaction
//! that locks the tournament's row, re-reads its state, and writes the pairings together with
//! their new boards, so a decision is made once and a node dying mid-way loses nothing: the next
//! leader finds the state as it was committed and carries on. A game's result reaches its
//! pairing in the transaction that ends the game (`Games::finish`), so no result is lost either,
//! and ordinary moves cost nothing extra.
//!
//! The pairing systems are pure functions: [`swiss`], [`arena`], [`league`] (with its openings
//! and Elo table); scores and tie breaks in [`scores`].

use std::sync::Arc;

use serde_json::json;

use crate::domain::clock::Clock;
use crate::domain::games::Games;
use crate::domain::publish;
use crate::error::{Error, Result};
use crate::events::Publisher;
use crate::model::TournamentRow;
use crate::store::tournaments as tournament_store;
use crate::store::{self, Storage};

mod acts;
pub mod arena;
pub mod crosstable;
mod director;
pub mod league;
pub mod scores;
pub mod swiss;
mod views;

pub use acts::NewTournament;
pub use views::TournamentView;

/// The longest tournament name.
pub const MAX_NAME: usize = 80;
/// The most rounds a Swiss may have.
pub const MAX_ROUNDS: i64 = 30;
/// The longest arena, in minutes (a day).
pub const MAX_MINUTES: i64 = 1440;

/// The tournament service.
#[derive(Clone)]
pub struct Tournaments {
    storage: Storage,
    games: Games,
    clock: Arc<Clock>,
    publisher: Publisher,
}

impl Tournaments {
    pub fn new(storage: Storage, games: Games, clock: Arc<Clock>, publisher: Publisher) -> Self {
        Tournaments {
            storage,
            games,
            clock,
            publisher,
        }
    }

    /// Tells the lobby streams (and so every tournament page) that a tournament changed.
    async fn announce(&self, id: i64) {
        let json = json!({"type": "tournament", "id": id}).to_string();
        publish::lobby(&self.publisher, &self.storage, json).await
    }

    /// The tournament `id`, or the refusal for one that does not exist.
    async fn load(conn: &mut store::Conn, id: i64) -> Result<TournamentRow> {
        tournament_store::tournament(conn, id)
            .await?
            .ok_or(Error::UnknownTournament(id))
    }

    /// [`Tournaments::load`], locking the tournament's row until `conn`'s transaction ends.
    async fn lock(conn: &mut store::Conn, id: i64) -> Result<TournamentRow> {
        tournament_store::tournament_for_update(conn, id)
            .await?
            .ok_or(Error::UnknownTournament(id))
    }
}

//! The opening explorer (issue #33): for a position, the moves played from it in the site's
//! finished games, each with how many games, each seat's wins, draws and losses, and the
//! players' average rating, filtered by speed and by a minimum rating.
//!
//! The moves table keeps moves, not positions, so the explorer replays games with the game's
//! own rules (the one implementation, `crates/games`) and keeps an index per game in memory:
//! position → (game, move). The index covers the newest [`INDEXED_GAMES`] finished boards and
//! is rebuilt when that game's finished boards change (their count or the last finish time,
//! one cheap query per request), so an answer always counts every game finished before it
//! (within the bound). Plain SQL in three reads (boards, moves, rating points) serves SQLite
//! and PostgreSQL alike and needs no migration; the move path writes nothing more. Storing the
//! positions of each game at its finish would make rebuilds unnecessary at the price of a
//! table growing by a row per ply; docs/analysis.md says when that would be worth it.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};

use games::{GameKind, Seat};
use serde::Serialize;

use crate::domain::games::seat_outcome;
use crate::domain::standings::Speed;
use crate::error::{Error, Result};
use crate::model::GameRow;
use crate::store::{self, Storage};

/// The finished boards an index covers, the newest by board number.
pub const INDEXED_GAMES: i64 = 20_000;

/// Which games an answer counts.
#[derive(Clone, Copy, Debug)]
pub struct Filter {
    pub speed: Speed,
    /// Only games whose players' average rating at their start was at least this.
    pub min_rating: Option<f64>,
}

/// A seat's results after one move.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Results {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// One move played from the position.
#[derive(Clone, Debug, Serialize)]
pub struct ExplorerMove {
    #[serde(rename = "move")]
    pub mv: String,
    /// The games in which it was played from this position.
    pub games: u32,
    /// By seat letter.
    pub results: BTreeMap<String, Results>,
    /// The players' mean rating at the start of those games (rated games only); None if none.
    pub average_rating: Option<f64>,
}

/// The explorer's answer for a position.
#[derive(Clone, Debug, Serialize)]
pub struct Explored {
    pub game: String,
    /// The position as the game writes it.
    pub fen: String,
    /// The games counted that reached it.
    pub games: u32,
    /// The most games played first, then by move text.
    pub moves: Vec<ExplorerMove>,
    /// The finished games the index covers (at most [`INDEXED_GAMES`]).
    pub indexed: usize,
}

/// A finished game, as the index keeps it.
struct IndexedGame {
    clocked: bool,
    /// The players' mean rating at the start, from the rating points of a rated game.
    rating: Option<f64>,
    /// (seat letter, win/draw/loss) per seat.
    outcomes: Vec<(String, &'static str)>,
}

/// One game's index: position key → (game, move played there), each game once per position.
struct Index {
    fingerprint: (i64, i64),
    games: Vec<IndexedGame>,
    at: HashMap<String, Vec<(u32, String)>>,
}

/// The explorer of every game, its indexes cached.
#[derive(Clone)]
pub struct Explorer {
    storage: Storage,
    indexes: Arc<Mutex<HashMap<GameKind, Arc<Index>>>>,
    /// One rebuild at a time: requests arriving meanwhile wait and take its index.
    rebuilding: Arc<tokio::sync::Mutex<()>>,
}

/// A position's key: its FEN without the move counters, so that a position reached after other
/// captures or at another move number is the same position (the board, the side to move and,
/// in Ankor, the reserves).
pub(crate) fn position_key(kind: GameKind, fen: &str) -> String {
    let counters = match kind {
        // `ankor n H cells side reserves reserves ply`
        GameKind::Ankor => 1,
        // `board side halfmoves fullmoves`
        _ => 2,
    };
    let fields: Vec<&str> = fen.split_whitespace().collect();
    fields[..fields.len().saturating_sub(counters)].join(" ")
}

impl Explorer {
    pub fn new(storage: Storage) -> Explorer {
        Explorer {
            storage,
            indexes: Arc::default(),
            rebuilding: Arc::default(),
        }
    }

    /// The moves played from `fen` in the finished games of `kind` that pass `filter`.
    pub async fn explore(&self, kind: GameKind, fen: &str, filter: Filter) -> Result<Explored> {
        let position = kind
            .parse_position(fen)
            .map_err(|err| Error::Command(format!("position {fen:?}: {err}")))?;
        let fen = position.fen();
        let index = self.index(kind).await?;
        let mut by_move: BTreeMap<&str, (ExplorerMove, Vec<f64>)> = BTreeMap::new();
        let mut games = 0;
        for (game, mv) in index
            .at
            .get(&position_key(kind, &fen))
            .into_iter()
            .flatten()
        {
            let indexed = &index.games[*game as usize];
            let fast_enough = filter.speed.clocked().is_none_or(|c| c == indexed.clocked);
            let strong_enough = filter
                .min_rating
                .is_none_or(|min| indexed.rating.is_some_and(|r| r >= min));
            if !fast_enough || !strong_enough {
                continue;
            }
            games += 1;
            let (entry, ratings) = by_move.entry(mv).or_insert_with(|| {
                let first = ExplorerMove {
                    mv: mv.clone(),
                    games: 0,
                    results: BTreeMap::new(),
                    average_rating: None,
                };
                (first, vec![])
            });
            entry.games += 1;
            for (letter, outcome) in &indexed.outcomes {
                let results = entry.results.entry(letter.clone()).or_default();
                match *outcome {
                    "win" => results.wins += 1,
                    "draw" => results.draws += 1,
                    _ => results.losses += 1,
                }
            }
            ratings.extend(indexed.rating);
        }
        let mut moves: Vec<ExplorerMove> = by_move
            .into_values()
            .map(|(mut entry, ratings)| {
                entry.average_rating = (!ratings.is_empty())
                    .then(|| (ratings.iter().sum::<f64>() / ratings.len() as f64).round());
                entry
            })
            .collect();
        moves.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.mv.cmp(&b.mv)));
        Ok(Explored {
            game: kind.name().to_string(),
            fen,
            games,
            moves,
            indexed: index.games.len(),
        })
    }

    /// The index of `kind`, rebuilt first if its finished games changed.
    async fn index(&self, kind: GameKind) -> Result<Arc<Index>> {
        let current = || {
            self.indexes
                .lock()
                .expect("explorer cache")
                .get(&kind)
                .cloned()
        };
        let fingerprint = {
            let mut conn = self.storage.read().await?;
            store::finished_fingerprint(&mut conn, kind.name()).await?
        };
        if let Some(index) = current().filter(|i| i.fingerprint == fingerprint) {
            return Ok(index);
        }
        let _turn = self.rebuilding.lock().await;
        // Another request may have rebuilt it while this one waited.
        if let Some(index) = current().filter(|i| i.fingerprint >= fingerprint) {
            return Ok(index);
        }
        let (boards, moves, ratings) = {
            let mut conn = self.storage.read().await?;
            let boards = store::newest_finished(&mut conn, kind.name(), INDEXED_GAMES).await?;
            let first = boards.last().map_or(i64::MAX, |b| b.board);
            let moves = store::finished_moves_from(&mut conn, kind.name(), first).await?;
            let ratings = store::ratings_after_boards_from(&mut conn, kind.name(), first).await?;
            (boards, moves, ratings)
        };
        let index =
            tokio::task::spawn_blocking(move || build(kind, fingerprint, boards, &moves, &ratings))
                .await
                .map_err(|err| Error::Database(Box::new(err)))?;
        let index = Arc::new(index);
        self.indexes
            .lock()
            .expect("explorer cache")
            .insert(kind, index.clone());
        Ok(index)
    }
}

/// Replays the boards (oldest first) into an index. A move that does not replay ends its game's
/// part (stored games replay; this only keeps a damaged row from stopping the explorer).
fn build(
    kind: GameKind,
    fingerprint: (i64, i64),
    mut boards: Vec<GameRow>,
    moves: &[(i64, String)],
    ratings: &[(i64, String, f64)],
) -> Index {
    boards.reverse();
    let mut moves_of: HashMap<i64, Vec<&str>> = HashMap::new();
    for (board, mv) in moves {
        moves_of.entry(*board).or_default().push(mv);
    }
    let rating_after: HashMap<(i64, &str), f64> = ratings
        .iter()
        .map(|(board, name, rating)| ((*board, name.as_str()), *rating))
        .collect();
    let mut index = Index {
        fingerprint,
        games: Vec::with_capacity(boards.len()),
        at: HashMap::new(),
    };
    for game in &boards {
        let Ok(mut position) = kind.parse_position(&game.start_fen) else {
            continue;
        };
        let number = index.games.len() as u32;
        // A rated game's rating before it: the rating point it left less its change.
        let before: Vec<f64> = game
            .seats
            .iter()
            .filter_map(|seat| {
                let after = rating_after.get(&(game.board, seat.name.as_str()))?;
                Some(after - seat.rating_change?)
            })
            .collect();
        let mut seen = HashSet::new();
        for mv in moves_of.get(&game.board).into_iter().flatten() {
            let key = position_key(kind, &position.fen());
            if seen.insert(key.clone()) {
                index
                    .at
                    .entry(key)
                    .or_default()
                    .push((number, mv.to_string()));
            }
            if position.play(mv).is_err() {
                break;
            }
        }
        index.games.push(IndexedGame {
            clocked: game.clock_base_ms.is_some(),
            rating: (!before.is_empty() && before.len() == game.seats.len())
                .then(|| before.iter().sum::<f64>() / before.len() as f64),
            // Letters as the game page shows them: from the last position (Ankor's swap
            // exchanges who plays which colour).
            outcomes: game
                .seats
                .iter()
                .enumerate()
                .filter_map(|(i, seat)| {
                    let outcome = seat_outcome(seat.rank, &game.seats)?;
                    Some((position.seat_letter(Seat(i as u8)).to_string(), outcome))
                })
                .collect(),
        });
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_key_leaves_out_the_move_counters_only() {
        assert_eq!(
            position_key(GameKind::Ataxx, "x5o/7/7/7/7/7/o5x x 3 12"),
            "x5o/7/7/7/7/7/o5x x"
        );
        assert_eq!(
            position_key(GameKind::Ankor, "ankor 3 2 ..../. o 4 4 0"),
            "ankor 3 2 ..../. o 4 4"
        );
    }
}

//! Matches between named levels of the variants (Hexxagon, four-player Ataxx, Ankor), played
//! in process: the levels are library players ([`ataxx_players::generic`]), not UAI engines,
//! so no clocks or pipes are involved; every level keeps to its own time budget.
//!
//! Games come in pairs from one opening (a few random plies, the same for both games of a
//! pair). Two seats: the levels exchange colours within the pair. Four seats: each level holds
//! two opposite seats, and the pair rotates them by one (first plays seats 0 and 2, then 1
//! and 3); a game scores the four pairwise results between a seat of the first level and one
//! of the second, by rank, so a game is worth 0, ¼, ½, ¾ or 1 to the first level.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::channel;

use ataxx_players::generic::{choose_with, ChooseError, GenericLevel};
use games::{AnyPosition, GameError, GameKind, Seat, StartOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::stats::{EloEstimate, GameScore, Sample, Wdl};

/// What a variant match plays.
#[derive(Clone, Debug)]
pub struct VariantMatchSettings {
    pub kind: GameKind,
    pub options: StartOptions,
    /// The two levels; scores are the first one's.
    pub levels: [&'static GenericLevel; 2],
    /// Games, rounded up to an even number (pairs).
    pub games: u32,
    /// Random plies that open each pair of games.
    pub opening_plies: u32,
    /// A game still running after this many plies is adjudicated a draw.
    pub max_plies: u32,
    pub seed: u64,
    pub concurrency: usize,
}

/// Why a variant match stopped.
#[derive(Debug, Error)]
pub enum VariantMatchError {
    #[error("cannot start a {kind} game: {source}")]
    Start {
        kind: GameKind,
        source: Box<GameError>,
    },
    #[error("level {level} gave no move in {fen}: {source}")]
    NoMove {
        level: String,
        fen: String,
        source: Box<ChooseError>,
    },
    #[error("level {level} played {text:?} in {fen}: {source}")]
    BadMove {
        level: String,
        text: String,
        fen: String,
        source: Box<GameError>,
    },
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct VariantGame {
    /// From 0; games 2k and 2k + 1 share an opening.
    pub index: u32,
    /// The first level's score, 0 to 1.
    pub score: f64,
    pub plies: u32,
    /// Stopped at [`VariantMatchSettings::max_plies`].
    pub adjudicated: bool,
    /// The final position's text.
    pub fen: String,
}

/// The running totals, from the first level's side.
#[derive(Clone, Debug, Default)]
pub struct VariantMatchState {
    pub games_played: u32,
    pub games_scheduled: u32,
    /// Games scored above ½ (won), ½ (drawn) and below (lost).
    pub wdl: Wdl,
    pub points: f64,
    pub adjudicated: u32,
    pub plies: u64,
    /// Each game's score, in the order the games finished.
    pub scores: Vec<f64>,
}

impl VariantMatchState {
    /// Elo, its error and LOS from the games' scores (each game one unit).
    pub fn estimate(&self) -> EloEstimate {
        let counts: Vec<(f64, f64)> = self.scores.iter().map(|&s| (s, 1.0)).collect();
        EloEstimate::new(&Sample::from_counts(&counts, 1))
    }

    fn add(&mut self, game: &VariantGame) {
        self.games_played += 1;
        self.points += game.score;
        self.plies += u64::from(game.plies);
        self.adjudicated += u32::from(game.adjudicated);
        self.scores.push(game.score);
        self.wdl.add(if game.score > 0.5 {
            GameScore::Win
        } else if game.score < 0.5 {
            GameScore::Loss
        } else {
            GameScore::Draw
        });
    }
}

/// Plays the match on `concurrency` threads, calling `on_game` after every game (in the order
/// they finish), and returns the totals.
pub fn run_variant_match(
    settings: &VariantMatchSettings,
    mut on_game: impl FnMut(&VariantGame, &VariantMatchState),
) -> Result<VariantMatchState, VariantMatchError> {
    let games = settings.games.div_ceil(2) * 2;
    let start =
        settings
            .kind
            .start(&settings.options)
            .map_err(|source| VariantMatchError::Start {
                kind: settings.kind,
                source: Box::new(source),
            })?;
    let mut state = VariantMatchState {
        games_scheduled: games,
        ..VariantMatchState::default()
    };
    let next = AtomicU32::new(0);
    let (results, finished) = channel();
    std::thread::scope(|scope| {
        for _ in 0..settings.concurrency.max(1) {
            let results = results.clone();
            let (next, start) = (&next, &start);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= games {
                    break;
                }
                let result = play_game(settings, start.as_ref(), index);
                let failed = result.is_err();
                if results.send(result).is_err() || failed {
                    // Stop handing out games once one failed.
                    next.store(games, Ordering::Relaxed);
                    break;
                }
            });
        }
        drop(results);
        for result in finished {
            let game = result?;
            state.add(&game);
            on_game(&game, &state);
        }
        Ok(state)
    })
}

/// Game `index` of the match: its pair's opening, then the levels in their seats.
fn play_game(
    settings: &VariantMatchSettings,
    start: &dyn AnyPosition,
    index: u32,
) -> Result<VariantGame, VariantMatchError> {
    let pair = u64::from(index / 2);
    let mut pos = start.clone_box();
    let mut opening = ChaCha8Rng::seed_from_u64(settings.seed ^ pair.wrapping_mul(0x9e37_79b9));
    for _ in 0..settings.opening_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.outcome().is_some() {
            break;
        }
        let mv = &moves[opening.random_range(0..moves.len())];
        // A swap among the random plies exchanges nobody: the levels take their seats after.
        play(&mut *pos, mv, "opening")?;
    }
    // The first level sits where (seat + index) is even: seat 0 (and 2) in even games,
    // seat 1 (and 3) in odd ones; a move that swaps seats (Ankor's `swap`) exchanges them.
    let mut swapped = false;
    let first_at =
        |seat: usize, swapped: bool| (seat + index as usize).is_multiple_of(2) != swapped;
    let seats = pos.seats();
    let mut plies = 0;
    while pos.outcome().is_none() && plies < settings.max_plies {
        let level = settings.levels[usize::from(!first_at(pos.turn().index(), swapped))];
        let seed = settings.seed ^ (u64::from(index) << 32 | u64::from(plies));
        let mv =
            choose_with(level, pos.as_ref(), seed).map_err(|source| VariantMatchError::NoMove {
                level: level.name.to_string(),
                fen: pos.fen(),
                source: Box::new(source),
            })?;
        swapped ^= play(&mut *pos, &mv, level.name)?;
        plies += 1;
    }
    let score = match pos.outcome() {
        None => 0.5,
        Some(outcome) => {
            let mut total = 0.0;
            let mut pairs = 0.0;
            for a in (0..seats).filter(|&s| first_at(s, swapped)) {
                for b in (0..seats).filter(|&s| !first_at(s, swapped)) {
                    total += outcome.pairwise(Seat(a as u8), Seat(b as u8));
                    pairs += 1.0;
                }
            }
            total / pairs
        }
    };
    Ok(VariantGame {
        index,
        score,
        plies,
        adjudicated: pos.outcome().is_none(),
        fen: pos.fen(),
    })
}

/// Plays `text`; whether it swapped the seats.
fn play(pos: &mut dyn AnyPosition, text: &str, level: &str) -> Result<bool, VariantMatchError> {
    let fen = pos.fen();
    pos.play(text)
        .map(|played| played.swaps_seats)
        .map_err(|source| VariantMatchError::BadMove {
            level: level.to_string(),
            text: text.to_string(),
            fen,
            source: Box::new(source),
        })
}

//! The dynamic entry point: a level's move for a position whose game is known at run time.

use games::{AnyPosition, GameKind, Rules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use super::levels::{GenericLevel, GenericStrength, NODE_LIMIT};
use super::{greedy_move, paranoid_search, random_move, Limits};

/// Why [`choose_any`] gave no move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ChooseError {
    #[error("unknown level {level:?} for {game}; levels: {names}")]
    UnknownLevel {
        level: String,
        game: GameKind,
        names: String,
    },
    #[error("the game is over: no move to choose")]
    GameOver,
    #[error("position could not be read back: {0}")]
    Position(String),
}

/// The move (in the game's canonical text) that level `level` plays in `pos`, for any game:
/// it looks the level up in the table of `pos.kind()` (square Ataxx: [`crate::LEVELS`], the
/// six levels very-easy … master; Hexxagon and four-player Ataxx: very-easy … hard) and lets
/// that player choose. Random choices follow `seed`: the same call gives the same move.
///
/// This is what the server's bots call; they never need to know which game they play.
pub fn choose_any(level: &str, pos: &dyn AnyPosition, seed: u64) -> Result<String, ChooseError> {
    let fen = pos.fen();
    let kind = pos.kind();
    let bad = |e: games::GameError| ChooseError::Position(e.to_string());
    match kind {
        GameKind::Ataxx => {
            let found: &'static crate::Level = level.parse().map_err(|_| unknown(level, kind))?;
            let square = ataxx::Position::from_fen(&fen)
                .map_err(|e| ChooseError::Position(e.to_string()))?;
            let mut player = found.player(seed);
            player
                .choose(&square)
                .map(|mv| mv.to_string())
                .ok_or(ChooseError::GameOver)
        }
        GameKind::Hexxagon => {
            let p = games::hexxagon::Position::from_fen(&fen).map_err(bad)?;
            choose_generic(level, &p, seed)
        }
        GameKind::Ataxx4 => {
            let p = <games::ataxx4::Position as Rules>::from_fen(&fen).map_err(bad)?;
            choose_generic(level, &p, seed)
        }
    }
}

fn unknown(level: &str, kind: GameKind) -> ChooseError {
    let names = match kind {
        GameKind::Ataxx => crate::LEVELS.map(|l| l.name).join(", "),
        _ => super::variant_levels(kind)
            .iter()
            .map(|l| l.name)
            .collect::<Vec<_>>()
            .join(", "),
    };
    ChooseError::UnknownLevel {
        level: level.to_string(),
        game: kind,
        names,
    }
}

/// The move of `level` (any generic level, in a table or not) in `pos`, for any game.
pub fn choose_with(
    level: &GenericLevel,
    pos: &dyn AnyPosition,
    seed: u64,
) -> Result<String, ChooseError> {
    fn run<R: Rules>(level: &GenericLevel, pos: &R, seed: u64) -> Result<String, ChooseError> {
        level
            .choose(pos, &mut ChaCha8Rng::seed_from_u64(seed))
            .map(|mv| mv.to_string())
            .ok_or(ChooseError::GameOver)
    }
    let fen = pos.fen();
    let bad = |e: games::GameError| ChooseError::Position(e.to_string());
    match pos.kind() {
        GameKind::Ataxx => run(
            level,
            &<ataxx::Position as Rules>::from_fen(&fen).map_err(bad)?,
            seed,
        ),
        GameKind::Hexxagon => run(
            level,
            &games::hexxagon::Position::from_fen(&fen).map_err(bad)?,
            seed,
        ),
        GameKind::Ataxx4 => run(
            level,
            &<games::ataxx4::Position as Rules>::from_fen(&fen).map_err(bad)?,
            seed,
        ),
    }
}

/// A generic level's move in a position of a statically known game.
pub fn choose_generic<R: Rules>(level: &str, pos: &R, seed: u64) -> Result<String, ChooseError> {
    let found = GenericLevel::find(R::KIND, level).ok_or_else(|| unknown(level, R::KIND))?;
    found
        .choose(pos, &mut ChaCha8Rng::seed_from_u64(seed))
        .map(|mv| mv.to_string())
        .ok_or(ChooseError::GameOver)
}

impl GenericLevel {
    /// This level's move in `pos`; `None` once the game is over.
    pub fn choose<R: Rules>(&self, pos: &R, rng: &mut ChaCha8Rng) -> Option<R::Move> {
        match self.strength {
            GenericStrength::Random => random_move(pos, rng),
            GenericStrength::Greedy => greedy_move(pos, rng),
            GenericStrength::Search { depth } => {
                let limits = Limits {
                    depth,
                    max_nodes: Some(NODE_LIMIT),
                    deadline: None,
                };
                paranoid_search(pos, limits, rng).map(|o| o.best)
            }
        }
    }
}

/// A search of `pos` (any game) at most `depth` plies deep, stopping by `deadline` if given:
/// the move text and the score for the mover. What UAI's `go` uses for the variants.
pub fn search_any(
    pos: &dyn AnyPosition,
    depth: u32,
    deadline: Option<std::time::Instant>,
    seed: u64,
) -> Result<(String, i32), ChooseError> {
    fn run<R: Rules>(
        pos: &R,
        depth: u32,
        deadline: Option<std::time::Instant>,
        seed: u64,
    ) -> Result<(String, i32), ChooseError> {
        let limits = Limits {
            depth,
            max_nodes: None,
            deadline,
        };
        paranoid_search(pos, limits, &mut ChaCha8Rng::seed_from_u64(seed))
            .map(|o| (o.best.to_string(), o.score))
            .ok_or(ChooseError::GameOver)
    }
    let fen = pos.fen();
    let bad = |e: games::GameError| ChooseError::Position(e.to_string());
    match pos.kind() {
        GameKind::Ataxx => run(
            &<ataxx::Position as Rules>::from_fen(&fen).map_err(bad)?,
            depth,
            deadline,
            seed,
        ),
        GameKind::Hexxagon => run(
            &games::hexxagon::Position::from_fen(&fen).map_err(bad)?,
            depth,
            deadline,
            seed,
        ),
        GameKind::Ataxx4 => run(
            &<games::ataxx4::Position as Rules>::from_fen(&fen).map_err(bad)?,
            depth,
            deadline,
            seed,
        ),
    }
}

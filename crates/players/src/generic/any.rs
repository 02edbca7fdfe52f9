//! The dynamic entry point: a level's move for a position whose game is known at run time.

use std::time::{Duration, Instant};

use games::{AnyPosition, GameKind, Rules, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::dispatch::{on_concrete, ChooseError, OnGame};
use super::eval::Evaluate;
use super::greedy::greedy_move;
use super::levels::{GenericLevel, GenericStrength};
use super::lines::line_from;
use super::random::random_move;
use super::search::{paranoid_search, search_with, value_for, Judge, Limits};
use crate::levels::{Level, LEVELS};

/// The move (in the game's canonical text) that level `level` plays in `pos`, for any game:
/// it looks the level up in the table of `pos.kind()` (square Ataxx: [`LEVELS`], the
/// six levels very-easy … master; the other games: their generic tables) and lets that player
/// choose. Random choices follow `seed`: the same call gives the same move.
///
/// This is what the server's bots call; they never need to know which game they play.
pub fn choose_any(level: &str, pos: &dyn AnyPosition, seed: u64) -> Result<String, ChooseError> {
    let kind = pos.kind();
    if kind == GameKind::Ataxx {
        let found: &'static Level = level.parse().map_err(|_| unknown(level, kind))?;
        let square = ataxx::Position::from_fen(&pos.fen())
            .map_err(|e| ChooseError::Position(e.to_string()))?;
        return found
            .player(seed)
            .choose(&square)
            .map(|mv| mv.to_string())
            .ok_or(ChooseError::GameOver);
    }
    struct Named<'a>(&'a str, u64);
    impl OnGame for Named<'_> {
        type Output = String;
        fn run<R: Evaluate>(self, pos: &R) -> Result<String, ChooseError> {
            choose_generic(self.0, pos, self.1)
        }
    }
    on_concrete(pos, Named(level, seed))
}

/// Whether the level named `level` plays `kind` (square Ataxx has its six levels, the other
/// games their generic tables): what a bot checks before it accepts a challenge.
///
/// ```
/// use games::GameKind;
/// assert!(ataxx_players::plays("master", GameKind::Ataxx));
/// assert!(ataxx_players::plays("easy", GameKind::Hexxagon));
/// assert!(!ataxx_players::plays("master", GameKind::Ataxx4));
/// assert!(!ataxx_players::plays("medium", GameKind::Ataxx4));
/// ```
pub fn plays(level: &str, kind: GameKind) -> bool {
    description(level, kind).is_some()
}

/// How the level named `level` plays `kind`, in a line for people choosing an opponent; `None`
/// where it does not play that game. A level of the same name plays each game its own way.
///
/// ```
/// use games::GameKind;
/// assert_eq!(
///     ataxx_players::description("easy", GameKind::Ataxx),
///     Some("takes the move that leaves it the most pieces, never looks ahead"),
/// );
/// assert_eq!(
///     ataxx_players::description("easy", GameKind::Ataxx4),
///     Some("most own pieces less the strongest opponent's, one move ahead"),
/// );
/// assert_eq!(ataxx_players::description("master", GameKind::Hexxagon), None);
/// ```
pub fn description(level: &str, kind: GameKind) -> Option<&'static str> {
    match kind {
        GameKind::Ataxx => level
            .parse::<&'static Level>()
            .ok()
            .map(|found| found.description),
        _ => GenericLevel::find(kind, level).map(|found| found.description),
    }
}

fn unknown(level: &str, kind: GameKind) -> ChooseError {
    let names = match kind {
        GameKind::Ataxx => LEVELS.map(|l| l.name).join(", "),
        _ => super::levels::variant_levels(kind)
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
    struct With<'a>(&'a GenericLevel, u64);
    impl OnGame for With<'_> {
        type Output = String;
        fn run<R: Evaluate>(self, pos: &R) -> Result<String, ChooseError> {
            self.0
                .choose(pos, &mut ChaCha8Rng::seed_from_u64(self.1))
                .map(|mv| mv.to_string())
                .ok_or(ChooseError::GameOver)
        }
    }
    on_concrete(pos, With(level, seed))
}

/// A generic level's move in a position of a statically known game.
pub fn choose_generic<R: Evaluate>(level: &str, pos: &R, seed: u64) -> Result<String, ChooseError> {
    let found = GenericLevel::find(R::KIND, level).ok_or_else(|| unknown(level, R::KIND))?;
    found
        .choose(pos, &mut ChaCha8Rng::seed_from_u64(seed))
        .map(|mv| mv.to_string())
        .ok_or(ChooseError::GameOver)
}

impl GenericLevel {
    /// This level's move in `pos`; `None` once the game is over.
    pub fn choose<R: Evaluate>(&self, pos: &R, rng: &mut ChaCha8Rng) -> Option<R::Move> {
        match self.strength {
            GenericStrength::Random => random_move(pos, rng),
            GenericStrength::Greedy => greedy_move(pos, rng),
            GenericStrength::Search {
                depth,
                nodes,
                millis,
            } => bounded(pos, depth, nodes, millis, Judge::Strongest, rng),
            GenericStrength::SearchAgainstAll {
                depth,
                nodes,
                millis,
            } => bounded(pos, depth, nodes, millis, Judge::AllRivals, rng),
        }
    }
}

/// A search of `pos` deepening to `depth` plies within `nodes` nodes and `millis` ms.
fn bounded<R: Evaluate>(
    pos: &R,
    depth: u32,
    nodes: u64,
    millis: u64,
    judge: Judge,
    rng: &mut ChaCha8Rng,
) -> Option<R::Move> {
    let limits = Limits {
        depth,
        max_nodes: Some(nodes),
        deadline: Some(Instant::now() + Duration::from_millis(millis)),
    };
    search_with(pos, limits, judge, rng).map(|o| o.best)
}

/// A search of `pos` (any game) at most `depth` plies deep, stopping by `deadline` if given:
/// the move text and the score for the mover. What UAI's `go` uses for the variants.
pub fn search_any(
    pos: &dyn AnyPosition,
    depth: u32,
    deadline: Option<std::time::Instant>,
    seed: u64,
) -> Result<(String, i32), ChooseError> {
    struct Search(u32, Option<std::time::Instant>, u64);
    impl OnGame for Search {
        type Output = (String, i32);
        fn run<R: Evaluate>(self, pos: &R) -> Result<(String, i32), ChooseError> {
            let limits = Limits {
                depth: self.0,
                max_nodes: None,
                deadline: self.1,
            };
            paranoid_search(pos, limits, &mut ChaCha8Rng::seed_from_u64(self.2))
                .map(|o| (o.best.to_string(), o.score))
                .ok_or(ChooseError::GameOver)
        }
    }
    on_concrete(pos, Search(depth, deadline, seed))
}

/// How a game's strongest level searches: its depth, its bounds, and whom it judges the mover
/// against. The computer analysis of the games without an engine of their own uses it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StrongestSearch {
    pub depth: u32,
    pub nodes: u64,
    pub millis: u64,
    pub judge: Judge,
}

/// The search of `kind`'s strongest generic level (the last searching level of its table).
///
/// ```
/// use games::GameKind;
/// let search = ataxx_players::generic::strongest_search(GameKind::Ataxx4).unwrap();
/// assert_eq!((search.depth, search.judge), (4, ataxx_players::generic::Judge::AllRivals));
/// ```
pub fn strongest_search(kind: GameKind) -> Option<StrongestSearch> {
    let found = |depth, nodes, millis, judge| {
        Some(StrongestSearch {
            depth,
            nodes,
            millis,
            judge,
        })
    };
    super::levels::variant_levels(kind)
        .iter()
        .rev()
        .find_map(|level| match level.strength {
            GenericStrength::Search {
                depth,
                nodes,
                millis,
            } => found(depth, nodes, millis, Judge::Strongest),
            GenericStrength::SearchAgainstAll {
                depth,
                nodes,
                millis,
            } => found(depth, nodes, millis, Judge::AllRivals),
            _ => None,
        })
}

/// A position's analysis: the best move for the seat to move, its score for that seat, and the
/// line it starts (the best move first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub best: String,
    pub score: i32,
    pub line: Vec<String>,
    /// The deepest iteration the search completed.
    pub depth: u32,
}

/// Searches `pos` (any game) within `limits`, judging as `judge` says, and follows its best move
/// with the moves the same search, one ply shallower each time, answers with: at most
/// `line_len` moves in all. [`ChooseError::GameOver`] once the game is over.
pub fn analyse_any(
    pos: &dyn AnyPosition,
    limits: Limits,
    judge: Judge,
    line_len: usize,
    seed: u64,
) -> Result<Analysis, ChooseError> {
    struct Analyse(Limits, Judge, usize, u64);
    impl OnGame for Analyse {
        type Output = Analysis;
        fn run<R: Evaluate>(self, pos: &R) -> Result<Analysis, ChooseError> {
            let Analyse(limits, judge, line_len, seed) = self;
            let rng = &mut ChaCha8Rng::seed_from_u64(seed);
            let found = search_with(pos, limits, judge, rng).ok_or(ChooseError::GameOver)?;
            let mut line = vec![found.best.to_string()];
            let mut next = pos.clone();
            next.play(found.best);
            let rest = line_len.saturating_sub(1);
            let depth = found.depth.saturating_sub(1);
            line.extend(line_from(&next, depth, rest, limits, judge, None, rng));
            Ok(Analysis {
                best: found.best.to_string(),
                score: found.score,
                line,
                depth: found.depth,
            })
        }
    }
    on_concrete(pos, Analyse(limits, judge, line_len, seed))
}

/// The value of `pos` for `seat` (to move or not) by [`value_for`]: what a move left its
/// mover when another seat moves next.
pub fn value_for_any(
    pos: &dyn AnyPosition,
    seat: Seat,
    limits: Limits,
    judge: Judge,
) -> Result<i32, ChooseError> {
    struct ValueFor(Seat, Limits, Judge);
    impl OnGame for ValueFor {
        type Output = i32;
        fn run<R: Evaluate>(self, pos: &R) -> Result<i32, ChooseError> {
            Ok(value_for(pos, self.0, self.1, self.2))
        }
    }
    on_concrete(pos, ValueFor(seat, limits, judge))
}

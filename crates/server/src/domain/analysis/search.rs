//! One position of a game searched at the analysis budget, for any game: square Ataxx with the
//! engine, the other games with their strongest level's search
//! ([`ataxx_players::generic::strongest_search`]). Scores are stored on one scale (hundredths
//! of a piece, forced ends near [`FORCED_END`]), so that the judgement (judge.rs) is the same
//! for every game.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use ataxx_players::generic::{self, StrongestSearch};
use engine::net_eval::NetEval;
use engine::search::Engine;
use engine::time::Limits as EngineLimits;
use games::{AnyPosition, GameKind, Seat};

use crate::model::{AnalysedPosition, StoredScore, FORCED_END};

/// The engine's transposition table per analysis worker, in MiB.
pub(super) const HASH_MIB: usize = 16;

/// The most moves of a line kept: the engine's principal variation is cut there, and the other
/// games' lines (one search per move) stop there.
pub(super) const ENGINE_LINE: usize = 8;
pub(super) const GENERIC_LINE: usize = 4;

/// A worker's searcher: the engine, whose table it keeps from position to position.
pub struct Searcher {
    engine: Engine<NetEval>,
    /// Nodes per position.
    nodes: u64,
}

impl Searcher {
    pub fn new(nodes: u64) -> Searcher {
        Searcher {
            engine: Engine::new(NetEval::builtin(), HASH_MIB),
            nodes: nodes.max(1),
        }
    }

    /// Forgets the last game (a new job).
    pub fn clear(&mut self) {
        self.engine.clear();
    }

    /// Analyses `pos`, the position `ply` plies into its game, reached by a move of `mover`
    /// (None at the start): the best move for the seat to move, its score and line, and the
    /// position's score for the mover.
    pub fn position(
        &mut self,
        pos: &dyn AnyPosition,
        mover: Option<Seat>,
        ply: i64,
        stop: &AtomicBool,
    ) -> AnalysedPosition {
        if let Some(outcome) = pos.outcome() {
            let score = mover.map_or(0, |seat| match (outcome.rank(seat), outcome.winner()) {
                (1, Some(_)) => FORCED_END,
                (1, None) => 0,
                _ => -FORCED_END,
            });
            return AnalysedPosition {
                ply,
                score,
                mover_score: mover.map(|_| score),
                best: String::new(),
                line: vec![],
            };
        }
        let (best, score, line) = match pos.kind() {
            GameKind::Ataxx => self.engine_search(pos, stop),
            kind => self.generic_search(pos, kind, ply),
        };
        let mover_score = mover.map(|seat| match pos.seats() {
            // Two seats: what one gains the other loses.
            2 if pos.turn() == seat => score,
            2 => -score,
            _ => self.value_for(pos, seat),
        });
        AnalysedPosition {
            ply,
            score,
            mover_score,
            best,
            line,
        }
    }

    fn engine_search(
        &mut self,
        pos: &dyn AnyPosition,
        stop: &AtomicBool,
    ) -> (String, StoredScore, Vec<String>) {
        let square: &ataxx::Position = pos
            .as_any()
            .downcast_ref()
            .expect("a square Ataxx position is an ataxx::Position");
        let limits = EngineLimits {
            nodes: Some(self.nodes),
            ..EngineLimits::default()
        };
        let report = self.engine.search(square, &limits, stop, |_| {});
        let line: Vec<String> = report
            .pv
            .iter()
            .take(ENGINE_LINE)
            .map(|mv| mv.to_string())
            .collect();
        (
            report.best_move().to_string(),
            engine_score(report.score),
            line,
        )
    }

    fn limits(&self, kind: GameKind) -> (generic::Limits, generic::Judge) {
        let strongest = strongest(kind);
        let limits = generic::Limits {
            depth: strongest.depth,
            max_nodes: Some(self.nodes.min(strongest.nodes)),
            deadline: Some(Instant::now() + Duration::from_millis(strongest.millis)),
        };
        (limits, strongest.judge)
    }

    fn generic_search(
        &mut self,
        pos: &dyn AnyPosition,
        kind: GameKind,
        ply: i64,
    ) -> (String, StoredScore, Vec<String>) {
        let (limits, judge) = self.limits(kind);
        match generic::analyse_any(pos, limits, judge, GENERIC_LINE, ply as u64) {
            Ok(found) => (found.best, generic_score(kind, found.score), found.line),
            // Not over (checked above), so there is a move; a pass at the least.
            Err(_) => (String::from("0000"), 0, vec![]),
        }
    }

    fn value_for(&mut self, pos: &dyn AnyPosition, seat: Seat) -> StoredScore {
        let (limits, judge) = self.limits(pos.kind());
        generic::value_for_any(pos, seat, limits, judge)
            .map_or(0, |value| generic_score(pos.kind(), value))
    }
}

/// The search of `kind`'s strongest level; every game without the engine has one.
pub(super) fn strongest(kind: GameKind) -> StrongestSearch {
    generic::strongest_search(kind).expect("every game's table has a searching level")
}

/// An engine's score on the stored scale.
pub(super) fn engine_score(score: i32) -> StoredScore {
    match engine::score::is_decisive(score) {
        true => forced(score, engine::score::WIN),
        false => StoredScore::from(score),
    }
}

/// A forced end scored `score` by a search whose game-won score is `win`, on the stored scale.
fn forced(score: i32, win: i32) -> StoredScore {
    let plies = StoredScore::from(win - score.abs());
    StoredScore::from(score.signum()) * (FORCED_END - plies)
}

/// A generic search's score on the stored scale: its unit per piece (Hexxagon: 1 per piece of
/// margin; four-player Ataxx's judge against all: 12 per own piece, so 12; Ankor: already
/// hundredths of a cube of connection distance).
pub(super) fn generic_score(kind: GameKind, score: i32) -> StoredScore {
    if score.abs() >= generic::WIN - 1000 {
        return forced(score, generic::WIN);
    }
    let score = StoredScore::from(score);
    match kind {
        GameKind::Hexxagon => score * 100,
        GameKind::Ataxx4 => score * 100 / 12,
        _ => score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_gets_a_legal_best_move_and_its_line_starts_with_it() {
        let mut searcher = Searcher::new(2_000);
        for kind in GameKind::ALL {
            let start = kind.start(&Default::default()).unwrap();
            let found = searcher.position(start.as_ref(), None, 0, &AtomicBool::new(false));
            assert!(
                start.legal_moves().contains(&found.best),
                "{kind}: {found:?}"
            );
            assert_eq!(found.line.first(), Some(&found.best), "{kind}");
            assert_eq!(found.mover_score, None);
        }
    }

    #[test]
    fn forced_ends_keep_their_distance() {
        assert_eq!(
            forced(engine::score::WIN - 3, engine::score::WIN),
            FORCED_END - 3
        );
        assert_eq!(forced(-(generic::WIN - 5), generic::WIN), -(FORCED_END - 5));
        assert_eq!(generic_score(GameKind::Hexxagon, -3), -300);
    }
}

//! One position's best lines as the depth grows, for any game: square Ataxx with the engine's
//! multi-line search, the other games with their strongest level's search (its judge) deepened
//! one ply at a time past its own depth. Each completed depth becomes [`LiveLines`]: scores on
//! the stored scale (search.rs) read as the game analysis reads them (judge.rs), in pieces and
//! as winning chances.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use ataxx_players::generic;
use engine::net_eval::NetEval;
use engine::search::{Engine, LinesReport};
use engine::time::Limits as EngineLimits;
use games::{AnyPosition, GameKind};

use super::judge::{chances, forced_end, pieces};
use super::search::{engine_score, generic_score, strongest, ENGINE_LINE, GENERIC_LINE, HASH_MIB};
use crate::model::{LiveLine, LiveLines, StoredScore};

/// The lines shown per position.
pub const LINES: usize = 3;

/// How far one position is searched.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    pub time: Duration,
    /// Plies; a small board reaches it and stops rather than deepening without end.
    pub depth: u32,
}

/// Searches `pos` (a game not over) until `bounds` or `stop`, handing every completed depth to
/// `on_depth`.
pub fn search(
    pos: &dyn AnyPosition,
    bounds: Bounds,
    stop: &AtomicBool,
    on_depth: &mut dyn FnMut(LiveLines),
) {
    let kind = pos.kind();
    let lines = |depth: u32, nodes: u64, lines: Vec<LiveLine>| LiveLines {
        game: kind.name().to_string(),
        fen: pos.fen(),
        depth,
        nodes,
        lines,
    };
    if let Some(square) = pos.as_any().downcast_ref::<ataxx::Position>() {
        let limits = EngineLimits {
            movetime: Some(bounds.time),
            depth: Some(i32::try_from(bounds.depth).unwrap_or(i32::MAX)),
            ..EngineLimits::default()
        };
        let mut engine = Engine::new(NetEval::builtin(), HASH_MIB);
        engine.search_lines(square, LINES, &limits, stop, |report: &LinesReport| {
            let found = report.lines.iter().map(|line| {
                let moves = line.pv.iter().take(ENGINE_LINE).map(|mv| mv.to_string());
                live_line(kind, engine_score(line.score), moves.collect())
            });
            on_depth(lines(report.depth as u32, report.nodes, found.collect()));
        });
        return;
    }
    let wanted = generic::LinesWanted {
        limits: generic::Limits {
            depth: bounds.depth,
            max_nodes: None,
            deadline: Some(Instant::now() + bounds.time),
        },
        judge: strongest(kind).judge,
        count: LINES,
        line_len: GENERIC_LINE,
    };
    // Over (the caller checked) or a position of an unexpected type: nothing to report.
    let _ = generic::search_lines_any(pos, wanted, stop, &mut |report| {
        let found = report
            .lines
            .iter()
            .map(|line| live_line(kind, generic_score(kind, line.score), line.line.clone()));
        on_depth(lines(report.depth, report.nodes, found.collect()));
    });
}

/// A line whose first move scores `score` (stored scale) for the seat to move.
fn live_line(kind: GameKind, score: StoredScore, line: Vec<String>) -> LiveLine {
    let round = |value: f64, places: i32| {
        let scale = 10f64.powi(places);
        (value * scale).round() / scale
    };
    LiveLine {
        mv: line.first().cloned().unwrap_or_default(),
        score: round(pieces(score), 2),
        win_in: forced_end(score),
        win_chance: round((1.0 + chances(kind, score)) / 2.0, 3),
        line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FORCED_END;

    #[test]
    fn a_score_reads_as_the_game_analysis_reads_it() {
        let even = live_line(GameKind::Ataxx, 0, vec!["b6".into(), "f2".into()]);
        assert_eq!(
            (even.mv.as_str(), even.score, even.win_chance),
            ("b6", 0.0, 0.5)
        );
        // 5 pieces up: chances 0.4621 (judge.rs), so 73.1 % to win.
        let ahead = live_line(GameKind::Hexxagon, 500, vec!["a1".into()]);
        assert_eq!(
            (ahead.score, ahead.win_chance, ahead.win_in),
            (5.0, 0.731, None)
        );
        let lost = live_line(GameKind::Ankor, -(FORCED_END - 3), vec!["d3".into()]);
        assert_eq!(
            (lost.score, lost.win_chance, lost.win_in),
            (-997.0, 0.0, Some(-3))
        );
    }

    #[test]
    fn every_game_gets_deeper_lines_of_distinct_legal_moves() {
        let bounds = Bounds {
            time: Duration::from_secs(20),
            depth: 3,
        };
        for kind in GameKind::ALL {
            let start = kind.start(&Default::default()).unwrap();
            let legal = start.legal_moves();
            let mut depths = vec![];
            search(
                start.as_ref(),
                bounds,
                &AtomicBool::new(false),
                &mut |found| {
                    assert_eq!(
                        (found.game.as_str(), found.fen.clone()),
                        (kind.name(), start.fen())
                    );
                    let mut moves: Vec<&String> = found.lines.iter().map(|l| &l.mv).collect();
                    assert!(
                        moves.iter().all(|mv| legal.contains(mv)),
                        "{kind}: {moves:?}"
                    );
                    moves.sort();
                    moves.dedup();
                    assert_eq!(moves.len(), LINES, "{kind}");
                    depths.push(found.depth);
                },
            );
            assert_eq!(depths, [1, 2, 3], "{kind}");
        }
    }
}

//! Multi-line search (MultiPV, for analysis): the best few root moves, each with its score and
//! line, after every completed iteration.
//!
//! Each iteration searches the root once per line. The `k`-th search leaves out the root moves
//! the searches before it chose at this depth, so its best move is the `k`-th best and its
//! score that move's own (as exact as the pruning of a single search). A search that leaves
//! root moves out stores no root entry in the transposition table: its score is not the
//! position's. Each line's aspiration window is centred on the score of the line of the same
//! rank one iteration before. The main thread alone searches (helper threads would sharpen the
//! best line only).

use std::cmp::Reverse;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use ataxx::{Move, Position};

use super::{Engine, Searcher};
use crate::eval::Evaluator;
use crate::score::{self, MAX_PLY};
use crate::time::{Limits, TimeManager};

/// One of the best root moves: its score and the line it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// For the side to move at the root (see [`crate::score`]).
    pub score: i32,
    /// Starts with the root move; never empty.
    pub pv: Vec<Move>,
}

impl Line {
    /// The root move the line starts with.
    pub fn first_move(&self) -> Move {
        self.pv[0]
    }
}

/// A completed iteration of a multi-line search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinesReport {
    pub depth: i32,
    pub seldepth: usize,
    pub nodes: u64,
    pub time: Duration,
    /// Best first, each root move once; as many as asked for, or every legal move when there
    /// are fewer; none once the game is over.
    pub lines: Vec<Line>,
}

impl<E: Evaluator> Engine<E> {
    /// Iterative deepening that reports the best `count` root moves (at least one) after each
    /// completed iteration, until a limit is reached or `stop` is set. The answer is the last
    /// completed iteration (depth 0 and no lines when the game is over).
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use ataxx::Position;
    /// use engine::{eval::HandCrafted, search::Engine, time::Limits};
    /// let mut engine = Engine::new(HandCrafted::default(), 1);
    /// let limits = Limits { depth: Some(3), ..Limits::default() };
    /// let report = engine.search_lines(&Position::startpos(), 3, &limits, &AtomicBool::new(false), |_| {});
    /// assert_eq!((report.depth, report.lines.len()), (3, 3));
    /// assert!(report.lines[0].score >= report.lines[2].score);
    /// ```
    pub fn search_lines(
        &mut self,
        pos: &Position,
        count: usize,
        limits: &Limits,
        stop: &AtomicBool,
        mut on_iteration: impl FnMut(&LinesReport),
    ) -> LinesReport {
        let start = Instant::now();
        let mut last = LinesReport {
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time: Duration::ZERO,
            lines: vec![],
        };
        let moves = pos.legal_moves().len();
        if pos.outcome().is_some() || moves == 0 {
            return last;
        }
        let count = count.clamp(1, moves);
        self.tt.new_search();
        self.tables.new_search();
        let mut main = Searcher::new(
            &self.eval,
            &self.tt,
            &mut self.tables,
            stop,
            TimeManager::new(limits, start),
            limits.nodes.unwrap_or(u64::MAX).max(1),
            &self.reductions,
            pos,
        );
        let max_depth = limits
            .depth
            .filter(|_| !limits.infinite)
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        'deepening: for depth in 1..=max_depth {
            main.seldepth = 0;
            let mut lines: Vec<Line> = Vec::with_capacity(count);
            for rank in 0..count {
                let previous = last.lines.get(rank).map_or(0, |line| line.score);
                let score = main.aspiration(pos, depth, previous);
                if main.aborted {
                    break 'deepening;
                }
                let pv = main.pv[0][..main.pv_len[0]].to_vec();
                let Some(&first) = pv.first() else { break };
                main.root_excluded.push(first);
                lines.push(Line { score, pv });
            }
            main.root_excluded.clear();
            lines.sort_by_key(|line| Reverse(line.score));
            let decided = lines.iter().all(|line| {
                score::is_decisive(line.score) && depth > score::WIN - line.score.abs()
            });
            last = LinesReport {
                depth,
                seldepth: main.seldepth,
                nodes: main.nodes,
                time: start.elapsed(),
                lines,
            };
            on_iteration(&last);
            // Once every line is a forced end seen to its end, deeper iterations find the same.
            if main.check_abort() || main.time.soft_expired() || decided {
                break;
            }
        }
        last.nodes = main.nodes;
        last.time = start.elapsed();
        last
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::HandCrafted;
    use crate::score::win_in;

    fn at_depth(depth: i32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    fn lines(fen: &str, count: usize, depth: i32) -> LinesReport {
        let mut engine = Engine::new(HandCrafted::default(), 4);
        engine.search_lines(
            &fen.parse().unwrap(),
            count,
            &at_depth(depth),
            &AtomicBool::new(false),
            |_| {},
        )
    }

    const POSITIONS: [&str; 3] = [
        "x5o/7/7/7/7/7/o5x x 0 1",
        "x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1",
        "7/1xx4/1oxo3/2ox3/3o3/7/7 x 0 9",
    ];

    #[test]
    fn one_ply_deep_the_lines_are_the_best_children_by_their_evaluation() {
        // At depth 1 every child is a leaf scored by the evaluation, so the lines are known
        // exactly: the three best of -evaluate(child), each with its own move's score.
        let eval = HandCrafted::default();
        for fen in POSITIONS {
            let pos: Position = fen.parse().unwrap();
            let value = |mv: Move| {
                let mut child = pos;
                child.play_unchecked(mv);
                -eval.evaluate(&child)
            };
            let mut expected: Vec<i32> = pos.legal_moves().into_iter().map(value).collect();
            expected.sort_by_key(|&s| Reverse(s));
            let report = lines(fen, 3, 1);
            let scores: Vec<i32> = report.lines.iter().map(|l| l.score).collect();
            assert_eq!(scores, expected[..3], "{fen}");
            for line in &report.lines {
                assert_eq!(value(line.first_move()), line.score, "{fen}: {line:?}");
            }
        }
    }

    #[test]
    fn every_iteration_reports_distinct_legal_root_moves_best_first() {
        for fen in POSITIONS {
            let pos: Position = fen.parse().unwrap();
            let mut engine = Engine::new(HandCrafted::default(), 4);
            let mut depths = vec![];
            engine.search_lines(&pos, 3, &at_depth(6), &AtomicBool::new(false), |report| {
                depths.push(report.depth);
                let firsts: Vec<Move> = report.lines.iter().map(Line::first_move).collect();
                assert_eq!(firsts.len(), 3, "{fen}");
                assert!(
                    firsts.iter().all(|&mv| pos.is_legal(mv)),
                    "{fen}: {firsts:?}"
                );
                assert!(
                    firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
                    "{fen}: {firsts:?}"
                );
                assert!(report.lines.windows(2).all(|w| w[0].score >= w[1].score));
                for line in &report.lines {
                    let mut after = pos;
                    for &mv in &line.pv {
                        after.play(mv).unwrap();
                    }
                }
            });
            assert_eq!(depths, [1, 2, 3, 4, 5, 6], "{fen}");
        }
    }

    #[test]
    fn asked_for_more_lines_than_moves_it_gives_every_move_once() {
        // x alone on a1 against o on g7: its three singles and five jumps are a line each.
        let fen = "6o/7/7/7/7/7/x6 x 0 1";
        let pos: Position = fen.parse().unwrap();
        let report = lines(fen, 64, 3);
        let mut found: Vec<String> = report
            .lines
            .iter()
            .map(|l| l.first_move().to_string())
            .collect();
        let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        found.sort();
        legal.sort();
        assert_eq!(found, legal);
    }

    #[test]
    fn the_best_line_scores_as_the_single_line_search_at_the_same_depth() {
        // Measured: equal through depth 5 on these two positions and through depth 3 on the
        // third. Deeper, the other lines' searches have filled the table and the move-ordering
        // history differently from a single-line search, and the pruning (reductions, futility)
        // then cuts other subtrees: the third position's best line scores 2.23 at depth 4 where
        // the single line scores 1.71. Neither is the exact value; both are the search's.
        for (fen, deepest) in [(POSITIONS[0], 5), (POSITIONS[1], 5), (POSITIONS[2], 3)] {
            for depth in 1..=deepest {
                let pos: Position = fen.parse().unwrap();
                let single = Engine::new(HandCrafted::default(), 4).search(
                    &pos,
                    &at_depth(depth),
                    &AtomicBool::new(false),
                    |_| {},
                );
                let multi = lines(fen, 3, depth);
                assert_eq!(multi.lines[0].score, single.score, "{fen} at depth {depth}");
            }
        }
    }

    #[test]
    fn a_forced_win_is_the_best_line_and_the_others_follow() {
        // x wins at once by taking o's last piece (b2 or a jump there next to it).
        let fen = "7/7/7/7/7/1o5/x6 x 0 1";
        let report = lines(fen, 3, 4);
        assert_eq!(report.lines[0].score, win_in(1), "{report:?}");
        assert_eq!(report.lines.len(), 3);
    }

    #[test]
    fn a_game_over_has_no_lines_and_a_stop_ends_the_search() {
        assert_eq!(lines("x5o/7/7/7/7/7/o5x x 100 60", 3, 4).lines, vec![]);
        let stop = AtomicBool::new(true);
        let mut engine = Engine::new(HandCrafted::default(), 4);
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let report = engine.search_lines(&Position::startpos(), 3, &infinite, &stop, |_| {});
        // Depth 1 always completes; the stop ends the search right after it.
        assert_eq!((report.depth, report.lines.len()), (1, 3));
    }
}

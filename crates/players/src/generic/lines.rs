//! The best few root moves of any game's search, depth by depth (the analysis board's live
//! lines for the games without an engine of their own), and the line a move starts.
//!
//! Each iteration searches every root move, best-scored first from the iteration before, with
//! alpha one below the `count`-th best score found so far: a move that can enter the best
//! `count` is searched exactly, the others only until they cannot (the single best move's
//! search keeps alpha one below the best, the same idea for `count = 1`). A line is its move
//! followed by the replies the same search finds one ply shallower each time, as the analysis
//! of finished games reads it.

use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, Ordering};

use games::AnyPosition;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::dispatch::{on_concrete, ChooseError, OnGame};
use super::eval::{Evaluate, WIN};
use super::search::{search_until, Judge, Limits, Searcher};
use crate::alpha_beta::Tree;

/// One of the best root moves at a depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLine {
    /// The move, as the game writes it.
    pub mv: String,
    /// Its score for the seat to move at the root.
    pub score: i32,
    /// The line it starts, the move first.
    pub line: Vec<String>,
}

/// What a multi-line search looks for.
#[derive(Copy, Clone, Debug)]
pub struct LinesWanted {
    /// How deep, and its bounds.
    pub limits: Limits,
    pub judge: Judge,
    /// How many root moves (at least one).
    pub count: usize,
    /// The most moves of a line.
    pub line_len: usize,
}

/// A completed depth of [`search_lines_any`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLines {
    pub depth: u32,
    /// Nodes searched so far, lines included.
    pub nodes: u64,
    /// Best first: as many as asked for, or every legal move when there are fewer.
    pub lines: Vec<RootLine>,
}

/// The moves after `pos` that the search finds, `depth` plies deep and one ply shallower each
/// time, at most `len` of them; fewer once the game ends, a depth of 1 is passed, or `stop` is
/// set (its answer then is a shallower one's).
pub(super) fn line_from<R: Evaluate>(
    pos: &R,
    depth: u32,
    len: usize,
    limits: Limits,
    judge: Judge,
    stop: Option<&AtomicBool>,
    rng: &mut ChaCha8Rng,
) -> Vec<String> {
    let mut line = vec![];
    let mut next = pos.clone();
    let mut depth = depth;
    while line.len() < len && depth >= 1 && next.outcome().is_none() {
        let shallower = Limits { depth, ..limits };
        let Some(reply) = search_until(&next, shallower, judge, stop, rng) else {
            break;
        };
        line.push(reply.best.to_string());
        next.play(reply.best);
        depth -= 1;
    }
    line
}

/// Deepens a search of `pos` one ply at a time within `wanted.limits`, reporting after each
/// completed depth the best `wanted.count` root moves with their scores and lines, until a
/// bound, the depth or `stop` ends it, or every line is a forced end. The last report, or None
/// when the game is over.
pub fn search_lines<R: Evaluate>(
    pos: &R,
    wanted: LinesWanted,
    stop: &AtomicBool,
    on_depth: &mut dyn FnMut(&RootLines),
) -> Option<RootLines> {
    let LinesWanted {
        limits,
        judge,
        count,
        line_len,
    } = wanted;
    let mut searcher = Searcher::new(pos.turn(), judge, limits, Some(stop));
    let mut root = searcher.ordered(pos);
    if root.is_empty() {
        return None;
    }
    let count = count.clamp(1, root.len());
    // Ties between replies are broken the same way every time.
    let rng = &mut ChaCha8Rng::seed_from_u64(0);
    let mut last = None;
    for depth in 1..=limits.depth.max(1) {
        let mut scores = Vec::with_capacity(root.len());
        // The best `count` scores so far, best first.
        let mut best: Vec<i32> = Vec::with_capacity(count + 1);
        for child in &root {
            let alpha = match best.get(count - 1) {
                Some(&kth) => kth - 1,
                None => -WIN - 1,
            };
            let value = searcher.child_value(pos, child, depth - 1, 1, alpha, WIN + 1);
            // Depth 1 always completes: its children are leaves.
            if searcher.stopped && depth > 1 {
                return last;
            }
            let at = best.partition_point(|&b| b >= value);
            best.insert(at, value);
            best.truncate(count);
            scores.push(value);
        }
        let mut scored: Vec<_> = scores.into_iter().zip(root).collect();
        scored.sort_by_key(|(score, _)| Reverse(*score));
        let mut lines = Vec::with_capacity(count);
        for (score, (mv, child)) in &scored[..count] {
            let mut line = vec![mv.to_string()];
            let rest = line_len.saturating_sub(1);
            line.extend(line_from(
                child,
                depth - 1,
                rest,
                limits,
                judge,
                Some(stop),
                rng,
            ));
            lines.push(RootLine {
                mv: mv.to_string(),
                score: *score,
                line,
            });
        }
        if stop.load(Ordering::Relaxed) && depth > 1 {
            return last;
        }
        let decided = lines.iter().all(|line| line.score.abs() >= WIN - 1000);
        let report = RootLines {
            depth,
            nodes: searcher.nodes,
            lines,
        };
        on_depth(&report);
        last = Some(report);
        // The next iteration tries the best-scored moves first.
        root = scored.into_iter().map(|(_, child)| child).collect();
        if decided || searcher.stopped {
            break;
        }
    }
    last
}

/// [`search_lines`] for a position of any game. [`ChooseError::GameOver`] once the game is over.
pub fn search_lines_any(
    pos: &dyn AnyPosition,
    wanted: LinesWanted,
    stop: &AtomicBool,
    on_depth: &mut dyn FnMut(&RootLines),
) -> Result<RootLines, ChooseError> {
    struct Lines<'a>(LinesWanted, &'a AtomicBool, &'a mut dyn FnMut(&RootLines));
    impl OnGame for Lines<'_> {
        type Output = RootLines;
        fn run<R: Evaluate>(self, pos: &R) -> Result<RootLines, ChooseError> {
            let Lines(wanted, stop, on_depth) = self;
            search_lines(pos, wanted, stop, on_depth).ok_or(ChooseError::GameOver)
        }
    }
    on_concrete(pos, Lines(wanted, stop, on_depth))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generic::search_with;
    use games::GameKind;

    fn start(kind: GameKind) -> Box<dyn AnyPosition> {
        kind.start(&Default::default()).unwrap()
    }

    /// Three lines of `line_len` moves, `depth` plies deep.
    fn wanted(depth: u32, judge: Judge, line_len: usize) -> LinesWanted {
        LinesWanted {
            limits: Limits::depth(depth),
            judge,
            count: 3,
            line_len,
        }
    }

    #[test]
    fn every_game_gets_distinct_legal_lines_best_first_at_every_depth() {
        for kind in [GameKind::Hexxagon, GameKind::Ataxx4, GameKind::Ankor] {
            let pos = start(kind);
            let legal = pos.legal_moves();
            let mut depths = vec![];
            let found = search_lines_any(
                pos.as_ref(),
                wanted(3, Judge::AllRivals, 4),
                &AtomicBool::new(false),
                &mut |report| {
                    depths.push(report.depth);
                    let moves: Vec<&str> = report.lines.iter().map(|l| l.mv.as_str()).collect();
                    assert_eq!(moves.len(), 3.min(legal.len()), "{kind}");
                    assert!(
                        moves.iter().all(|mv| legal.iter().any(|l| l == mv)),
                        "{kind}"
                    );
                    let mut distinct = moves.clone();
                    distinct.dedup();
                    distinct.sort();
                    distinct.dedup();
                    assert_eq!(distinct.len(), moves.len(), "{kind}: {moves:?}");
                    assert!(report.lines.windows(2).all(|w| w[0].score >= w[1].score));
                    for line in &report.lines {
                        assert_eq!(line.line.first(), Some(&line.mv), "{kind}");
                        let mut after = pos.clone_box();
                        for mv in &line.line {
                            after.play(mv).unwrap();
                        }
                    }
                },
            )
            .unwrap();
            assert_eq!(depths, [1, 2, 3], "{kind}");
            assert_eq!(found.depth, 3);
        }
    }

    #[test]
    fn the_best_line_scores_as_the_single_best_move_search() {
        // Both searches are exact for the best move, so they agree on its score at every depth.
        let mut any = start(GameKind::Hexxagon);
        for _ in 0..4 {
            let mv = any.legal_moves()[0].clone();
            any.play(&mv).unwrap();
        }
        let pos: &games::hexxagon::Position = any.as_any().downcast_ref().unwrap();
        for depth in 1..=3 {
            let limits = Limits::depth(depth);
            let stop = AtomicBool::new(false);
            let wanted = wanted(depth, Judge::Strongest, 1);
            let lines = search_lines(pos, wanted, &stop, &mut |_| {}).unwrap();
            let single = search_with(
                pos,
                limits,
                Judge::Strongest,
                &mut ChaCha8Rng::seed_from_u64(1),
            )
            .unwrap();
            assert_eq!(lines.lines[0].score, single.score, "depth {depth}");
        }
    }

    #[test]
    fn the_lines_are_the_exact_best_scores_of_all_root_moves() {
        // Against a full search of every root move on its own, the three lines are the three
        // best scores, each its own move's.
        let pos = start(GameKind::Hexxagon);
        let pos: &games::hexxagon::Position = pos.as_any().downcast_ref().unwrap();
        let depth = 2;
        let stop = AtomicBool::new(false);
        let found = search_lines(pos, wanted(depth, Judge::Strongest, 1), &stop, &mut |_| {});
        let found = found.unwrap();
        let mut each: Vec<(i32, String)> = games::Rules::legal_moves(pos)
            .into_iter()
            .map(|mv| {
                let mut child = *pos;
                games::Rules::play(&mut child, mv);
                let me = games::Rules::turn(pos);
                let mut searcher = Searcher::new(me, Judge::Strongest, Limits::depth(depth), None);
                let value =
                    searcher.child_value(pos, &(mv, child), depth - 1, 1, -WIN - 1, WIN + 1);
                (value, mv.to_string())
            })
            .collect();
        each.sort_by_key(|(score, _)| Reverse(*score));
        for line in &found.lines {
            assert!(each.contains(&(line.score, line.mv.clone())), "{line:?}");
        }
        let scores: Vec<i32> = found.lines.iter().map(|l| l.score).collect();
        let best: Vec<i32> = each.iter().take(3).map(|(s, _)| *s).collect();
        assert_eq!(scores, best);
    }

    #[test]
    fn a_stop_ends_the_deepening_after_depth_one_and_a_game_over_has_no_lines() {
        let pos = start(GameKind::Hexxagon);
        let stop = AtomicBool::new(true);
        let found = search_lines_any(
            pos.as_ref(),
            wanted(20, Judge::Strongest, 4),
            &stop,
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(found.depth, 1);
        assert_eq!(found.lines.len(), 3);
    }
}

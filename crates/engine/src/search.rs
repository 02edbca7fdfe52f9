//! Iterative deepening over a negamax principal-variation search.
//!
//! Each node: game-end scores, transposition-table cut-offs, reverse futility pruning, internal
//! iterative reduction when the table has no move, then the moves best-first with late-move
//! pruning, futility pruning and late-move reductions; null-window searches for every move after
//! the first, re-searched when they beat alpha. Ataxx has no quiet moves in the chess sense
//! (every move changes material), so a leaf is scored statically. What a node cuts before its
//! moves, and which moves it skips, reduces or extends, is the `selectivity` module's.
//!
//! With more than one thread (`Threads`), helper threads run the same iterative deepening on
//! the same position, sharing only the transposition table (Lazy SMP): what they store cuts
//! the main thread's tree. The main thread alone keeps time, reports and picks the move.
//!
//! [`Engine::search_lines`] (the `multipv` module) searches the best few root moves instead of
//! one, for analysis.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::thread;
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use ataxx::{Move, Position, HALFMOVE_LIMIT};

use crate::eval::Evaluator;
use crate::nnue::{Accumulator, Network};
use crate::ordering::{MovePicker, OrderingTables};
use crate::score::{self, is_decisive, to_table, win_in, INFINITE, MAX_PLY};
use crate::time::{Limits, TimeManager};
use crate::tt::{Bound, Entry, TranspositionTable};

mod multipv;
mod selectivity;
pub use multipv::{Line, LinesReport};
use selectivity::{MovePruning, Reductions};

/// What a finished iteration found; also the final answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub depth: i32,
    pub seldepth: usize,
    /// For the side to move at the root (see [`crate::score`]).
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
    /// Best line; starts with the move to play. Empty only when the game is over.
    pub pv: Vec<Move>,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
}

impl Report {
    /// The move to play: the first move of the best line, or a pass when there is none.
    pub fn best_move(&self) -> Move {
        self.pv.first().copied().unwrap_or(Move::Pass)
    }

    pub fn nps(&self) -> u64 {
        let secs = self.time.as_secs_f64();
        if secs > 0.0 {
            (self.nodes as f64 / secs) as u64
        } else {
            0
        }
    }
}

// Aspiration windows (scores in hundredths of a piece).
const ASPIRATION_DEPTH: i32 = 4;
const ASPIRATION_WINDOW: i32 = 30;

/// What a node knows before its moves: what the selective search and the move loop share.
struct Node<'p> {
    pos: &'p Position,
    /// `pos`'s hash.
    key: u64,
    /// Once the move loop starts, after internal iterative reduction.
    depth: i32,
    ply: usize,
    pv_node: bool,
    must_pass: bool,
    /// Whether a search to the node's depth before any reduction stays clear of the 100-ply
    /// rule: only then is its result stored.
    clock_safe: bool,
    /// The move a singular search leaves out here, if any.
    excluded: Option<Move>,
    /// Only where the pruning uses it ([`selectivity::uses_static_eval`]); 0 elsewhere.
    static_eval: i32,
    entry: Option<Entry>,
}

impl Node<'_> {
    fn tt_move(&self) -> Option<Move> {
        self.entry.and_then(|e| e.mv)
    }
}

/// The score of a finished game for the side to move at `ply`; `None` while it goes on.
/// `has_move` spares the full test in the usual case.
#[inline]
fn game_end_score(pos: &Position, has_move: bool, ply: usize) -> Option<i32> {
    let may_be_over =
        !has_move || pos.halfmove_clock() >= HALFMOVE_LIMIT || pos.pieces(!pos.turn()).is_empty();
    if !may_be_over {
        return None;
    }
    let outcome = pos.outcome()?;
    Some(match outcome.winner() {
        Some(side) if side == pos.turn() => win_in(ply),
        Some(_) => -win_in(ply),
        None => 0,
    })
}

/// Whether a subtree `depth` plies deep from `pos` stays clear of the 100-ply rule. The hash
/// ignores the halfmove clock: results whose subtree may reach the rule are neither trusted
/// nor stored. An entry's subtree is as deep as the entry, not as the node's search.
#[inline]
fn fits_clock(pos: &Position, depth: i32) -> bool {
    pos.halfmove_clock() as i32 + depth < HALFMOVE_LIMIT as i32
}

/// One search thread's state for one `go`.
struct Searcher<'a, E: Evaluator> {
    eval: &'a E,
    tt: &'a TranspositionTable,
    tables: &'a mut OrderingTables,
    stop: &'a AtomicBool,
    time: TimeManager,
    node_limit: u64,
    nodes: u64,
    next_check: u64,
    seldepth: usize,
    aborted: bool,
    /// Where a helper thread publishes its node count for the main thread's reports.
    published: Option<&'a AtomicU64>,
    reductions: &'a Reductions,
    pv: Box<[[Move; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// The move a singular search at each ply leaves out (the table's move), if any.
    excluded: [Option<Move>; MAX_PLY],
    /// The root moves this search leaves out: those a multi-line search has already reported
    /// at this depth ([`multipv`]).
    root_excluded: Vec<Move>,
    /// The evaluation's network when it covers the board, with the units of the position at
    /// each ply of the current line (copy-make: a child's slot is rewritten from its parent's).
    net: Option<(&'a Network, Box<[Accumulator]>)>,
}

impl<'a, E: Evaluator> Searcher<'a, E> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        eval: &'a E,
        tt: &'a TranspositionTable,
        tables: &'a mut OrderingTables,
        stop: &'a AtomicBool,
        time: TimeManager,
        node_limit: u64,
        reductions: &'a Reductions,
        root: &Position,
    ) -> Self {
        let net = eval
            .network()
            .filter(|_| root.size() == crate::nnue::features::BOARD_SIZE)
            .map(|net| {
                let mut accs = vec![Accumulator::default(); MAX_PLY + 1].into_boxed_slice();
                net.refresh(root, &mut accs[0]);
                (net, accs)
            });
        Searcher {
            eval,
            tt,
            tables,
            stop,
            time,
            node_limit,
            nodes: 0,
            next_check: 0,
            seldepth: 0,
            aborted: false,
            published: None,
            reductions,
            pv: Box::new([[Move::Pass; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            excluded: [None; MAX_PLY],
            root_excluded: Vec::new(),
            net,
        }
    }

    /// The static evaluation of `pos`, the position at `ply` of the current line.
    #[inline]
    fn evaluate(&self, pos: &Position, ply: usize) -> i32 {
        match &self.net {
            Some((net, accs)) => net.evaluate(&accs[ply], pos.turn()),
            None => self.eval.evaluate(pos),
        }
    }

    /// Brings the network's units at `ply + 1` to `child`, played from `pos` at `ply`.
    #[inline]
    fn enter_child(&mut self, pos: &Position, child: &Position, ply: usize) {
        if let Some((net, accs)) = &mut self.net {
            let (parents, children) = accs.split_at_mut(ply + 1);
            net.update(&parents[ply], &mut children[0], pos, child);
        }
    }

    fn check_abort(&mut self) -> bool {
        if !self.aborted && self.nodes >= self.node_limit {
            self.aborted = true;
        }
        if !self.aborted && self.nodes >= self.next_check {
            // The clock and the flag are read every 1024 nodes, well under a millisecond.
            self.next_check = self.nodes + 1024;
            self.aborted = self.stop.load(Relaxed) || self.time.hard_expired();
            if let Some(published) = self.published {
                published.store(self.nodes, Relaxed);
            }
        }
        self.aborted
    }

    /// The score of `pos` (whose hash is `key` when `depth > 0`; leaves need none) searched to
    /// `depth` within the window `(alpha, beta)`.
    fn negamax(
        &mut self,
        pos: &Position,
        key: u64,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = 0;
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        // One dilation answers both "is the game over" and "must the side to move pass" in the
        // usual case, where the side to move has a move.
        let has_move = !(pos.pieces(pos.turn()).within_two() & pos.empty()).is_empty();
        if let Some(score) = game_end_score(pos, has_move, ply) {
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.leaf(pos, ply);
        }
        // Abort only after depth 1 is complete, so that there is always a move to play.
        if ply > 0 && self.check_abort() {
            return 0;
        }

        // Mate-distance pruning: no line from here can beat a win at this ply.
        let alpha = alpha.max(-win_in(ply));
        let beta = beta.min(win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        debug_assert_eq!(key, pos.hash());
        let mut node = Node {
            pos,
            key,
            depth,
            ply,
            pv_node,
            must_pass: !has_move,
            clock_safe: fits_clock(pos, depth),
            excluded: self.excluded[ply],
            // Computed before the probe, the static evaluation overlaps the load of the slot
            // that the parent prefetched.
            static_eval: if selectivity::uses_static_eval(pv_node, depth) {
                self.evaluate(pos, ply)
            } else {
                0
            },
            entry: self.tt.probe(key),
        };
        if let Some(score) = node.cut_before_moves(alpha, beta) {
            return score;
        }
        node.depth = node.searched_depth();
        self.search_moves(&node, alpha, beta)
    }

    /// A leaf's score: its static evaluation. Leaves check the node limit too, so that it is
    /// kept to the node (leaves of the first iteration, at ply 1, never abort it).
    #[inline]
    fn leaf(&mut self, pos: &Position, ply: usize) -> i32 {
        if ply > 1 && self.nodes >= self.node_limit {
            self.aborted = true;
        }
        self.evaluate(pos, ply)
    }

    /// The moves of `node` best-first within `(alpha, beta)`, each skipped, extended or
    /// reduced as the selective search says: the node's score, stored in the table.
    #[inline]
    fn search_moves(&mut self, node: &Node, mut alpha: i32, beta: i32) -> i32 {
        let Node {
            pos,
            depth,
            ply,
            excluded,
            ..
        } = *node;
        let mut picker = MovePicker::new(pos, node.tt_move(), node.must_pass);
        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut tried: ArrayVec<Move, 64> = ArrayVec::new();
        let mut next_index = 0;
        while let Some(picked) = picker.next(pos, self.tables, ply) {
            if Some(picked.mv) == excluded || (ply == 0 && self.root_excluded.contains(&picked.mv))
            {
                continue;
            }
            let index = next_index;
            next_index += 1;
            let mv = picked.mv;
            match node.move_pruning(index, picked, best_score, alpha) {
                MovePruning::Search => {}
                MovePruning::Skip => continue,
                MovePruning::SkipRest => break,
            }
            let extension = match self.singular_extension(node, index, mv, beta) {
                ControlFlow::Continue(plies) => plies,
                ControlFlow::Break(score) => return score,
            };
            let score = self.search_move(node, mv, index, depth - 1 + extension, alpha, beta);
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.update_pv(ply, mv);
                    if score >= beta {
                        self.tables
                            .record_cutoff(pos.turn(), ply, depth, mv, &tried);
                        break;
                    }
                }
            }
            if !tried.is_full() {
                tried.push(mv);
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(node, best_score, best_move, bound);
        best_score
    }

    /// Plays `mv`, the `index`-th move searched at `node` (from 0), and searches the child to
    /// `new_depth`: the first move in the full window, the others in a null window, reduced
    /// late in the list and searched again, unreduced then in the full window, when they beat
    /// alpha.
    #[inline]
    fn search_move(
        &mut self,
        node: &Node,
        mv: Move,
        index: usize,
        new_depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let Node { pos, ply, .. } = *node;
        let mut child = *pos;
        child.play_unchecked(mv);
        self.enter_child(pos, &child, ply);
        // Only searches of depth 1 or more probe the table: hash the child for them, and
        // start loading its slot while this node's work goes on.
        let child_key = if new_depth > 0 {
            let k = child.hash();
            self.tt.prefetch(k);
            k
        } else {
            0
        };
        if index == 0 {
            return -self.negamax(&child, child_key, new_depth, ply + 1, -beta, -alpha);
        }
        let reduction = self.reductions.of(node.depth, index, node.pv_node);
        let mut s = -self.negamax(
            &child,
            child_key,
            new_depth - reduction,
            ply + 1,
            -alpha - 1,
            -alpha,
        );
        if s > alpha && reduction > 0 {
            s = -self.negamax(&child, child_key, new_depth, ply + 1, -alpha - 1, -alpha);
        }
        if s > alpha && s < beta {
            s = -self.negamax(&child, child_key, new_depth, ply + 1, -beta, -alpha);
        }
        s
    }

    /// Stores `node`'s result, unless the 100-ply rule may lie within its reach or some of its
    /// moves were left out: without them a node's score is not the position's.
    #[inline]
    fn store(&self, node: &Node, best_score: i32, best_move: Option<Move>, bound: Bound) {
        let whole = node.excluded.is_none() && (node.ply > 0 || self.root_excluded.is_empty());
        if node.clock_safe && whole {
            self.tt.store(
                node.key,
                Entry {
                    mv: best_move,
                    score: to_table(best_score, node.ply),
                    depth: node.depth,
                    bound,
                },
            );
        }
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = if ply + 1 < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        self.pv[ply][0] = mv;
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    /// One iteration at `depth`, with an aspiration window around the previous score.
    fn aspiration(&mut self, pos: &Position, depth: i32, previous: i32) -> i32 {
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_DEPTH && !is_decisive(previous) {
            (previous - delta, previous + delta)
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.negamax(pos, pos.hash(), depth, 0, alpha, beta);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return score;
            }
            delta *= 2;
        }
    }
}

/// Searches a position: the state that lives across searches (transposition table, history)
/// plus an evaluator.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use ataxx::Position;
/// use engine::{eval::HandCrafted, search::Engine, time::Limits};
/// let mut engine = Engine::new(HandCrafted::default(), 1);
/// let limits = Limits { depth: Some(3), ..Limits::default() };
/// let report = engine.search(&Position::startpos(), &limits, &AtomicBool::new(false), |_| {});
/// assert_eq!(report.depth, 3);
/// assert!(Position::startpos().is_legal(report.best_move()));
/// ```
pub struct Engine<E: Evaluator> {
    eval: E,
    tt: TranspositionTable,
    tables: OrderingTables,
    reductions: Reductions,
    /// The move-ordering tables of the helper threads, one each (`Threads` − 1), kept across
    /// searches as the main thread's are.
    helpers: Vec<OrderingTables>,
}

impl<E: Evaluator> Engine<E> {
    /// An engine with a transposition table of `hash_mib` MiB.
    pub fn new(eval: E, hash_mib: usize) -> Engine<E> {
        Engine {
            eval,
            tt: TranspositionTable::new(hash_mib),
            tables: OrderingTables::default(),
            reductions: Reductions::new(),
            helpers: Vec::new(),
        }
    }

    /// Search with `threads` threads (at least 1): the main one and `threads - 1` helpers.
    /// With helpers, searches limited by depth or nodes are no longer reproducible, and a node
    /// limit counts the main thread's nodes.
    pub fn set_threads(&mut self, threads: usize) {
        self.helpers
            .resize_with(threads.max(1) - 1, OrderingTables::default);
    }

    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Replace the transposition table with an empty one of `mib` MiB.
    pub fn resize_hash(&mut self, mib: usize) {
        self.tt = TranspositionTable::new(mib);
    }

    /// Forget everything learned in earlier searches (a new game, or `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.tables = OrderingTables::default();
        self.helpers.fill_with(OrderingTables::default);
    }

    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Sets one of the evaluation's options ([`Evaluator::set_option`]); after a change the
    /// scores stored under the old evaluation are forgotten.
    pub fn set_eval_option(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        let result = self.eval.set_option(name, value);
        if matches!(result, Some(Ok(()))) {
            self.clear();
        }
        result
    }

    /// Iterative deepening until a limit is reached or `stop` is set. `on_iteration` sees every
    /// completed iteration. The result is that of the main thread's last completed iteration;
    /// its node count is every thread's.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        on_iteration: impl FnMut(&Report),
    ) -> Report {
        let start = Instant::now();
        self.tt.new_search();
        self.tables.new_search();
        self.helpers.iter_mut().for_each(OrderingTables::new_search);
        let Engine {
            eval,
            tt,
            tables,
            reductions,
            helpers,
        } = self;
        let (eval, tt, reductions) = (&*eval, &*tt, &*reductions);
        // Set when the main thread is done: the helpers then stop within 1,024 nodes.
        let helpers_stop = AtomicBool::new(false);
        let helper_nodes: Vec<AtomicU64> = helpers.iter().map(|_| AtomicU64::new(0)).collect();
        let helper_total = || helper_nodes.iter().map(|n| n.load(Relaxed)).sum::<u64>();
        let mut report = thread::scope(|scope| {
            for (tables, nodes) in helpers.iter_mut().zip(&helper_nodes) {
                let helpers_stop = &helpers_stop;
                scope.spawn(move || {
                    let untimed = TimeManager::new(&Limits::default(), start);
                    let mut helper = Searcher::new(
                        eval,
                        tt,
                        tables,
                        helpers_stop,
                        untimed,
                        u64::MAX,
                        reductions,
                        pos,
                    );
                    helper.published = Some(nodes);
                    let mut score = 0;
                    for depth in 1..MAX_PLY as i32 {
                        score = helper.aspiration(pos, depth, score);
                        if helper.aborted {
                            break;
                        }
                    }
                    nodes.store(helper.nodes, Relaxed);
                });
            }
            let mut main = Searcher::new(
                eval,
                tt,
                tables,
                stop,
                TimeManager::new(limits, start),
                limits.nodes.unwrap_or(u64::MAX).max(1),
                reductions,
                pos,
            );
            let report = main.iterate(pos, limits, start, helper_total, on_iteration);
            helpers_stop.store(true, Relaxed);
            report
        });
        // The helpers have finished here, their final counts published.
        report.nodes += helper_total();
        report
    }
}

impl<E: Evaluator> Searcher<'_, E> {
    /// The main thread's iterative deepening: reports each completed iteration (with the
    /// helpers' nodes so far, from `helper_nodes`) and stops at the limits. The final report's
    /// nodes are this thread's alone.
    fn iterate(
        &mut self,
        pos: &Position,
        limits: &Limits,
        start: Instant,
        helper_nodes: impl Fn() -> u64,
        mut on_iteration: impl FnMut(&Report),
    ) -> Report {
        let max_depth = limits
            .depth
            .filter(|_| !limits.infinite)
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let single_reply = pos.legal_moves().len() <= 1;
        let mut best: Option<Report> = None;
        // Completed iterations in a row whose best move was the one before's.
        let mut unchanged = 0;
        let mut score = 0;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            score = self.aspiration(pos, depth, score);
            if self.aborted {
                break;
            }
            let report = Report {
                depth,
                seldepth: self.seldepth,
                score,
                nodes: self.nodes + helper_nodes(),
                time: start.elapsed(),
                pv: self.pv[0][..self.pv_len[0]].to_vec(),
                hashfull: self.tt.hashfull(),
            };
            on_iteration(&report);
            let same_move = best
                .as_ref()
                .is_some_and(|b| b.pv.first() == report.pv.first());
            unchanged = if same_move { unchanged + 1 } else { 0 };
            best = Some(report);
            let timed = self.time.is_timed();
            if self.check_abort()
                || self.time.soft_expired_with_stability(unchanged)
                || (timed && single_reply)
                || (timed && score::is_decisive(score) && depth > score::WIN - score.abs())
            {
                break;
            }
        }
        let mut report = best.expect("depth 1 always completes");
        report.nodes = self.nodes;
        report.time = start.elapsed();
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::HandCrafted;

    fn search(fen: &str, depth: i32) -> Report {
        let pos: Position = fen.parse().unwrap();
        let mut engine = Engine::new(HandCrafted::default(), 4);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        engine.search(&pos, &limits, &AtomicBool::new(false), |_| {})
    }

    /// Exact game value by full-width negamax without pruning: +1 win, 0 draw, -1 loss for the
    /// side to move, or `None` if the game does not end within `depth` plies on every line.
    fn exhaustive(pos: &Position, depth: u32) -> Option<i32> {
        if let Some(outcome) = pos.outcome() {
            return Some(match outcome.winner() {
                Some(side) if side == pos.turn() => 1,
                Some(_) => -1,
                None => 0,
            });
        }
        if depth == 0 {
            return None;
        }
        let mut best = None;
        let mut unknown = false;
        for mv in pos.legal_moves() {
            let mut child = *pos;
            child.play_unchecked(mv);
            match exhaustive(&child, depth - 1) {
                Some(v) => best = Some(best.map_or(-v, |b: i32| b.max(-v))),
                None => unknown = true,
            }
            if best == Some(1) {
                return best;
            }
        }
        if unknown {
            None
        } else {
            best
        }
    }

    #[test]
    fn finds_forced_wins_proved_by_exhaustive_search() {
        // (position, plies to the win for the side to move)
        // (position, plies to the win for the side to move); each is checked exhaustively.
        let cases = [
            // x captures o's last piece at once.
            ("7/7/7/7/7/1o5/x6 x 0 1", 1),
            // x fills the last empty cell, flipping f3 and g3.
            (
                "xxxxxxx/xxxxxxx/xxxxxxx/xxxxxx1/ooooooo/ooooooo/ooooooo x 0 1",
                1,
            ),
            ("1o11/11o1/x-o1/11xx x 0 1", 1),
            ("1x111/11111/1111o/ox11o/x1111 x 0 1", 3),
            ("o1x111/-xx1o1/1-11o1/11-x11/111x11/11x111 x 0 1", 3),
            ("x--x/1o1x/xoxo/o-1o x 0 1", 5),
        ];
        for (fen, plies) in cases {
            let pos: Position = fen.parse().unwrap();
            assert_eq!(
                exhaustive(&pos, plies as u32),
                Some(1),
                "{fen} is not a forced win"
            );
            // Reductions may hide the shortest win for a few iterations: give the search room.
            let report = search(fen, plies + 6);
            assert_eq!(report.score, win_in(plies as usize), "{fen}: {report:?}");
            let mut after = pos;
            for &mv in &report.pv {
                after.play(mv).unwrap();
            }
            assert_eq!(
                after.outcome().and_then(|o| o.winner()),
                Some(pos.turn()),
                "{fen}"
            );
        }
    }

    /// A null-window search of `pos` at `depth`, one ply below the root, with `tt`.
    fn null_window(pos: &Position, depth: i32, tt: &TranspositionTable) -> i32 {
        let eval = HandCrafted::default();
        let mut tables = OrderingTables::default();
        let reductions = Reductions::new();
        let stop = AtomicBool::new(false);
        let mut searcher = Searcher::new(
            &eval,
            tt,
            &mut tables,
            &stop,
            TimeManager::new(&Limits::default(), Instant::now()),
            u64::MAX,
            &reductions,
            pos,
        );
        searcher.negamax(pos, pos.hash(), depth, 1, 0, 1)
    }

    #[test]
    fn a_search_without_the_table_move_stores_nothing_and_scores_no_higher() {
        let pos: Position = "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1".parse().unwrap();
        let eval = HandCrafted::default();
        let reductions = Reductions::new();
        let stop = AtomicBool::new(false);
        let search = |excluded: Option<Move>, tt: &TranspositionTable| {
            let mut tables = OrderingTables::default();
            let mut searcher = Searcher::new(
                &eval,
                tt,
                &mut tables,
                &stop,
                TimeManager::new(&Limits::default(), Instant::now()),
                u64::MAX,
                &reductions,
                &pos,
            );
            searcher.excluded[1] = excluded;
            searcher.negamax(&pos, pos.hash(), 4, 1, -INFINITE, INFINITE)
        };
        let tt = TranspositionTable::new(1);
        let full = search(None, &tt);
        let best = tt.probe(pos.hash()).and_then(|e| e.mv).unwrap();
        let empty = TranspositionTable::new(1);
        let without = search(Some(best), &empty);
        assert!(without <= full, "{without} > {full}");
        assert!(empty.probe(pos.hash()).is_none());
    }

    #[test]
    fn table_cutoffs_need_the_entrys_depth_to_fit_before_the_hundred_ply_rule() {
        // Three plies from the 100-ply rule. The hash ignores the clock, so a deep result stored
        // for the same pieces far from the rule must not cut here: its subtree ran past ply 100.
        let pos: Position = "x5o/7/2-1-2/7/2-1-2/7/o5x x 97 60".parse().unwrap();
        let fresh = null_window(&pos, 1, &TranspositionTable::new(1));
        let tt = TranspositionTable::new(1);
        let planted = fresh + 777;
        tt.store(
            pos.hash(),
            Entry {
                mv: None,
                score: planted,
                depth: 10,
                bound: Bound::Exact,
            },
        );
        assert_eq!(null_window(&pos, 1, &tt), fresh);
        // Far from the rule the same entry is a valid cut-off.
        let early: Position = "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 60".parse().unwrap();
        assert_eq!(null_window(&early, 1, &tt), planted);
    }

    #[test]
    fn forced_pass_is_played_and_scored() {
        let report = search("7/7/7/7/4ooo/4ooo/4oox x 0 1", 4);
        assert_eq!(report.best_move(), Move::Pass);
        assert!(report.score < -500, "{report:?}");
    }

    #[test]
    fn the_hundred_ply_rule_scores_a_draw() {
        // Any jump ends the game by the 100-ply rule (a draw); a single gains a piece.
        let report = search("x5o/7/7/7/7/7/o5x x 99 60", 2);
        assert!(matches!(report.best_move(), Move::Single(_)), "{report:?}");
        // A finished game has no move and scores as counted: here a draw.
        let over = search("x5o/7/7/7/7/7/o5x x 100 60", 3);
        assert_eq!((over.pv.len(), over.score), (0, 0));
    }

    #[test]
    fn node_limits_and_depth_limits_are_deterministic() {
        let a = search("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", 6);
        let b = search("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", 6);
        assert_eq!((a.nodes, a.pv.clone(), a.score), (b.nodes, b.pv, b.score));
        let pos = Position::startpos();
        let limits = Limits {
            nodes: Some(5_000),
            ..Limits::default()
        };
        let mut engine = Engine::new(HandCrafted::default(), 1);
        let report = engine.search(&pos, &limits, &AtomicBool::new(false), |_| {});
        assert!(report.nodes <= 5_000 + 1, "{}", report.nodes);
        assert!(pos.is_legal(report.best_move()));
    }

    #[test]
    fn helper_threads_search_beside_the_main_one_and_stop_with_it() {
        // A node limit stops the main thread at the limit (or one node past it); the helpers
        // add at least their first iteration's nodes to the count.
        let mut engine = Engine::new(HandCrafted::default(), 4);
        engine.set_threads(3);
        assert_eq!(engine.threads(), 3);
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let pos = Position::startpos();
        let report = engine.search(&pos, &limits, &AtomicBool::new(false), |_| {});
        assert!(report.nodes > 20_000 + 1, "{}", report.nodes);
        assert!(pos.is_legal(report.best_move()));
        // An infinite search on four threads ends with `stop`, helpers included (the search
        // returns only once they have).
        engine.set_threads(4);
        let stop = AtomicBool::new(false);
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let report = thread::scope(|scope| {
            let search = scope.spawn(|| engine.search(&pos, &infinite, &stop, |_| {}));
            thread::sleep(Duration::from_millis(50));
            stop.store(true, Relaxed);
            search.join().unwrap()
        });
        assert!(pos.is_legal(report.best_move()));
        // Back to one thread: the same node-limited search is reproducible again.
        engine.set_threads(1);
        engine.clear();
        let a = engine.search(&pos, &limits, &AtomicBool::new(false), |_| {});
        engine.clear();
        let b = engine.search(&pos, &limits, &AtomicBool::new(false), |_| {});
        assert_eq!((a.nodes, a.pv), (b.nodes, b.pv));
    }

    #[test]
    fn two_threads_find_the_forced_wins_too() {
        for (fen, plies) in [
            ("1x111/11111/1111o/ox11o/x1111 x 0 1", 3),
            ("x--x/1o1x/xoxo/o-1o x 0 1", 5),
        ] {
            let mut engine = Engine::new(HandCrafted::default(), 4);
            engine.set_threads(2);
            let limits = Limits {
                depth: Some(plies + 6),
                ..Limits::default()
            };
            let report = engine.search(
                &fen.parse().unwrap(),
                &limits,
                &AtomicBool::new(false),
                |_| {},
            );
            assert_eq!(report.score, win_in(plies as usize), "{fen}: {report:?}");
        }
    }

    #[test]
    fn a_movetime_search_runs_until_its_deadline() {
        // The start position cannot be searched out in 100 ms, so the search should stop at
        // the hard limit (100 ms less 10 of overhead), not before: it once stopped starting
        // iterations after 45 ms and so moved after 45 to 75.
        let mut engine = Engine::new(HandCrafted::default(), 4);
        let limits = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        let report = engine.search(
            &Position::startpos(),
            &limits,
            &AtomicBool::new(false),
            |_| {},
        );
        assert!(
            report.time >= Duration::from_millis(90),
            "{:?}",
            report.time
        );
    }
}

//! Fixed-depth alpha-beta for any game, on the crate's one alpha-beta ([`crate::alpha_beta`]):
//! plain alpha-beta with two seats, **paranoid** alpha-beta with more.
//!
//! Paranoid search assumes every opponent plays to minimise the mover's evaluation, which turns
//! an N-seat game into a two-sided one: alpha-beta pruning applies unchanged (max-n, where each
//! seat maximises its own component of a score vector, allows only shallow pruning and so
//! reaches about half the depth in the same time), and its assumption errs on the side of
//! safety in four-player Ataxx, where opponents who happen to be adjacent really do take the
//! mover's pieces. With two seats paranoid and plain alpha-beta are the same search.
//!
//! What the rivals minimise is the searching seat's evaluation against the strongest rival
//! ([`Judge::Strongest`]) or against all of them ([`Judge::AllRivals`]). The second makes a
//! better model of the rivals: minimising it, a rival grows its own pieces as well as taking
//! the searcher's, as rivals really do (measured in docs/levels.md).
//!
//! Forced passes are ordinary moves (the [`games::Rules`] position lists the pass); eliminated seats
//! never get the turn (the position skips them); a seat with no pieces left scores as lost.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use games::Seat;
use rand::Rng;

use super::eval::{evaluate_against_all, Evaluate, WIN};
use crate::alpha_beta::{alpha_beta, Tree};
use crate::choice::BestPicker;

/// How far a search may go: plies, and optionally nodes and a deadline. The search deepens
/// one ply at a time and, when a bound stops an iteration, answers with the last complete one,
/// so a level always answers (depth 1 is always completed).
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    pub depth: u32,
    pub max_nodes: Option<u64>,
    pub deadline: Option<Instant>,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth,
            max_nodes: None,
            deadline: None,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchOutcome<M> {
    pub best: M,
    /// The score for the mover.
    pub score: i32,
    /// The deepest iteration completed.
    pub depth: u32,
    pub nodes: u64,
}

/// Whom the searching seat's evaluation measures it against.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Judge {
    /// The strongest rival: [`Evaluate::heuristic`].
    Strongest,
    /// Every rival: [`Evaluate::heuristic_against_all`].
    AllRivals,
}

/// One search's state. [`super::lines`] drives it from its own root loop.
pub(super) struct Searcher<'a> {
    me: Seat,
    judge: Judge,
    pub(super) nodes: u64,
    limits: Limits,
    pub(super) stopped: bool,
    /// Set by another thread to end the search (a live analysis whose page went).
    stop: Option<&'a AtomicBool>,
}

impl<'a> Searcher<'a> {
    /// A search for `me` within `limits`, ending early when `stop` is set.
    pub(super) fn new(
        me: Seat,
        judge: Judge,
        limits: Limits,
        stop: Option<&'a AtomicBool>,
    ) -> Searcher<'a> {
        Searcher {
            me,
            judge,
            nodes: 0,
            limits,
            stopped: false,
            stop,
        }
    }

    fn evaluate<R: Evaluate>(&self, pos: &R, seat: Seat) -> i32 {
        match self.judge {
            Judge::AllRivals => evaluate_against_all(pos, seat),
            Judge::Strongest => super::eval::evaluate(pos, seat),
        }
    }

    fn out_of_bounds(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(max) = self.limits.max_nodes {
            if self.nodes >= max {
                self.stopped = true;
            }
        }
        // Every node: a node costs microseconds (a move generation, evaluations), the clock
        // tens of nanoseconds, and a level must never overrun its time.
        if let Some(deadline) = self.limits.deadline {
            if Instant::now() >= deadline {
                self.stopped = true;
            }
        }
        if self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
            self.stopped = true;
        }
        self.stopped
    }

    /// The children of `pos`, best-looking first for the seat to move (move ordering: the
    /// mover's immediate evaluation, a cheap one-ply look).
    pub(super) fn ordered<R: Evaluate>(&self, pos: &R) -> Vec<(R::Move, R)> {
        let mover = pos.turn();
        let mut children: Vec<(i32, R::Move, R)> = pos
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let mut child = pos.clone();
                child.play(mv);
                (self.evaluate(&child, mover), mv, child)
            })
            .collect();
        children.sort_by_key(|(key, _, _)| -key);
        children.into_iter().map(|(_, mv, c)| (mv, c)).collect()
    }

    /// `pos`'s children unsorted: one ply from the leaves, where ordering them would evaluate
    /// each twice.
    fn unordered<R: Evaluate>(pos: &R) -> Vec<(R::Move, R)> {
        pos.legal_moves()
            .into_iter()
            .map(|mv| {
                let mut child = pos.clone();
                child.play(mv);
                (mv, child)
            })
            .collect()
    }
}

impl<R: Evaluate> Tree<R> for Searcher<'_> {
    type Child = (R::Move, R);
    type Children = Vec<(R::Move, R)>;

    fn leaf(&mut self, pos: &R, depth: u32, ply: i32) -> Option<i32> {
        self.nodes += 1;
        let ends = pos.outcome().is_some() || depth == 0 || self.out_of_bounds();
        ends.then(|| adjust(self.evaluate(pos, self.me), ply))
    }

    fn children(&mut self, pos: &R, depth: u32) -> Vec<(R::Move, R)> {
        if depth == 1 {
            Searcher::unordered(pos)
        } else {
            self.ordered(pos)
        }
    }

    fn childless(&mut self, pos: &R, ply: i32) -> i32 {
        adjust(self.evaluate(pos, self.me), ply)
    }

    fn maximising(&self, pos: &R) -> bool {
        pos.turn() == self.me
    }

    fn prunes(&self) -> bool {
        true
    }

    /// The value of `child`, reached by `mv`, for the searching player. A move that swaps
    /// seats (Ankor's `swap`) hands the searching player the other seat below it; with two
    /// seats the evaluation is zero-sum, so values for the new seat are values for them.
    fn child_value(
        &mut self,
        _pos: &R,
        (mv, child): &(R::Move, R),
        depth: u32,
        ply: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if !R::swaps_seats(*mv) {
            return alpha_beta(self, child, depth, ply, alpha, beta);
        }
        let me = self.me;
        self.me = Seat(1 - me.0);
        let v = alpha_beta(self, child, depth, ply, alpha, beta);
        self.me = me;
        v
    }
}

/// Prefers quicker wins and slower losses.
fn adjust(score: i32, ply: i32) -> i32 {
    if score >= WIN {
        score - ply
    } else if score <= -WIN {
        score + ply
    } else {
        score
    }
}

/// Searches `pos` for the seat to move within `limits`, every rival replying in turn and
/// the searching seat judged against the strongest rival ([`Judge::Strongest`]); among
/// equally scored root moves the choice is uniform (`rng`). `None` once the game is over.
pub fn paranoid_search<R: Evaluate>(
    pos: &R,
    limits: Limits,
    rng: &mut impl Rng,
) -> Option<SearchOutcome<R::Move>> {
    search_with(pos, limits, Judge::Strongest, rng)
}

/// The value of `pos` for `seat`, whether or not it is `seat`'s turn: every other seat replies
/// against it, deepening to `limits.depth` within its bounds (the last complete depth answers).
/// What a move left its mover when another seat moves next (four-player Ataxx's analysis).
pub fn value_for<R: Evaluate>(pos: &R, seat: Seat, limits: Limits, judge: Judge) -> i32 {
    let mut searcher = Searcher::new(seat, judge, limits, None);
    let mut value = searcher.evaluate(pos, seat);
    for depth in 1..=limits.depth.max(1) {
        let v = alpha_beta(&mut searcher, pos, depth, 0, -WIN - 1, WIN + 1);
        if searcher.stopped && depth > 1 {
            break;
        }
        value = v;
        if searcher.stopped || v.abs() >= WIN - 1000 {
            break;
        }
    }
    value
}

/// Searches `pos` like [`paranoid_search`], judging the searching seat as `judge` says.
pub fn search_with<R: Evaluate>(
    pos: &R,
    limits: Limits,
    judge: Judge,
    rng: &mut impl Rng,
) -> Option<SearchOutcome<R::Move>> {
    search_until(pos, limits, judge, None, rng)
}

/// [`search_with`] that also ends, with its last complete depth, when `stop` is set.
pub(super) fn search_until<R: Evaluate>(
    pos: &R,
    limits: Limits,
    judge: Judge,
    stop: Option<&AtomicBool>,
    rng: &mut impl Rng,
) -> Option<SearchOutcome<R::Move>> {
    let me = pos.turn();
    let mut searcher = Searcher::new(me, judge, limits, stop);
    let mut root = searcher.ordered(pos);
    if root.is_empty() {
        return None;
    }
    if root.len() == 1 {
        return Some(SearchOutcome {
            best: root[0].0,
            score: searcher.evaluate(&root[0].1, me),
            depth: 0,
            nodes: 1,
        });
    }
    let mut answer: Option<SearchOutcome<R::Move>> = None;
    for depth in 1..=limits.depth.max(1) {
        let mut picker = BestPicker::new();
        let mut scores = Vec::with_capacity(root.len());
        for child in &root {
            // Searching with alpha one below the best keeps equal scores exact, so ties are
            // found and broken at random.
            let alpha = picker.best_score().map_or(-WIN - 1, |&b: &i32| b - 1);
            let v = searcher.child_value(pos, child, depth - 1, 1, alpha, WIN + 1);
            if searcher.stopped && depth > 1 {
                break;
            }
            picker.offer(v, child.0, rng);
            scores.push(v);
        }
        if searcher.stopped && depth > 1 {
            break;
        }
        let (score, best) = picker.into_best().expect("root has moves");
        // Next iteration tries the best-scored moves first.
        let mut keyed: Vec<(i32, (R::Move, R))> = scores.into_iter().zip(root).collect();
        keyed.sort_by_key(|(s, _)| -s);
        root = keyed.into_iter().map(|(_, c)| c).collect();
        answer = Some(SearchOutcome {
            best,
            score,
            depth,
            nodes: searcher.nodes,
        });
        if score.abs() >= WIN - 1000 || searcher.stopped {
            break;
        }
    }
    answer
}

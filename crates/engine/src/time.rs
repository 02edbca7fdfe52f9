//! Time management: how long one search may run, from the `go` limits.
//!
//! A search stops deepening once the soft limit has passed (a new iteration would rarely finish)
//! and aborts mid-iteration at the hard limit. Under a clock the soft limit stretches while the
//! best move keeps changing and shrinks once it has held ([`stability_scale`]). Both limits keep
//! a safety margin for the time the operating system and the GUI take to pass the move along. A
//! fixed time per move (`go movetime`) has no soft limit: what a move leaves unused is lost, not
//! saved for later.

use std::time::{Duration, Instant};

/// What `go` allows. Every limit that is set applies; none set means search until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// The clock of the side to move, its increment, and moves until the next time control.
    pub clock: Option<Clock>,
    /// Search until `stop`, whatever else is set.
    pub infinite: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
}

/// Kept back from every clock for process and pipe latency.
const MOVE_OVERHEAD: Duration = Duration::from_millis(25);
/// Kept back from a fixed time per move. Less than a clock's overhead: a clock that runs out
/// loses the game, while a GUI giving a fixed time per move allows some grace (cuteataxx: its
/// `timeout_buffer`); 25 ms and a soft limit at 60 % had the engine use 45–75 ms of 100.
const MOVETIME_OVERHEAD: Duration = Duration::from_millis(10);
/// The part of a clock that planning draws on only for half an increment a move: once the clock
/// is down to it, moves live on the increment and the clock climbs back. A reserve of half the
/// clock (as before) let a 1 s + 10 ms clock settle near 60–80 ms, and any stall of the process
/// longer than that lost on time.
const CLOCK_RESERVE: Duration = Duration::from_millis(200);
/// Moves the remaining time is spread over when the GUI does not say.
const DEFAULT_MOVES_TO_GO: u32 = 25;

/// The deadlines of one search.
#[derive(Copy, Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// Whether the soft limit comes from a clock, whose unused time is kept for later moves
    /// (and so may follow the best move's stability), not from a fixed time per move.
    from_clock: bool,
}

/// The share of a clock's soft limit a search uses when its best move has stood for
/// `unchanged` completed iterations: more while the move is in doubt, less once it holds.
pub fn stability_scale(unchanged: u32) -> f64 {
    match unchanged {
        0 => 1.6,
        1 => 1.25,
        2 => 1.0,
        3 => 0.85,
        _ => 0.7,
    }
}

impl TimeManager {
    pub fn new(limits: &Limits, start: Instant) -> TimeManager {
        let mut soft = None;
        let mut hard = None;
        let mut from_clock = false;
        if let Some(movetime) = limits.movetime {
            let budget = movetime
                .saturating_sub(MOVETIME_OVERHEAD)
                .max(Duration::from_millis(1));
            hard = Some(budget);
            soft = Some(budget);
        }
        if let Some(clock) = &limits.clock {
            let (s, h) = clock_budget(clock);
            from_clock = soft.is_none_or(|t| s < t);
            soft = Some(soft.map_or(s, |t: Duration| t.min(s)));
            hard = Some(hard.map_or(h, |t: Duration| t.min(h)));
        }
        if limits.infinite {
            (soft, hard) = (None, None);
        }
        TimeManager {
            start,
            soft,
            hard,
            from_clock,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether a new iteration should not be started.
    pub fn soft_expired(&self) -> bool {
        self.soft_expired_at(1.0)
    }

    /// Whether a new iteration should not be started, the best move having stood for
    /// `unchanged` iterations ([`stability_scale`]; a fixed time per move is not scaled).
    pub fn soft_expired_with_stability(&self, unchanged: u32) -> bool {
        self.soft_expired_at(if self.from_clock {
            stability_scale(unchanged)
        } else {
            1.0
        })
    }

    /// Whether `scale` times the soft limit has passed.
    fn soft_expired_at(&self, scale: f64) -> bool {
        self.soft
            .is_some_and(|t| self.elapsed() >= t.mul_f64(scale))
    }

    /// Whether the search must stop now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|t| self.elapsed() >= t)
    }

    /// Whether any deadline applies at all.
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }
}

/// Soft and hard limits for a clock: a share of what is left plus most of the increment, and
/// never more than a fraction of the clock itself.
fn clock_budget(clock: &Clock) -> (Duration, Duration) {
    // Part of the clock is never planned for, so that a stalled process (a loaded machine)
    // still has time in hand; once the clock is down to it, moves live on the increment.
    let reserve = clock.remaining.min(CLOCK_RESERVE);
    let available = clock
        .remaining
        .saturating_sub(MOVE_OVERHEAD + reserve)
        .max(Duration::from_millis(1));
    let moves = clock
        .moves_to_go
        .unwrap_or(DEFAULT_MOVES_TO_GO)
        .clamp(1, 50);
    let share = available / moves + clock.increment.mul_f64(0.75);
    // Half the increment may come out of the reserve (it is back after the move); a cap of
    // `available` instead left a clock at its reserve 1 ms a move, and the engine played its
    // ends at depth 1.
    let hard = (share * 3)
        .min(available / 3 + clock.increment / 2)
        .min(clock.remaining.saturating_sub(MOVE_OVERHEAD))
        .max(Duration::from_millis(1));
    (share.min(hard), hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_clock_is_never_spent_in_one_move() {
        for remaining in [1, 5, 20, 100, 1_000, 60_000] {
            for increment in [0, 10, 1_000] {
                let clock = Clock {
                    remaining: ms(remaining),
                    increment: ms(increment),
                    moves_to_go: None,
                };
                let (soft, hard) = clock_budget(&clock);
                assert!(soft <= hard, "{remaining}+{increment}");
                assert!(
                    hard <= ms(remaining).saturating_sub(MOVE_OVERHEAD).max(ms(1)),
                    "{remaining}+{increment}: hard {hard:?}"
                );
            }
        }
        let (soft, _) = clock_budget(&Clock {
            remaining: ms(1_000),
            increment: ms(10),
            moves_to_go: None,
        });
        assert!(soft >= ms(30) && soft <= ms(60), "{soft:?}");
    }

    #[test]
    fn a_search_draws_on_the_reserve_for_half_an_increment_at_most() {
        // The old reserve of half the clock let a 1 s + 10 ms clock settle near 70 ms.
        let floor = CLOCK_RESERVE + MOVE_OVERHEAD;
        for remaining in [20, 50, 100, 200, 225, 250, 400, 1_000] {
            let clock = Clock {
                remaining: ms(remaining),
                increment: ms(10),
                moves_to_go: None,
            };
            let (_, hard) = clock_budget(&clock);
            let left = ms(remaining).saturating_sub(hard);
            assert!(
                left + ms(5) + ms(1) >= ms(remaining).min(floor),
                "{remaining} ms: a search may leave only {left:?}"
            );
            // At the reserve a move still gets half the increment to think.
            if remaining >= 200 {
                assert!(hard >= ms(5), "{remaining} ms: only {hard:?}");
            }
        }
    }

    #[test]
    fn a_clock_spends_more_on_a_doubtful_move_and_a_fixed_time_does_not_scale() {
        let at = |limits: &Limits, ago: u64| {
            let start = Instant::now() - ms(ago);
            TimeManager::new(limits, start)
        };
        let clock = Limits {
            clock: Some(Clock {
                remaining: ms(10_000),
                increment: ms(100),
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let soft = at(&clock, 0).soft.unwrap();
        // Just past the plain soft limit: a settled move stops, a move that just changed goes on.
        let past = at(&clock, soft.as_millis() as u64 + 20);
        assert!(past.soft_expired_with_stability(2) && past.soft_expired_with_stability(4));
        assert!(!past.soft_expired_with_stability(0) && !past.soft_expired_with_stability(1));
        // Short of it: a move that has held for four iterations stops already.
        let short = at(&clock, soft.as_millis() as u64 * 8 / 10);
        assert!(short.soft_expired_with_stability(4) && !short.soft_expired_with_stability(2));
        let fixed = Limits {
            movetime: Some(ms(1_000)),
            ..Limits::default()
        };
        let late = at(&fixed, 995);
        assert!(late.soft_expired_with_stability(0));
        assert!(!at(&fixed, 800).soft_expired_with_stability(9));
    }

    #[test]
    fn movetime_keeps_a_margin_and_infinite_has_no_deadline() {
        let tm = TimeManager::new(
            &Limits {
                movetime: Some(ms(100)),
                ..Limits::default()
            },
            Instant::now(),
        );
        assert_eq!((tm.soft, tm.hard), (Some(ms(90)), Some(ms(90))));
        let infinite = Limits {
            movetime: Some(ms(100)),
            infinite: true,
            ..Limits::default()
        };
        assert!(!TimeManager::new(&infinite, Instant::now()).is_timed());
    }
}

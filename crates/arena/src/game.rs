//! One game between two engines: time controls, clocks, adjudication, and every way an engine
//! can lose besides the rules (illegal move, time forfeit, crash, hang).

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ataxx::{Color, Move, Outcome, Position};
use thiserror::Error;

use crate::engine::{Engine, EngineError, EngineSpec};

/// How long each move may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock per side: `base` for the game, `increment` added after each move.
    Clock { base: Duration, increment: Duration },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed search depth; only the hang time-out limits the time.
    Depth(u32),
    /// A fixed node count; only the hang time-out limits the time.
    Nodes(u64),
}

/// A time control that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "time control {0:?} is none of `SECONDS[+INCREMENT]` (8+0.08), `movetime=MS`, `depth=N`, `nodes=N`"
)]
pub struct TimeControlError(String);

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// `8+0.08` (seconds plus increment), `10` (no increment), `movetime=100` (ms),
    /// `depth=3`, `nodes=5000`.
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let error = || TimeControlError(text.to_string());
        let seconds = |s: &str| {
            s.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .map(Duration::from_secs_f64)
                .ok_or_else(error)
        };
        let tc = match text.split_once('=') {
            Some(("movetime", ms)) => {
                TimeControl::MoveTime(Duration::from_millis(ms.parse().map_err(|_| error())?))
            }
            Some(("depth", d)) => TimeControl::Depth(d.parse().map_err(|_| error())?),
            Some(("nodes", n)) => TimeControl::Nodes(n.parse().map_err(|_| error())?),
            Some(_) => return Err(error()),
            None => {
                let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
                TimeControl::Clock {
                    base: seconds(base)?,
                    increment: seconds(increment)?,
                }
            }
        };
        match tc {
            TimeControl::Clock { base, .. } | TimeControl::MoveTime(base) if base.is_zero() => {
                Err(error())
            }
            TimeControl::Depth(0) | TimeControl::Nodes(0) => Err(error()),
            tc => Ok(tc),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock { base, increment } => {
                write!(f, "{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            TimeControl::MoveTime(t) => write!(f, "movetime={}", t.as_millis()),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
        }
    }
}

/// Everything about a game except who plays and from where.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameSettings {
    pub time_control: TimeControl,
    /// How far past its time an engine may answer before it forfeits.
    pub margin: Duration,
    /// How long to wait for `uaiok`/`readyok`, and for `bestmove` under depth and node limits.
    pub hang_timeout: Duration,
    /// Adjudicate a win once one side leads by this many pieces.
    pub material_margin: Option<u32>,
    /// Adjudicate a draw after this many plies.
    pub max_plies: Option<u32>,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules (spec 1.3), the 100-ply rule included.
    Rules,
    /// One side led by the material margin.
    Material,
    /// The maximum game length was reached.
    MaxLength,
    /// `by` answered with move text that is not a legal move.
    IllegalMove {
        by: Color,
        text: String,
        reason: String,
    },
    /// `by` ran out of time.
    TimeForfeit { by: Color },
    /// `by`'s process died or stopped reading (or could not be started).
    Crash { by: Color, detail: String },
    /// `by` did not answer within the hang time-out.
    Hang { by: Color, detail: String },
}

impl Ending {
    /// The side whose fault ended the game, if any.
    pub fn offender(&self) -> Option<Color> {
        match self {
            Ending::IllegalMove { by, .. }
            | Ending::TimeForfeit { by }
            | Ending::Crash { by, .. }
            | Ending::Hang { by, .. } => Some(*by),
            _ => None,
        }
    }

    /// A short name for tallies: `rules`, `material`, `max length`, `illegal move`, …
    pub fn kind(&self) -> &'static str {
        match self {
            Ending::Rules => "rules",
            Ending::Material => "material",
            Ending::MaxLength => "max length",
            Ending::IllegalMove { .. } => "illegal move",
            Ending::TimeForfeit { .. } => "time forfeit",
            Ending::Crash { .. } => "crash",
            Ending::Hang { .. } => "hang",
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Rules => f.write_str("game over by the rules"),
            Ending::Material => f.write_str("adjudicated on material"),
            Ending::MaxLength => f.write_str("adjudicated draw: maximum game length"),
            Ending::IllegalMove { by, text, reason } => {
                write!(f, "{by} plays illegal move {text:?}: {reason}")
            }
            Ending::TimeForfeit { by } => write!(f, "{by} loses on time"),
            Ending::Crash { by, detail } => write!(f, "{by} crashed: {detail}"),
            Ending::Hang { by, detail } => write!(f, "{by} hangs: {detail}"),
        }
    }
}

/// One move as played, with what the engine said about it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    pub time: Duration,
    pub score: Option<i32>,
    pub depth: Option<u32>,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub start: Position,
    pub moves: Vec<PlayedMove>,
    pub end: Position,
    pub outcome: Outcome,
    pub ending: Ending,
}

/// One side of a game: an engine spec and its process, started on demand and kept for the next
/// game; discarded after a fault so that the next game gets a fresh one.
pub struct Player {
    spec: EngineSpec,
    engine: Option<Engine>,
}

impl Player {
    pub fn new(spec: EngineSpec) -> Player {
        Player { spec, engine: None }
    }

    /// A ready engine for a new game: the kept one if it still answers, else a new process.
    fn prepare(&mut self, timeout: Duration) -> Result<&mut Engine, EngineError> {
        if let Some(engine) = &mut self.engine {
            if engine.new_game(timeout).is_ok() {
                return Ok(self.engine.as_mut().expect("just used"));
            }
            self.engine = None;
        }
        let mut engine = Engine::start(&self.spec, timeout)?;
        engine.new_game(timeout)?;
        Ok(self.engine.insert(engine))
    }

    /// Stops the process (at the end of a match).
    pub fn shut_down(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.quit();
        }
    }
}

/// Plays one game from `start`, x's engine first in `players`. Returns `None` if `stop` was set
/// before the game finished.
pub fn play_game(
    players: [&mut Player; 2],
    start: Position,
    settings: &GameSettings,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let mut pos = start;
    let mut moves = Vec::new();
    let finish = |pos: Position, moves, outcome, ending| {
        Some(GameRecord {
            start,
            moves,
            end: pos,
            outcome,
            ending,
        })
    };
    let forfeit = |by: Color| Outcome::Win(!by);

    for color in Color::ALL {
        if let Err(err) = players[color as usize].prepare(settings.hang_timeout) {
            players[color as usize].engine = None;
            let ending = fault_ending(color, err, settings.time_control);
            return finish(pos, moves, forfeit(color), ending);
        }
    }

    let mut clocks = match settings.time_control {
        TimeControl::Clock { base, .. } => [base; 2],
        _ => [Duration::ZERO; 2],
    };
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(outcome) = pos.outcome() {
            return finish(pos, moves, outcome, Ending::Rules);
        }
        let (x_count, o_count) = (pos.pieces(Color::X).count(), pos.pieces(Color::O).count());
        if let Some(margin) = settings.material_margin {
            if x_count.abs_diff(o_count) >= margin {
                let leader = if x_count > o_count {
                    Color::X
                } else {
                    Color::O
                };
                return finish(pos, moves, Outcome::Win(leader), Ending::Material);
            }
        }
        if settings
            .max_plies
            .is_some_and(|max| moves.len() as u32 >= max)
        {
            return finish(pos, moves, Outcome::Draw, Ending::MaxLength);
        }

        let mover = pos.turn();
        let (go_limits, limit) = go_command(settings, clocks, mover);
        let player = &mut *players[mover as usize];
        let engine = player.engine.as_mut().expect("prepared above");
        let reply = match engine.search(&pos, &go_limits, settings.hang_timeout, limit) {
            Ok(reply) => reply,
            Err(err) => {
                // Whatever state it is in, this process is not trusted with another game.
                player.engine = None;
                let ending = fault_ending(mover, err, settings.time_control);
                return finish(pos, moves, forfeit(mover), ending);
            }
        };
        match settings.time_control {
            TimeControl::Clock { increment, .. } => {
                let clock = &mut clocks[mover as usize];
                if reply.elapsed > *clock + settings.margin {
                    return finish(
                        pos,
                        moves,
                        forfeit(mover),
                        Ending::TimeForfeit { by: mover },
                    );
                }
                *clock = clock.saturating_sub(reply.elapsed) + increment;
            }
            TimeControl::MoveTime(t) if reply.elapsed > t + settings.margin => {
                return finish(
                    pos,
                    moves,
                    forfeit(mover),
                    Ending::TimeForfeit { by: mover },
                );
            }
            _ => {}
        }
        let mv = match pos.parse_move(&reply.bestmove) {
            Ok(mv) => mv,
            Err(err) => {
                let ending = Ending::IllegalMove {
                    by: mover,
                    text: reply.bestmove,
                    reason: err.to_string(),
                };
                return finish(pos, moves, forfeit(mover), ending);
            }
        };
        pos.play_unchecked(mv);
        moves.push(PlayedMove {
            mv,
            time: reply.elapsed,
            score: reply.score,
            depth: reply.depth,
        });
    }
}

/// The `go` arguments for the side to move, and how long to wait for its `bestmove`.
fn go_command(settings: &GameSettings, clocks: [Duration; 2], mover: Color) -> (String, Duration) {
    match settings.time_control {
        TimeControl::Clock { increment, .. } => {
            let inc = increment.as_millis();
            let go = format!(
                "btime {} wtime {} binc {inc} winc {inc}",
                clocks[Color::X as usize].as_millis(),
                clocks[Color::O as usize].as_millis(),
            );
            (go, clocks[mover as usize] + settings.margin)
        }
        TimeControl::MoveTime(t) => (format!("movetime {}", t.as_millis()), t + settings.margin),
        TimeControl::Depth(d) => (format!("depth {d}"), settings.hang_timeout),
        TimeControl::Nodes(n) => (format!("nodes {n}"), settings.hang_timeout),
    }
}

/// How an engine fault ends the game: no `bestmove` in time is a time forfeit under a clock or
/// move time, a hang otherwise; a dead process is a crash.
fn fault_ending(by: Color, err: EngineError, tc: TimeControl) -> Ending {
    let timed = matches!(tc, TimeControl::Clock { .. } | TimeControl::MoveTime(_));
    match err {
        EngineError::Timeout {
            expected: "bestmove",
            ..
        } if timed => Ending::TimeForfeit { by },
        EngineError::Timeout { .. } => Ending::Hang {
            by,
            detail: err.to_string(),
        },
        EngineError::Spawn { .. } | EngineError::Exited { .. } => Ending::Crash {
            by,
            detail: err.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_and_write() {
        let ms = Duration::from_millis;
        for (text, tc, shown) in [
            (
                "8+0.08",
                TimeControl::Clock {
                    base: ms(8000),
                    increment: ms(80),
                },
                "8+0.08",
            ),
            (
                "10",
                TimeControl::Clock {
                    base: ms(10000),
                    increment: ms(0),
                },
                "10+0",
            ),
            (
                "movetime=100",
                TimeControl::MoveTime(ms(100)),
                "movetime=100",
            ),
            ("depth=3", TimeControl::Depth(3), "depth=3"),
            ("nodes=5000", TimeControl::Nodes(5000), "nodes=5000"),
        ] {
            assert_eq!(text.parse::<TimeControl>(), Ok(tc), "{text}");
            assert_eq!(tc.to_string(), shown);
        }
        for bad in [
            "",
            "0",
            "8+x",
            "-1+0",
            "depth=0",
            "depth=",
            "ply=3",
            "movetime=1.5",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_go_names_x_as_black() {
        let settings = GameSettings {
            time_control: "8+0.08".parse().unwrap(),
            margin: Duration::from_millis(50),
            hang_timeout: Duration::from_secs(5),
            material_margin: None,
            max_plies: None,
        };
        let clocks = [Duration::from_millis(7000), Duration::from_millis(6500)];
        let (go, limit) = go_command(&settings, clocks, Color::O);
        assert_eq!(go, "btime 7000 wtime 6500 binc 80 winc 80");
        assert_eq!(limit, Duration::from_millis(6550));
    }
}

//! Tournaments: who plays whom on which opening, game slots running in parallel, running
//! statistics per pairing, and stopping early on an SPRT decision.
//!
//! Every opening is played twice with colours swapped; the two games form a pair for the
//! pentanomial statistics. Each game slot is a thread that keeps its own engine processes alive
//! from game to game (`uainewgame` + `isready` between games), so a match of N games starts
//! about `slots × engines` processes, plus one per crash.
//!
//! Threads rather than async tasks: every wait on an engine is a blocking channel read with a
//! deadline, slots are few (one per core), and plain threads keep the code free of a runtime.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use ataxx::{Color, Outcome, Position};
use serde::Serialize;
use thiserror::Error;

use crate::engine::{Engine, EngineError, EngineSpec};
use crate::game::{play_game, GameRecord, GameSettings, Player};
use crate::stats::{match_estimate, EloEstimate, GameScore, Hypothesis, Pentanomial, Sprt, Wdl};

/// Who plays whom.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Exactly two engines.
    HeadToHead,
    /// The first engine against each of the others.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
}

/// A format name that is none of the three.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown format {0:?} (head-to-head, gauntlet, round-robin)")]
pub struct FormatError(String);

impl FromStr for Format {
    type Err = FormatError;

    fn from_str(text: &str) -> Result<Format, FormatError> {
        match text {
            "head-to-head" | "head2head" | "h2h" => Ok(Format::HeadToHead),
            "gauntlet" => Ok(Format::Gauntlet),
            "round-robin" | "roundrobin" | "rr" => Ok(Format::RoundRobin),
            _ => Err(FormatError(text.to_string())),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::HeadToHead => "head-to-head",
            Format::Gauntlet => "gauntlet",
            Format::RoundRobin => "round-robin",
        })
    }
}

impl Format {
    /// The pairings `(first, second)` for `engines` engines.
    pub fn pairings(self, engines: usize) -> Vec<(usize, usize)> {
        match self {
            Format::HeadToHead => vec![(0, 1)],
            Format::Gauntlet => (1..engines).map(|i| (0, i)).collect(),
            Format::RoundRobin => (0..engines)
                .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
                .collect(),
        }
    }
}

/// A whole match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    pub engines: Vec<EngineSpec>,
    pub format: Format,
    /// Games per pairing, rounded up to whole pairs.
    pub games: u32,
    /// Openings in the order they are used (cycled); empty = the start position.
    pub openings: Vec<Position>,
    pub game: GameSettings,
    /// Games played at once.
    pub concurrency: usize,
    /// Stop early once this test decides (head-to-head only).
    pub sprt: Option<Sprt>,
}

/// Why a match could not start.
#[derive(Debug, Error)]
pub enum MatchError {
    #[error("a match needs at least two engines, got {0}")]
    TooFewEngines(usize),
    #[error("head-to-head takes exactly two engines, got {0}")]
    HeadToHeadCount(usize),
    #[error("an SPRT needs a match with one pairing (head-to-head), not {0}")]
    SprtPairings(usize),
    #[error("engine {index} ({command}) failed its start-up check: {source}")]
    EngineCheck {
        index: usize,
        command: String,
        source: EngineError,
    },
}

/// One game as it finished, with who played it.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// 1-based number of the game in the schedule (PGN `Round`).
    pub round: u32,
    /// Index into [`MatchState::pairings`].
    pub pairing: usize,
    /// Engine indices of the x and o players.
    pub x: usize,
    pub o: usize,
    pub record: GameRecord,
}

/// Statistics after a completed pair, for plots.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct HistoryPoint {
    pub games: u64,
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
    pub llr: Option<f64>,
}

/// Results between two engines, from the first one's side.
#[derive(Clone, Debug, Serialize)]
pub struct PairingStats {
    pub first: usize,
    pub second: usize,
    pub wdl: Wdl,
    pub pentanomial: Pentanomial,
    /// From the pairs when there are any, else from the single games.
    pub estimate: EloEstimate,
    /// cutechess's LOS from wins and losses.
    pub los_wdl: f64,
    #[serde(skip)]
    pub history: Vec<HistoryPoint>,
    /// First games of pairs still waiting for their second, by pair number.
    #[serde(skip)]
    open_pairs: HashMap<u32, GameScore>,
}

impl PairingStats {
    fn new(first: usize, second: usize) -> PairingStats {
        PairingStats {
            first,
            second,
            wdl: Wdl::default(),
            pentanomial: Pentanomial::default(),
            estimate: EloEstimate::new(&Wdl::default().sample()),
            los_wdl: 0.5,
            history: Vec::new(),
            open_pairs: HashMap::new(),
        }
    }

    /// Counts a game of pair `pair` scored `score` for the first engine; true when it
    /// completed the pair.
    fn add(&mut self, pair: u32, score: GameScore) -> bool {
        self.wdl.add(score);
        self.los_wdl = self.wdl.los();
        let completed = match self.open_pairs.remove(&pair) {
            Some(other) => {
                self.pentanomial.add(other, score);
                true
            }
            None => {
                self.open_pairs.insert(pair, score);
                false
            }
        };
        self.estimate = match_estimate(&self.wdl, &self.pentanomial);
        completed
    }
}

/// Where an SPRT stands.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct SprtState {
    pub test: Sprt,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub decision: Option<Hypothesis>,
}

/// Everything known about a match so far; the final state is its summary.
#[derive(Clone, Debug, Serialize)]
pub struct MatchState {
    pub names: Vec<String>,
    pub format: Format,
    pub pairings: Vec<PairingStats>,
    pub games_scheduled: u64,
    pub games_played: u64,
    /// Games by how they ended (`rules`, `illegal move`, `crash`, …).
    pub endings: BTreeMap<&'static str, u64>,
    /// Points per engine over all its games.
    pub points: Vec<f64>,
    pub sprt: Option<SprtState>,
}

/// One scheduled game.
#[derive(Copy, Clone, Debug)]
struct Job {
    round: u32,
    pairing: usize,
    pair: u32,
    opening: Position,
    first_plays_x: bool,
}

/// Checks every engine, then plays the match, calling `on_game` after each finished game with
/// the updated state. Returns the final state.
pub fn run_match(
    settings: &MatchSettings,
    mut on_game: impl FnMut(&FinishedGame, &MatchState),
) -> Result<MatchState, MatchError> {
    let engines = settings.engines.len();
    if engines < 2 {
        return Err(MatchError::TooFewEngines(engines));
    }
    if settings.format == Format::HeadToHead && engines != 2 {
        return Err(MatchError::HeadToHeadCount(engines));
    }
    let pairings = settings.format.pairings(engines);
    if settings.sprt.is_some() && pairings.len() != 1 {
        return Err(MatchError::SprtPairings(pairings.len()));
    }
    let names = check_engines(&settings.engines, &settings.game)?;
    let jobs = schedule(settings, &pairings);
    let mut state = MatchState {
        names: names.clone(),
        format: settings.format,
        pairings: pairings
            .iter()
            .map(|&(a, b)| PairingStats::new(a, b))
            .collect(),
        games_scheduled: jobs.len() as u64,
        games_played: 0,
        endings: BTreeMap::new(),
        points: vec![0.0; engines],
        sprt: settings.sprt.map(|test| {
            let (lower, upper) = test.bounds();
            SprtState {
                test,
                llr: 0.0,
                lower,
                upper,
                decision: None,
            }
        }),
    };

    let specs: Vec<EngineSpec> = settings
        .engines
        .iter()
        .zip(&names)
        .map(|(spec, name)| EngineSpec {
            name: name.clone(),
            ..spec.clone()
        })
        .collect();
    let next_job = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let slots = settings.concurrency.clamp(1, jobs.len().max(1));
    thread::scope(|scope| {
        let (results, finished) = mpsc::channel();
        for _ in 0..slots {
            let results = results.clone();
            let (specs, jobs, next_job, stop) = (&specs, &jobs, &next_job, &stop);
            let pairings = &pairings;
            scope.spawn(move || {
                let mut players: Vec<Player> = specs.iter().cloned().map(Player::new).collect();
                while !stop.load(Ordering::Relaxed) {
                    let Some(job) = jobs.get(next_job.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let (first, second) = pairings[job.pairing];
                    let (x, o) = if job.first_plays_x {
                        (first, second)
                    } else {
                        (second, first)
                    };
                    let [px, po] = two_players(&mut players, x, o);
                    let Some(record) = play_game([px, po], job.opening, &settings.game, stop)
                    else {
                        break;
                    };
                    let game = FinishedGame {
                        round: job.round,
                        pairing: job.pairing,
                        x,
                        o,
                        record,
                    };
                    if results.send((game, job.pair)).is_err() {
                        break;
                    }
                }
                players.iter_mut().for_each(Player::shut_down);
            });
        }
        drop(results);
        for (game, pair) in finished {
            if state.sprt.is_some_and(|s| s.decision.is_some()) {
                continue; // decided: games still finishing do not count
            }
            record_game(&mut state, &game, pair);
            on_game(&game, &state);
            if state.sprt.is_some_and(|s| s.decision.is_some()) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    Ok(state)
}

/// Starts every engine once, all at the same time, to see that it speaks UAI, and names it: the
/// given name, else its `id name`, else its program; repeated names get ` (2)`, ` (3)`… appended.
fn check_engines(specs: &[EngineSpec], game: &GameSettings) -> Result<Vec<String>, MatchError> {
    let checked: Vec<Result<String, EngineError>> = thread::scope(|scope| {
        let handles: Vec<_> = specs
            .iter()
            .map(|spec| {
                scope.spawn(move || {
                    let engine = Engine::start(spec, game.hang_timeout)?;
                    let id = engine.id_name().unwrap_or_default().to_string();
                    engine.quit();
                    Ok(id)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("an engine check does not panic"))
            .collect()
    });
    let mut names: Vec<String> = Vec::new();
    for (index, (spec, id)) in specs.iter().zip(checked).enumerate() {
        let id = id.map_err(|source| MatchError::EngineCheck {
            index: index + 1,
            command: spec.command.join(" "),
            source,
        })?;
        let base = if !spec.name.is_empty() {
            spec.name.clone()
        } else if !id.is_empty() {
            id
        } else {
            spec.command[0]
                .rsplit('/')
                .next()
                .unwrap_or("engine")
                .to_string()
        };
        let mut name = base.clone();
        let mut n = 1;
        while names.contains(&name) {
            n += 1;
            name = format!("{base} ({n})");
        }
        names.push(name);
    }
    Ok(names)
}

/// All games in playing order: pair by pair, the pairings interleaved so that every pairing
/// progresses at the same pace.
fn schedule(settings: &MatchSettings, pairings: &[(usize, usize)]) -> Vec<Job> {
    let pairs = settings.games.div_ceil(2);
    let mut jobs = Vec::new();
    for pair in 0..pairs {
        let opening = if settings.openings.is_empty() {
            Position::startpos()
        } else {
            settings.openings[pair as usize % settings.openings.len()]
        };
        for pairing in 0..pairings.len() {
            for first_plays_x in [true, false] {
                jobs.push(Job {
                    round: jobs.len() as u32 + 1,
                    pairing,
                    pair,
                    opening,
                    first_plays_x,
                });
            }
        }
    }
    jobs
}

/// Mutable access to two different players.
fn two_players(players: &mut [Player], a: usize, b: usize) -> [&mut Player; 2] {
    assert_ne!(a, b, "an engine never plays itself");
    if a < b {
        let (left, right) = players.split_at_mut(b);
        [&mut left[a], &mut right[0]]
    } else {
        let (left, right) = players.split_at_mut(a);
        [&mut right[0], &mut left[b]]
    }
}

fn record_game(state: &mut MatchState, game: &FinishedGame, pair: u32) {
    state.games_played += 1;
    *state.endings.entry(game.record.ending.kind()).or_default() += 1;
    let score_of = |engine: usize| match game.record.outcome {
        Outcome::Draw => GameScore::Draw,
        Outcome::Win(c) if (c == Color::X) == (engine == game.x) => GameScore::Win,
        Outcome::Win(_) => GameScore::Loss,
    };
    for engine in [game.x, game.o] {
        state.points[engine] += score_of(engine).half_points() as f64 / 2.0;
    }
    let stats = &mut state.pairings[game.pairing];
    if stats.add(pair, score_of(stats.first)) {
        let llr = state.sprt.as_mut().map(|sprt| {
            sprt.llr = sprt.test.llr(&stats.pentanomial);
            sprt.decision = sprt.test.decision(sprt.llr, stats.pentanomial.pairs());
            sprt.llr
        });
        stats.history.push(HistoryPoint {
            games: stats.wdl.games(),
            elo: stats.estimate.elo,
            lower: stats.estimate.lower,
            upper: stats.estimate.upper,
            llr,
        });
    }
}

//! Players: something that chooses a move.

use std::fmt;
use std::str::FromStr;

use ataxx::{Move, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::choice::BestPicker;
use crate::gataxx::worst_case_score;
use crate::heuristics::{applet_score, Heuristic};
use crate::moveset::MoveSet;
use crate::search::{search, SearchSpec};

/// Chooses moves.
pub trait Player: Send {
    /// A new game begins (a player may vary its style per game).
    fn new_game(&mut self) {}

    /// A legal move of `pos`, or `None` once the game is over.
    fn choose(&mut self, pos: &Position) -> Option<Move>;
}

/// One of seed 003's classic players, with its settings. `FromStr`/`Display` use the form
/// `name[:key=value,...]`, e.g. `alphabeta:depth=3,eval=rings,moves=reduced,jitter=on`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// Random, choosing a single 3 times in 4 when singles and jumps both exist.
    Random,
    /// The move that leaves the most own pieces.
    Greedy,
    /// The move that wins the most pieces (flips), which treats a jump like a single.
    PiecesWon,
    /// Paul Buchheit's applet formula ([`applet_score`]).
    Applet,
    /// Gataxx level 3 ([`worst_case_score`]).
    Gataxx,
    /// Minimax or alpha-beta at a fixed depth; `jitter` varies the rings weights by up to ±25%
    /// each game.
    Search { search: SearchSpec, jitter: bool },
}

/// The rings weights used when none are given: a ring of own neighbours is worth half a piece,
/// two rings a whole one.
const DEFAULT_RINGS: Heuristic = Heuristic::Rings { a: 50, b: 100 };

/// A player name or setting that does not exist.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlayerSpecError {
    #[error("unknown player {0:?}; players: random, greedy, pieces-won, applet, gataxx, minimax, alphabeta")]
    UnknownName(String),
    #[error("player {player}: unknown setting {key:?}; settings: depth=1..8, eval=own|diff|rings, a=N, b=N (hundredths), moves=raw|merged|reduced, jitter=on|off")]
    UnknownKey { player: String, key: String },
    #[error("player {player}: bad value {value:?} for {key}")]
    BadValue {
        player: String,
        key: String,
        value: String,
    },
    #[error("player {0} takes no settings")]
    NoSettings(String),
}

impl FromStr for PlayerSpec {
    type Err = PlayerSpecError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (name, settings) = text.split_once(':').unwrap_or((text, ""));
        let simple = match name {
            "random" => Some(PlayerSpec::Random),
            "greedy" => Some(PlayerSpec::Greedy),
            "pieces-won" => Some(PlayerSpec::PiecesWon),
            "applet" => Some(PlayerSpec::Applet),
            "gataxx" => Some(PlayerSpec::Gataxx),
            "minimax" | "alphabeta" => None,
            _ => return Err(PlayerSpecError::UnknownName(name.to_string())),
        };
        if let Some(spec) = simple {
            return if settings.is_empty() {
                Ok(spec)
            } else {
                Err(PlayerSpecError::NoSettings(name.to_string()))
            };
        }
        let mut search = SearchSpec {
            depth: 2,
            heuristic: DEFAULT_RINGS,
            moves: MoveSet::Raw,
            pruning: name == "alphabeta",
        };
        let (mut a, mut b) = (50, 100);
        let mut eval = "rings";
        let mut jitter = false;
        for pair in settings.split(',').filter(|s| !s.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let bad = || PlayerSpecError::BadValue {
                player: name.into(),
                key: key.into(),
                value: value.into(),
            };
            match key {
                "depth" => {
                    search.depth = value
                        .parse()
                        .ok()
                        .filter(|d| (1..=8).contains(d))
                        .ok_or_else(bad)?
                }
                "eval" if matches!(value, "own" | "diff" | "rings") => eval = value,
                "a" => a = value.parse().map_err(|_| bad())?,
                "b" => b = value.parse().map_err(|_| bad())?,
                "moves" => {
                    search.moves = match value {
                        "raw" => MoveSet::Raw,
                        "merged" => MoveSet::Merged,
                        "reduced" => MoveSet::Reduced,
                        _ => return Err(bad()),
                    }
                }
                "jitter" if matches!(value, "on" | "off") => jitter = value == "on",
                "eval" | "jitter" => return Err(bad()),
                _ => {
                    return Err(PlayerSpecError::UnknownKey {
                        player: name.into(),
                        key: key.into(),
                    })
                }
            }
        }
        search.heuristic = match eval {
            "own" => Heuristic::Own,
            "diff" => Heuristic::Difference,
            _ => Heuristic::Rings { a, b },
        };
        Ok(PlayerSpec::Search { search, jitter })
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::PiecesWon => f.write_str("pieces-won"),
            PlayerSpec::Applet => f.write_str("applet"),
            PlayerSpec::Gataxx => f.write_str("gataxx"),
            PlayerSpec::Search { search, jitter } => {
                let name = if search.pruning {
                    "alphabeta"
                } else {
                    "minimax"
                };
                let eval = match search.heuristic {
                    Heuristic::Own => "eval=own".to_string(),
                    Heuristic::Difference => "eval=diff".to_string(),
                    Heuristic::Rings { a, b } => format!("eval=rings,a={a},b={b}"),
                };
                let moves = match search.moves {
                    MoveSet::Raw => "raw",
                    MoveSet::Merged => "merged",
                    MoveSet::Reduced => "reduced",
                };
                let jitter = if *jitter { "on" } else { "off" };
                write!(
                    f,
                    "{name}:depth={},{eval},moves={moves},jitter={jitter}",
                    search.depth
                )
            }
        }
    }
}

impl PlayerSpec {
    /// A player with this spec whose random choices follow `seed`.
    pub fn build(self, seed: u64) -> ClassicPlayer {
        ClassicPlayer {
            name: self.to_string(),
            spec: self,
            weights: self,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

/// A player built from a [`PlayerSpec`].
pub struct ClassicPlayer {
    /// How the player introduces itself (its spec, or the level it plays).
    name: String,
    spec: PlayerSpec,
    /// The spec in force this game (rings weights varied when jitter is on).
    weights: PlayerSpec,
    rng: ChaCha8Rng,
}

impl ClassicPlayer {
    /// The same player under another name.
    pub fn named(mut self, name: impl Into<String>) -> ClassicPlayer {
        self.name = name.into();
        self
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    fn best_by<S: PartialOrd>(
        &mut self,
        pos: &Position,
        score: impl Fn(Move) -> S,
    ) -> Option<Move> {
        let mut picker = BestPicker::new();
        for mv in pos.legal_moves() {
            picker.offer(score(mv), mv, &mut self.rng);
        }
        picker.into_best().map(|(_, mv)| mv)
    }
}

impl Player for ClassicPlayer {
    fn new_game(&mut self) {
        self.weights = match self.spec {
            PlayerSpec::Search {
                mut search,
                jitter: true,
            } => {
                if let Heuristic::Rings { a, b } = search.heuristic {
                    let mut vary = |w: i32| w + self.rng.random_range(-(w.abs() / 4)..=w.abs() / 4);
                    search.heuristic = Heuristic::Rings {
                        a: vary(a),
                        b: vary(b),
                    };
                }
                PlayerSpec::Search {
                    search,
                    jitter: true,
                }
            }
            spec => spec,
        };
    }

    fn choose(&mut self, pos: &Position) -> Option<Move> {
        let me = pos.turn();
        match self.weights {
            PlayerSpec::Random => {
                let moves = pos.legal_moves();
                let (singles, jumps): (Vec<Move>, Vec<Move>) =
                    moves.iter().partition(|m| !m.is_jump());
                let pool = match (singles.is_empty(), jumps.is_empty()) {
                    (false, false) if self.rng.random_range(0..4) < 3 => singles,
                    (false, false) => jumps,
                    (false, true) => singles,
                    _ => jumps
                        .into_iter()
                        .chain(moves.iter().copied().filter(|m| *m == Move::Pass))
                        .collect(),
                };
                (!pool.is_empty()).then(|| pool[self.rng.random_range(0..pool.len())])
            }
            PlayerSpec::Greedy => self.best_by(pos, |mv| {
                let mut after = *pos;
                after.play_unchecked(mv);
                after.pieces(me).count()
            }),
            PlayerSpec::PiecesWon => self.best_by(pos, |mv| pos.flips(mv).count()),
            PlayerSpec::Applet => self.best_by(pos, |mv| applet_score(pos, mv)),
            PlayerSpec::Gataxx => self.best_by(pos, |mv| worst_case_score(pos, mv)),
            PlayerSpec::Search { search: spec, .. } => search(pos, spec, &mut self.rng).best,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_bad_names_explain() {
        for name in ["random", "greedy", "pieces-won", "applet", "gataxx"] {
            assert_eq!(name.parse::<PlayerSpec>().unwrap().to_string(), name);
        }
        let spec: PlayerSpec = "alphabeta:depth=3,eval=rings,a=40,b=90,moves=reduced,jitter=on"
            .parse()
            .unwrap();
        assert_eq!(
            spec.to_string(),
            "alphabeta:depth=3,eval=rings,a=40,b=90,moves=reduced,jitter=on"
        );
        assert_eq!(spec.to_string().parse::<PlayerSpec>().unwrap(), spec);
        let err = |s: &str| s.parse::<PlayerSpec>().unwrap_err().to_string();
        assert!(err("grredy").contains("unknown player"));
        assert!(err("minimax:depth=0").contains("bad value \"0\" for depth"));
        assert!(err("minimax:speed=3").contains("unknown setting"));
        assert!(err("greedy:depth=3").contains("takes no settings"));
    }

    #[test]
    fn greedy_prefers_a_single_and_pieces_won_does_not_care() {
        // x on c3, o on e5 and f5 (pieces won by d4 or by a jump to e4/f4.. equal).
        let pos: Position = "7/7/4oo1/7/2x4/7/6o x 0 1".parse().unwrap();
        let mut greedy = PlayerSpec::Greedy.build(1);
        let mv = greedy.choose(&pos).unwrap();
        // d4 flips e5: x = 3. Jump c3e4 flips e5 f5: x = 3 as well; single d4 only flips 1.
        // Best own count: jumps to e4 (flips e5, f5) -> 1 + 2 = 3; d4 -> 2 + 1 = 3. Both 3.
        let mut after = pos;
        after.play(mv).unwrap();
        assert_eq!(after.pieces(ataxx::Color::X).count(), 3);
        let mut won = PlayerSpec::PiecesWon.build(1);
        let mv = won.choose(&pos).unwrap();
        assert_eq!(pos.flips(mv).count(), 2, "{mv}");
    }

    #[test]
    fn random_player_prefers_singles() {
        let mut player = PlayerSpec::Random.build(9);
        let pos = Position::startpos();
        let singles = (0..4000)
            .filter(|_| !player.choose(&pos).unwrap().is_jump())
            .count();
        // 3/4 expected: 3000 ± 4·27.
        assert!((2890..=3110).contains(&singles), "{singles}");
    }
}

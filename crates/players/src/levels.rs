//! The named difficulty levels, in one table.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::engine_player::EnginePlayer;
use crate::player::{Player, PlayerSpec};

/// What plays at a level.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Strength {
    /// One of seed 003's players.
    Classic(&'static str),
    /// The project's full engine with this much time per move.
    Engine { movetime_ms: u64 },
}

/// A named level.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub name: &'static str,
    pub strength: Strength,
    pub description: &'static str,
}

/// Every level, weakest first. Each is meant to score at least 75% against the one before it
/// (measured in docs/levels.md).
pub const LEVELS: [Level; 6] = [
    Level {
        name: "very-easy",
        strength: Strength::Classic("random"),
        description: "random moves, singles three times in four: for learning the rules",
    },
    Level {
        name: "easy",
        strength: Strength::Classic("greedy"),
        description: "takes the move that leaves it the most pieces, never looks ahead",
    },
    Level {
        name: "medium",
        strength: Strength::Classic("gataxx"),
        description: "gataxx level 3: checks the opponent's greediest reply to each move",
    },
    Level {
        name: "hard",
        strength: Strength::Classic("alphabeta:depth=3,eval=diff,moves=reduced"),
        description: "alpha-beta 3 plies deep on the piece difference, over the reduced move list",
    },
    Level {
        name: "very-hard",
        strength: Strength::Classic("alphabeta:depth=5,eval=diff,moves=reduced"),
        description: "alpha-beta 5 plies deep on the piece difference, over the reduced move list",
    },
    Level {
        name: "master",
        strength: Strength::Engine { movetime_ms: 1000 },
        description: "the full engine, one second a move",
    },
];

/// A level name that does not exist.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown level {0:?}; levels: very-easy, easy, medium, hard, very-hard, master")]
pub struct UnknownLevel(pub String);

impl FromStr for &'static Level {
    type Err = UnknownLevel;

    /// Accepts `very-easy`, `very easy`, `very_easy` and `veryeasy`, in any case.
    fn from_str(text: &str) -> Result<Self, UnknownLevel> {
        let key: String = text
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        LEVELS
            .iter()
            .find(|level| level.name.replace('-', "") == key)
            .ok_or_else(|| UnknownLevel(text.to_string()))
    }
}

impl Level {
    /// The classic player of this level, if it is not the engine.
    pub fn classic(&self) -> Option<PlayerSpec> {
        match self.strength {
            Strength::Classic(spec) => {
                Some(spec.parse().expect("level table holds valid player specs"))
            }
            Strength::Engine { .. } => None,
        }
    }
}

impl Level {
    /// A player of this level whose random choices follow `seed`.
    pub fn player(&self, seed: u64) -> Box<dyn Player> {
        match self.strength {
            Strength::Classic(_) => Box::new(
                self.classic()
                    .expect("classic level")
                    .build(seed)
                    .named(self.name),
            ),
            Strength::Engine { movetime_ms } => Box::new(EnginePlayer::new(
                std::time::Duration::from_millis(movetime_ms),
            )),
        }
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strength::Classic(spec) => f.write_str(spec),
            Strength::Engine { movetime_ms } => write!(f, "engine:movetime={movetime_ms}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_parses_and_is_found_by_its_spellings() {
        for level in &LEVELS {
            if let Strength::Classic(_) = level.strength {
                assert!(level.classic().is_some());
            }
            let found: &Level = level.name.parse().unwrap();
            assert_eq!(found, level);
        }
        let found: &Level = "Very Easy".parse().unwrap();
        assert_eq!(found.name, "very-easy");
        assert!("impossible".parse::<&Level>().is_err());
    }
}

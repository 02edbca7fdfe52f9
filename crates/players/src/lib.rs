//! Computer players for people: the players that seed 003 studies, and named levels.
//!
//! ```
//! use ataxx::Position;
//! use ataxx_players::{Player, PlayerSpec};
//! let spec: PlayerSpec = "alphabeta:depth=2,eval=diff,moves=reduced".parse().unwrap();
//! let mut player = spec.build(42);
//! let mv = player.choose(&Position::startpos()).unwrap();
//! assert!(Position::startpos().is_legal(mv));
//! ```

mod alpha_beta;
mod choice;
mod engine_player;
mod gataxx;
pub mod generic;
mod heuristics;
mod levels;
mod moveset;
mod player;
mod search;

pub use choice::BestPicker;
pub use engine_player::EnginePlayer;
pub use gataxx::worst_case_score;
pub use generic::{choose_any, description, plays, ChooseError};
pub use heuristics::{applet_score, ringed_pieces, Heuristic, WIN};
pub use levels::{Level, Strength, UnknownLevel, LEVELS};
pub use moveset::MoveSet;
pub use player::{ClassicPlayer, Player, PlayerSpec, PlayerSpecError};
pub use search::{search, SearchResult, SearchSpec};

//! Players for every game behind [`games::Rules`]: random, greedy and a fixed-depth
//! paranoid alpha-beta search, the named levels of each variant, and [`choose_any`], the
//! entry point for callers that know the game only at run time (the server's bots).
//!
//! ```
//! use games::GameKind;
//! let pos = GameKind::Hexxagon.start(&Default::default()).unwrap();
//! let mv = ataxx_players::choose_any("medium", pos.as_ref(), 7).unwrap();
//! assert!(pos.legal_moves().contains(&mv));
//! ```

mod ankor;
mod any;
mod ataxx4;
mod dispatch;
mod eval;
mod greedy;
mod levels;
mod lines;
mod random;
mod search;
pub mod uai;

pub use any::{
    analyse_any, choose_any, choose_generic, choose_with, description, plays, search_any,
    strongest_search, value_for_any, Analysis, StrongestSearch,
};
pub use dispatch::ChooseError;
pub use eval::{evaluate, piece_margin, single_or_jump, Evaluate, WIN};
pub use greedy::greedy_move;
pub use levels::{
    search, variant_levels, GenericLevel, GenericStrength, ANKOR_LEVELS, ATAXX4_LEVELS,
    HEXXAGON_LEVELS, MOVE_TIME_MS, NODE_LIMIT,
};
pub use lines::{search_lines, search_lines_any, LinesWanted, RootLine, RootLines};
pub use random::random_move;
pub use search::{paranoid_search, search_with, value_for, Judge, Limits, SearchOutcome};

//! Engine matches for Ataxx: UAI engines run as child processes and play each other from an
//! opening book under a time control; games are adjudicated and recorded; results become Elo,
//! error bars, LOS and an SPRT decision; the course of a match becomes an SVG chart.
//!
//! * [`engine`]: one engine process over pipes, with time-outs.
//! * [`game`]: one game, its clocks, adjudication and every way an engine can lose.
//! * [`tournament`]: pairings, parallel game slots, running statistics, SPRT stopping.
//! * [`stats`]: Elo, error, LOS, pentanomial pairs, SPRT.
//! * [`pgn`], [`plot`], [`book`], [`openings`]: records, charts, opening books.

pub mod book;
pub mod engine;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod plot;
pub mod stats;
pub mod tournament;
pub mod variant;

pub use engine::{Engine, EngineError, EngineSpec};
pub use game::{Ending, GameRecord, GameSettings, TimeControl};
pub use tournament::{run_match, FinishedGame, Format, MatchSettings, MatchState};
pub use variant::{
    run_variant_match, VariantGame, VariantMatchError, VariantMatchSettings, VariantMatchState,
};

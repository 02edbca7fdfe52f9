//! An Ataxx engine: iterative-deepening alpha-beta search over a pluggable evaluation, with
//! time management and the UAI protocol.
//!
//! One module per idea: [`search`] (iterative deepening, PVS, pruning), [`ordering`] (move
//! ordering), [`tt`] (transposition table), [`eval`] (evaluation), [`time`] (time management),
//! [`score`] (score units and game-end scores), [`uai`] (protocol loop), [`mod@bench`] (fixed
//! benchmark), [`data`] (training records), [`nnue`] (the learned evaluation), [`train`] (its trainer).

pub mod bench;
pub mod data;
pub mod eval;
pub mod nnue;
pub mod ordering;
pub mod score;
pub mod search;
pub mod time;
pub mod train;
pub mod tt;
pub mod tune;
pub mod uai;

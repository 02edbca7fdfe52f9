//! An Ataxx engine: iterative-deepening alpha-beta search over a pluggable evaluation, with
//! time management and the UAI protocol.
//!
//! One module per idea: [`search`] (iterative deepening, PVS, pruning; its `multipv` the best
//! few lines for analysis), [`ordering`] (move ordering), [`tt`] (transposition table),
//! [`eval`] (evaluation), [`time`] (time management),
//! [`score`] (score units and game-end scores), [`uai`] (protocol loop), [`mod@bench`] (fixed
//! benchmark), [`data`] (training records), [`nnue`] (the learned evaluation), [`net_eval`] (the engine's
//! evaluation: the net where it applies, hand-crafted elsewhere), [`train`] (the net's trainer),
//! [`rng`] (the seeded generator both use).
//!
//! The modules import one way: `uai` and `bench` over `search`; `search` over `ordering`, `tt`,
//! `time`, `eval` and `nnue`; `net_eval` over `eval` and `nnue`; `eval` over `nnue`; `train` over
//! `nnue` and `data`; `nnue` and `train` over `rng`, which imports nothing of the crate.

pub mod bench;
pub mod data;
pub mod eval;
pub mod net_eval;
pub mod nnue;
pub mod ordering;
pub mod rng;
pub mod score;
pub mod search;
pub mod time;
pub mod train;
pub mod tt;
pub mod tune;
pub mod uai;

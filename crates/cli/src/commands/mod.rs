//! One module per subcommand: its clap `Args` and a `run` function.

pub mod analyze;
pub mod bench;
pub mod perft;
pub mod uai;

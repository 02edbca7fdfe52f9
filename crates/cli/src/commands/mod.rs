//! One module per subcommand: its clap `Args` and a `run` function.

pub mod perft;
pub mod replay;

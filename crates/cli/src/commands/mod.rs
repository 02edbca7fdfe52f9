//! One module per subcommand: its clap `Args` and a `run` function.

pub mod r#match;
pub mod openings;
pub mod perft;

//! What the tool tests share, compiled once for the binary: running `ataxx`, the Python side,
//! a UAI engine behind pipes.

#[path = "../../shared/python.rs"]
pub mod python;
#[path = "../../shared/run.rs"]
mod run;
pub mod uai_pipe;

pub use run::{ataxx, stdout_of};

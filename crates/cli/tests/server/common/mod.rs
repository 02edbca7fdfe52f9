//! What the server tests share, compiled once for the binary.

pub mod database;
pub mod mail_kit;
pub mod persons_move;
#[path = "../../shared/python.rs"]
pub mod python;
#[path = "../../shared/run.rs"]
mod run;
pub mod seam;
pub mod served;
pub mod text_setup;

pub use run::stdout_of;

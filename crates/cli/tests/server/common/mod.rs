//! What the server tests share, compiled once for the binary: the one server runner
//! ([`served`]), the table most tests sit at ([`table`]), the database they run on
//! ([`database`]), the mail kit, and the test's own game rules ([`seam`]).

pub mod database;
pub mod mail_kit;
pub mod persons_move;
#[path = "../../shared/python.rs"]
pub mod python;
#[path = "../../shared/run.rs"]
mod run;
pub mod seam;
pub mod served;
pub mod table;
pub mod text_setup;

pub use run::{ataxx_command, stdout_of};

/// The command line of the random mover (`tests/python/random_mover.py`), an engine of a few
/// lines that needs no package: run by `ATAXX_PYTHON` or the `.venv` where there is one, else by
/// `python3` on the path.
pub fn random_mover() -> [String; 2] {
    let interpreter = Some(python::interpreter())
        .filter(|path| path.exists())
        .unwrap_or_else(|| "python3".into());
    let script = python::script_path("random_mover.py");
    [interpreter, script].map(|path| path.display().to_string())
}

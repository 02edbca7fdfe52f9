//! Looking ahead without playing: a board's position after moves not played (`preview`), and
//! the engine's best move in a position (the browser's analysis), the live lines of the analysis
//! board (`live`: the searches and their caps; `lines`: one position's best lines as the depth
//! grows), and the computer analysis of finished games (`jobs`: the queue and its workers;
//! `search`: one position at the budget; `judge`: classes and accuracy).

pub mod jobs;
mod judge;
mod lines;
pub mod live;
mod search;

pub use jobs::{Analyses, Options};
pub use live::{LiveAnalyses, LiveOptions};

use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;
use std::time::Duration;

use ataxx::Position;
use engine::net_eval::NetEval;
use engine::search::{Engine, Report};
use engine::time::Limits;
use games::AnyPosition;

use crate::domain::explorer::position_key;
use crate::domain::games::replay;
use crate::domain::gate::Gate;
use crate::error::{Error, Result};
use crate::model::GameView;
use crate::store::{self, Storage};

/// How long the engine thinks for an analysis request.
pub const ANALYSIS_TIME: Duration = Duration::from_millis(500);

/// A board's position after moves that were not played.
pub struct Preview {
    pub position: Box<dyn AnyPosition>,
    /// The moves as the game wrote them, with the passes the server would have made
    /// (`--(Auto)`).
    pub played: Vec<String>,
    /// The last move given, as the game wrote it.
    pub last: Option<String>,
}

/// Plays `moves` on a copy of the board, passing for a side that cannot move as the server does.
pub fn preview(view: &GameView, moves: &[String]) -> Result<Preview> {
    // Replayed, so that the position remembers its past (Ankor's repetitions).
    let mut position = replay(
        view.summary
            .game
            .parse()
            .expect("stored boards name a known game"),
        &view.summary.start_fen,
        &mut view.moves.clone(),
    );
    let (mut played, mut last) = (vec![], None);
    for text in moves {
        let text = position.play(text)?.text;
        last = Some(text.clone());
        played.push(text);
        while position.outcome().is_none() && position.legal_moves() == ["0000"] {
            position.play("0000")?;
            played.push("--(Auto)".into());
        }
    }
    Ok(Preview {
        position,
        played,
        last,
    })
}

/// Refuses a position that stands on a board in play: the engine helps nobody during a game,
/// neither its players nor its spectators. The position is compared without its move counters
/// (the board, the side to move; Ankor's reserves too), so other counters do not get around it.
pub async fn refuse_positions_in_play(storage: &Storage, position: &dyn AnyPosition) -> Result<()> {
    let kind = position.kind();
    let prefix = format!("{} ", position_key(kind, &position.fen()));
    let mut conn = storage.read().await?;
    match store::in_play_at(&mut conn, kind.name(), &prefix).await? {
        true => Err(Error::AnalysisOfGameInPlay),
        false => Ok(()),
    }
}

/// Lowers this thread's scheduling priority (nice 10) so that the server's own threads come
/// first when the cores are busy: the analysis workers' and the live searches'.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority with the calling thread's id changes that thread's nice value only.
    unsafe {
        let thread = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, thread, 10);
    }
}

/// The searches that may run at once (each holds a core and a 16 MiB table for
/// [`ANALYSIS_TIME`]): one per two cores, four waiting for each; one gate per process.
fn searches() -> &'static Gate {
    static SEARCHES: OnceLock<Gate> = OnceLock::new();
    SEARCHES.get_or_init(|| Gate::by_cores("analyses", 2, 4))
}

impl Analyses {
    /// The engine's best move in `position` after [`ANALYSIS_TIME`] (the browser's analysis):
    /// refused for a position on a board in play ([`Error::AnalysisOfGameInPlay`]), and with
    /// [`Error::Busy`] when too many searches run and wait already.
    pub async fn best_move(&self, position: Position) -> Result<Report> {
        refuse_positions_in_play(&self.storage, &position).await?;
        analyse(position).await
    }
}

/// Searches a position for [`ANALYSIS_TIME`] on a blocking thread, or refuses with
/// [`Error::Busy`] when too many searches run and wait already.
async fn analyse(position: Position) -> Result<Report> {
    searches()
        .run(move || {
            let mut engine = Engine::new(NetEval::builtin(), 16);
            let limits = Limits {
                movetime: Some(ANALYSIS_TIME),
                ..Limits::default()
            };
            engine.search(&position, &limits, &AtomicBool::new(false), |_| {})
        })
        .await
}

//! Engine analysis of a position for clients (the browser's "best move" button): one search at a
//! time, a bounded time each, on the blocking pool.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use ataxx::Position;
use engine::eval::HandCrafted;
use engine::search::Engine;
use engine::time::Limits;
use serde::Serialize;
use tokio::sync::Semaphore;

use crate::error::{Error, Result};

/// The longest search a client may ask for.
pub const MAX_MOVETIME_MS: u64 = 3000;
const HASH_MIB: usize = 8;

/// What the engine found.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    pub fen: String,
    /// The best move (strict text), absent when the game is over.
    #[serde(rename = "move")]
    pub best: Option<String>,
    /// For the side to move, in hundredths of a piece; ±(10000 − plies) for a forced game end.
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    /// The best line, strict move text.
    pub pv: Vec<String>,
}

/// Runs analyses one at a time.
#[derive(Clone)]
pub struct Analyst {
    turn: Arc<Semaphore>,
}

impl Default for Analyst {
    fn default() -> Self {
        Analyst {
            turn: Arc::new(Semaphore::new(1)),
        }
    }
}

impl Analyst {
    pub async fn analyze(&self, fen: &str, movetime_ms: u64) -> Result<Analysis> {
        let pos: Position = fen
            .parse()
            .map_err(|err| Error::Command(format!("FEN {fen:?}: {err}")))?;
        if !(1..=MAX_MOVETIME_MS).contains(&movetime_ms) {
            return Err(Error::Command(format!(
                "movetime_ms {movetime_ms}: from 1 to {MAX_MOVETIME_MS}"
            )));
        }
        let _turn = self.turn.acquire().await.expect("the semaphore stays open");
        let report = tokio::task::spawn_blocking(move || {
            let limits = Limits {
                movetime: Some(Duration::from_millis(movetime_ms)),
                ..Limits::default()
            };
            Engine::new(HandCrafted::default(), HASH_MIB).search(
                &pos,
                &limits,
                &AtomicBool::new(false),
                |_| {},
            )
        })
        .await
        .map_err(|err| Error::Config(format!("analysis failed: {err}")))?;
        Ok(Analysis {
            fen: pos.to_string(),
            best: report.pv.first().map(|mv| mv.to_string()),
            score: report.score,
            depth: report.depth,
            nodes: report.nodes,
            pv: report.pv.iter().map(|mv| mv.to_string()).collect(),
        })
    }
}

//! Computer players: one account per named level (`bot-very-easy` ... `bot-master`), each run
//! by its own task that listens to its account's events, accepts challenges and plays when it is
//! to move. Thinking runs on the blocking pool, off the request path; the `#N` guard makes a
//! move computed for a stale position fail harmlessly.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ataxx::{Move, Position};
use ataxx_players::{Level, Player, Strength, LEVELS};
use engine::eval::HandCrafted;
use engine::search::Engine;
use engine::time::Limits;
use tokio::sync::broadcast::error::RecvError;

use crate::accounts::BOT_PREFIX;
use crate::error::Result;
use crate::games::{Action, Answer, Games};
use crate::storage::{self, Storage};
use crate::App;

/// The account name of a level.
pub fn account_name(level: &Level) -> String {
    format!("{BOT_PREFIX}{}", level.name)
}

/// The transposition table of an engine bot.
const ENGINE_HASH_MIB: usize = 16;

/// What chooses a bot's moves.
#[derive(Clone)]
enum Thinker {
    /// A classic player, built afresh for each move with a seed from the board and ply.
    Classic(&'static Level),
    /// The engine, kept between moves (its tables), with a time per move.
    Engine {
        engine: Arc<Mutex<Engine<HandCrafted>>>,
        movetime: Duration,
    },
}

impl Thinker {
    fn of(level: &'static Level) -> Thinker {
        match level.strength {
            Strength::Classic(_) => Thinker::Classic(level),
            Strength::Engine { movetime_ms } => Thinker::Engine {
                engine: Arc::new(Mutex::new(Engine::new(
                    HandCrafted::default(),
                    ENGINE_HASH_MIB,
                ))),
                movetime: Duration::from_millis(movetime_ms),
            },
        }
    }

    /// Chooses a move (blocking: run it off the async threads).
    fn choose(&self, pos: &Position, seed: u64) -> Option<Move> {
        match self {
            Thinker::Classic(level) => level
                .classic()
                .expect("classic levels have a player")
                .build(seed)
                .choose(pos),
            Thinker::Engine { engine, movetime } => {
                let limits = Limits {
                    movetime: Some(*movetime),
                    ..Limits::default()
                };
                let mut engine = engine
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                let report = engine.search(pos, &limits, &AtomicBool::new(false), |_| {});
                Some(report.best_move())
            }
        }
    }
}

/// Creates the bot accounts and starts their tasks.
pub async fn start(app: &App) -> Result<()> {
    for level in &LEVELS {
        let name = account_name(level);
        app.accounts.ensure_bot(&name, level.name).await?;
        let events = app.hub.user(&name);
        let bot = Bot {
            name,
            thinker: Thinker::of(level),
            games: app.games.clone(),
            storage: app.storage.clone(),
        };
        tokio::spawn(bot.run(events));
    }
    Ok(())
}

struct Bot {
    name: String,
    thinker: Thinker,
    games: Games,
    storage: Storage,
}

impl Bot {
    async fn run(self, mut events: tokio::sync::broadcast::Receiver<crate::events::Event>) {
        // Boards left waiting before a restart.
        self.rescan().await;
        loop {
            match events.recv().await {
                Ok(event) => self.attend(event.board).await,
                Err(RecvError::Lagged(_)) => self.rescan().await,
                Err(RecvError::Closed) => return,
            }
        }
    }

    async fn rescan(&self) {
        let boards = match self.storage.read().await {
            Ok(mut conn) => storage::open_boards(&mut conn).await.unwrap_or_default(),
            Err(_) => vec![],
        };
        for game in boards.iter().filter(|g| g.color_of(&self.name).is_some()) {
            self.attend(game.board).await;
        }
    }

    /// Does what the board needs from this bot, if anything.
    async fn attend(&self, board: i64) {
        if let Err(err) = self.try_attend(board).await {
            tracing::debug!(bot = %self.name, board, %err, "bot action refused");
        }
    }

    async fn try_attend(&self, board: i64) -> Result<()> {
        let game = self.games.row(board).await?;
        let Some(color) = game.color_of(&self.name) else {
            return Ok(());
        };
        let accepted = match color {
            ataxx::Color::X => game.x_accepted,
            ataxx::Color::O => game.o_accepted,
        };
        if game.status == "challenge" && !accepted {
            self.games.answer(board, &self.name, Answer::Accept).await?;
            return Ok(());
        }
        if game.status != "active" {
            return Ok(());
        }
        if !game.proposal.is_empty() && game.proposal_by != self.name {
            self.games
                .act(board, &self.name, &Action::Reject, None)
                .await?;
            return Ok(());
        }
        let pos = game.position();
        if pos.turn() != color {
            return Ok(());
        }
        let seed = (board as u64) << 16 ^ game.plies as u64;
        let thinker = self.thinker.clone();
        let mv = tokio::task::spawn_blocking(move || thinker.choose(&pos, seed))
            .await
            .ok()
            .flatten();
        let Some(mv) = mv.filter(|mv| *mv != Move::Pass) else {
            return Ok(());
        };
        let action = Action::Play(mv.to_string());
        self.games
            .act(board, &self.name, &action, Some(game.plies + 1))
            .await?;
        Ok(())
    }
}

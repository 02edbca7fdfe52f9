//! Games: challenges, moves with the `#N` guard, automatic passes, resignation, draw and undo
//! proposals, live clocks, correspondence deadlines.
//!
//! A board stores its game's name and positions as FEN; every rule (whose turn, legal moves,
//! passes, eliminations, the outcome, seat swaps) comes from the game's
//! [`games::AnyPosition`], so this module never asks which game it runs.
//!
//! Each change runs in one write transaction that is committed before the change is answered
//! or announced, so an acknowledged move survives a crash.

use std::sync::Arc;

use games::Seat;

use crate::domain::clock::Clock;
use crate::domain::publish;
use crate::error::{Error, Result};
use crate::events::Publisher;
use crate::model::{ChatRow, GameFilter, GameRow, GameSummary, GameView, Status};
use crate::model::{Event, EventKind};
use crate::model::{PLAYERS, SPECTATORS};
use crate::store::{self, Storage, WriteTx};

mod challenge;
mod closing;
mod deadlines;
mod limits;
mod options;
mod play;
mod proposals;
mod search;
mod vacation;
mod view;
pub(crate) use challenge::open_board;
pub use closing::{Leaving, LeftBoards};
pub use options::{ChallengeOptions, OPTION_HELP};
pub use play::Queued;
pub use view::{replay, result_text, seat_outcome};

const DAY_MS: i64 = 24 * 3600 * 1000;
/// How long a live game waits for each player's first move (as on lichess, a player's clock
/// starts with their first move); past it the game is aborted, unrated.
pub const FIRST_MOVE_MS: i64 = 30_000;
/// The longest chat message.
pub const MAX_CHAT: usize = 2000;
/// The text of a pass in every game's notation.
const PASS: &str = "0000";

/// What a player does on a board with the `move` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Move text, read by the tolerant reader against the position.
    Play(String),
    Resign,
    /// Offer a draw.
    Propose,
    /// Ask to take the last move back.
    Undo,
    Accept,
    Reject,
}

impl Action {
    /// Reads a move word: the special words of spec section 5, else move text.
    pub fn parse(word: &str) -> Action {
        match word.to_ascii_lowercase().as_str() {
            "resign" => Action::Resign,
            "propose" | "draw" => Action::Propose,
            "undo" => Action::Undo,
            "accept" => Action::Accept,
            "reject" => Action::Reject,
            _ => Action::Play(word.to_string()),
        }
    }
}

/// An answer to a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Accept,
    Decline,
    /// The challenger takes the challenge back.
    Withdraw,
}

/// The game service.
#[derive(Clone)]
pub struct Games {
    storage: Storage,
    clock: Arc<Clock>,
    publisher: Publisher,
}

/// A change made in a transaction, announced once it is committed.
struct Change {
    kind: EventKind,
    game: GameRow,
}

impl Games {
    pub fn new(storage: Storage, clock: Arc<Clock>, publisher: Publisher) -> Games {
        Games {
            storage,
            clock,
            publisher,
        }
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Commits a transaction and announces its changes; returns the last change's summary. On a
    /// database several nodes share, a board's row lock orders its commits, so its events
    /// reach every node in version order ([`crate::events::Publisher::Notices`]).
    async fn commit(&self, tx: WriteTx, changes: Vec<Change>) -> Result<GameSummary> {
        let now = self.now_ms();
        let events: Vec<Event> = changes
            .into_iter()
            .map(|change| Event::new(change.kind, change.game.summary(now)))
            .collect();
        let last = events
            .last()
            .map(|event| GameSummary::clone(&event.game))
            .expect("every change announces at least one event");
        publish::commit_events(&self.publisher, tx, events, now).await?;
        Ok(last)
    }

    async fn load(conn: &mut store::Conn, board: i64) -> Result<GameRow> {
        store::game(conn, board)
            .await?
            .ok_or(Error::UnknownBoard(board))
    }

    /// Starts a write transaction and loads a board in it to change it; the transaction holds
    /// the board's row until it ends.
    async fn write_board(&self, board: i64) -> Result<(WriteTx, GameRow)> {
        let (tx, game) = self.storage.write_game(board).await?;
        Ok((tx, game.ok_or(Error::UnknownBoard(board))?))
    }

    /// Loads a board to change it in `conn`'s transaction, which holds its row until it ends.
    async fn lock(conn: &mut store::Conn, board: i64) -> Result<GameRow> {
        store::game_for_update(conn, board)
            .await?
            .ok_or(Error::UnknownBoard(board))
    }

    /// Adds a chat line to a board, without control characters ([`crate::domain::printable`]):
    /// to the players' channel from a player, to the spectators' from anyone else. A muted user's line is refused (on every door: they all come here).
    pub async fn chat(&self, board: i64, user: &str, body: &str) -> Result<ChatRow> {
        let body = crate::domain::printable::printable(body);
        let body = body.trim();
        if body.is_empty() {
            return Err(Error::Command("chat needs a message".into()));
        }
        if body.len() > MAX_CHAT {
            return Err(Error::TooLong {
                what: "a chat message",
                max: MAX_CHAT,
            });
        }
        let now = self.now_ms();
        let (mut tx, mut game) = self.write_board(board).await?;
        if let Some(until_ms) = store::muted_until(&mut tx, user).await? {
            if until_ms > now {
                return Err(Error::Muted {
                    user: user.to_string(),
                    minutes: (until_ms - now + 59_999) / 60_000,
                });
            }
        }
        let channel = match game.seat_of(user) {
            Some(_) => PLAYERS,
            None => SPECTATORS,
        };
        let chat = store::insert_chat(&mut tx, board, user, now, body, channel).await?;
        game.version += 1;
        store::update_game(&mut tx, &mut game).await?;
        let change = Change {
            kind: EventKind::Chat { chat: chat.clone() },
            game,
        };
        self.commit(tx, vec![change]).await?;
        Ok(chat)
    }

    pub async fn row(&self, board: i64) -> Result<GameRow> {
        let mut conn = self.storage.read().await?;
        Self::load(&mut conn, board).await
    }

    pub async fn summary(&self, board: i64) -> Result<GameSummary> {
        Ok(self.row(board).await?.summary(self.now_ms()))
    }

    /// A board with its moves and chat.
    pub async fn view(&self, board: i64) -> Result<GameView> {
        let mut conn = self.storage.read().await?;
        // Subscribers from the store, not the hub: on a cluster the hub learns of a change by a
        // notice that may still be on its way when its author asks to see the board.
        let mut rows = store::board_rows(&mut conn, board)
            .await?
            .ok_or(Error::UnknownBoard(board))?;
        replay(rows.game.kind(), &rows.game.start_fen, &mut rows.moves);
        Ok(GameView {
            summary: rows.game.summary(self.now_ms()),
            moves: rows.moves,
            chat: rows.chat,
            subscribers: rows.subscribers,
        })
    }

    /// Loads the subscriptions into the event hub, replacing what it held (at start, and on a
    /// cluster node after notices may have been lost).
    pub async fn load_subscriptions(&self) -> Result<()> {
        let mut conn = self.storage.read().await?;
        self.publisher
            .hub()
            .replace_subscriptions(store::subscriptions(&mut conn).await?);
        Ok(())
    }

    /// Starts or stops `user` following a board's events (spec section 3, `subscribe`).
    pub async fn subscribe(&self, board: i64, user: &str, on: bool) -> Result<GameSummary> {
        let (mut tx, game) = self.write_board(board).await?;
        store::set_subscription(&mut tx, board, user, on).await?;
        publish::commit_subscription(&self.publisher, tx, board, user, on).await?;
        Ok(game.summary(self.now_ms()))
    }

    pub async fn list(&self, filter: &GameFilter) -> Result<Vec<GameSummary>> {
        let mut conn = self.storage.read().await?;
        let now = self.now_ms();
        Ok(store::games(&mut conn, filter)
            .await?
            .iter()
            .map(|g| g.summary(now))
            .collect())
    }
}

/// Refuses a change that needs the board to be a challenge (answers) or in play (moves,
/// proposals) when it is not.
fn require_status(game: &GameRow, wanted: Status) -> Result<()> {
    if game.status == wanted {
        return Ok(());
    }
    let (board, status) = (game.board, game.status.to_string());
    Err(match wanted {
        Status::Challenge => Error::NotAChallenge { board, status },
        _ => Error::NotInPlay { board, status },
    })
}

/// The seat `user` plays on `board`, or the refusal for someone who is not one of its players.
fn seat_of(game: &GameRow, board: i64, user: &str) -> Result<Seat> {
    game.seat_of(user).ok_or_else(|| Error::NotAPlayer {
        board,
        user: user.to_string(),
    })
}

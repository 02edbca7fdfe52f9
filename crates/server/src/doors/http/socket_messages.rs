//! What a WebSocket client sends and what the server answers, apart from the socket itself: a
//! text message is read as a [`ClientMessage`] and answered with one JSON text (`pong`,
//! `snapshot`, `ack` or `error`). docs/server.md describes the protocol. Kept apart from the
//! socket so that the fuzzer (fuzz/checks.rs) drives the same path without a network.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::domain::games::Action;
use crate::error::Error;
use crate::App;

/// A message from a WebSocket client.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// A move or move word (resign, propose, undo, accept, reject), with the `#N` guard.
    Move {
        id: Option<Value>,
        board: Option<i64>,
        #[serde(rename = "move")]
        mv: String,
        guard: Option<i64>,
    },
    /// Send the board's snapshot again.
    Resync {
        board: Option<i64>,
    },
    Ping {
        id: Option<Value>,
    },
}

impl ClientMessage {
    /// Reads one text message.
    pub fn parse(text: &str) -> Result<ClientMessage, serde_json::Error> {
        serde_json::from_str(text)
    }
}

/// The `snapshot` message of a board: its whole view and version.
pub async fn snapshot(app: &App, board: i64) -> Result<String, Error> {
    let view = app.games.view(board).await?;
    Ok(json!({
        "type": "snapshot",
        "board": board,
        "version": view.summary.version,
        "ply": view.summary.ply,
        "game": view,
    })
    .to_string())
}

/// Answers one text message of a socket signed in as `user` (None: a watcher) and following
/// `stream_board` (None: a user's stream).
pub async fn answer(
    app: &App,
    user: Option<&str>,
    stream_board: Option<i64>,
    text: &str,
) -> String {
    let message = match ClientMessage::parse(text) {
        Ok(message) => message,
        Err(err) => {
            return json!({"type": "error", "code": "bad_message", "message": format!("bad message: {err}")})
                .to_string()
        }
    };
    match message {
        ClientMessage::Ping { id } => json!({"type": "pong", "id": id}).to_string(),
        ClientMessage::Resync { board } => match board.or(stream_board) {
            Some(board) => snapshot(app, board)
                .await
                .unwrap_or_else(|err| error_message(None, &err)),
            None => error_message(None, &Error::Command("resync needs a board".into())),
        },
        ClientMessage::Move {
            id,
            board,
            mv,
            guard,
        } => {
            let Some(user) = user else {
                return error_message(id, &Error::Auth);
            };
            let Some(board) = board.or(stream_board) else {
                return error_message(id, &Error::Command("move needs a board".into()));
            };
            match app.games.act(board, user, &Action::parse(&mv), guard).await {
                Ok(game) => json!({"type": "ack", "id": id, "board": board, "version": game.version, "ply": game.ply, "game": game}).to_string(),
                Err(err) => error_message(id, &err),
            }
        }
    }
}

/// The `error` message: the request's id, the error's code and words.
pub fn error_message(id: Option<Value>, err: &Error) -> String {
    json!({"type": "error", "id": id, "code": err.code(), "message": err.to_string()}).to_string()
}

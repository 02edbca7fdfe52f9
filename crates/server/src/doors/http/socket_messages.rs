//! What a WebSocket client sends and what the server answers, apart from the socket itself: a
//! text message is read as a [`ClientMessage`] and answered with one JSON text (`pong`,
//! `snapshot`, `ack`, `analysis_started`, `analysis_end` or `error`); a live analysis then
//! tells its news ([`news_message`]: `analysis_lines`, `analysis_end`). docs/server.md
//! describes the protocol. Kept apart from the socket so that the fuzzer (fuzz/checks.rs)
//! drives the same path without a network.

use std::net::IpAddr;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::domain::analysis::live::{EndReason, LiveNews, LiveSearch, Owner};
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
    /// Search a position live (the analysis board): `analysis_started`, then `analysis_lines`
    /// as the depth grows, then `analysis_end`. Replaces the socket's search, and its owner's.
    Analyse {
        id: Option<Value>,
        game: String,
        fen: String,
    },
    /// Stop the socket's live search.
    AnalyseStop {
        id: Option<Value>,
    },
}

/// Who sends a socket's messages: its signed-in user (None: a watcher or a visitor), from which
/// client address.
#[derive(Clone, Copy, Debug)]
pub struct Caller<'a> {
    pub user: Option<&'a str>,
    pub address: IpAddr,
}

impl Caller<'_> {
    /// Whose live analysis this socket's is: the user's, or a visitor's address's.
    fn owner(&self) -> Owner {
        match self.user {
            Some(user) => Owner::User(user.to_string()),
            None => Owner::Address(self.address),
        }
    }
}

impl ClientMessage {
    /// Reads one text message; Err is the `bad_message` reply.
    pub fn read(text: &str) -> Result<ClientMessage, String> {
        serde_json::from_str(text).map_err(|err| {
            json!({"type": "error", "code": "bad_message", "message": format!("bad message: {err}")})
                .to_string()
        })
    }

    /// Whether answering it starts or ends the socket's live analysis.
    pub fn is_analysis(&self) -> bool {
        matches!(
            self,
            ClientMessage::Analyse { .. } | ClientMessage::AnalyseStop { .. }
        )
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

/// Answers one message of a socket used by `caller` and following `stream_board` (None: a
/// user's stream); `live` is the socket's live analysis, which `analyse` and `analyse_stop`
/// replace and end.
pub async fn answer(
    app: &App,
    caller: Caller<'_>,
    stream_board: Option<i64>,
    message: ClientMessage,
    live: &mut Option<LiveSearch>,
) -> String {
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
            let Some(user) = caller.user else {
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
        ClientMessage::Analyse { id, game, fen } => {
            // The page moved on: its old search is of no use, whether the new one starts or not.
            *live = None;
            match app.live.start(caller.owner(), &game, &fen).await {
                Ok(search) => {
                    let started = json!({"type": "analysis_started", "id": id, "game": search.game.name(), "fen": search.fen});
                    *live = Some(search);
                    started.to_string()
                }
                Err(err) => error_message(id, &err),
            }
        }
        ClientMessage::AnalyseStop { id } => {
            let stopped = live.take();
            let end = json!({
                "type": "analysis_end",
                "id": id,
                "fen": stopped.as_ref().map(|search| search.fen.as_str()),
                "reason": EndReason::Stopped,
                "depth": stopped.as_ref().map_or(0, LiveSearch::depth),
            });
            end.to_string()
        }
    }
}

/// The message of a live analysis's news: `analysis_lines` or `analysis_end`.
pub fn news_message(news: &LiveNews) -> String {
    match news {
        LiveNews::Lines(lines) => {
            let mut message = json!(lines);
            message["type"] = json!("analysis_lines");
            message.to_string()
        }
        LiveNews::End { fen, reason, depth } => {
            json!({"type": "analysis_end", "fen": fen, "reason": reason, "depth": depth})
                .to_string()
        }
    }
}

/// The `error` message: the request's id, the error's code and words.
pub fn error_message(id: Option<Value>, err: &Error) -> String {
    json!({"type": "error", "id": id, "code": err.code(), "message": err.to_string()}).to_string()
}

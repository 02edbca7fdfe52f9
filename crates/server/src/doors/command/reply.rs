//! Replies: the text pbmserv mailed and its JSON, and the board as the reply to a change.

use serde::Serialize;
use serde_json::{json, Value};

use crate::doors::render::board;
use crate::error::{Error, Result};
use crate::model::GameSummary;
use crate::App;

/// A reply: a subject, the text pbmserv would have mailed, and the same as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct Reply {
    pub ok: bool,
    pub subject: String,
    pub text: String,
    pub data: Value,
}

impl Reply {
    pub(crate) fn ok(subject: impl Into<String>, text: impl Into<String>, data: Value) -> Reply {
        Reply {
            ok: true,
            subject: subject.into(),
            text: text.into(),
            data,
        }
    }

    /// The reply to a refused command; `board` is the board's mail when the error concerns one.
    pub fn error(err: &Error, board: Option<String>) -> Reply {
        let mut text = format!("error: {err}\n");
        if let Some(board) = &board {
            text.push('\n');
            text.push_str(board);
        }
        Reply {
            ok: false,
            subject: format!("error: {err}"),
            text,
            data: json!({"code": err.code(), "message": err.to_string()}),
        }
    }

    /// The JSON form: `{"ok", "subject", "text", "data"}` (`data` holds `code` and `message`
    /// for errors).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("replies serialize")
    }
}

pub(super) async fn board_mail(app: &App, board: i64, at: Option<usize>) -> Result<String> {
    let view = app.games.view(board).await?;
    Ok(board::mail(&view, at, app.games.now_ms()))
}

/// The reply to a change already committed: the board's mail, or, when the board cannot be read
/// back at once (the database refused a connection just after the commit), the board's summary
/// and why. A change that was made is never answered with an error, which would send its author
/// to repeat it.
pub(super) async fn board_reply(app: &App, game: GameSummary) -> Reply {
    let text = match board_mail(app, game.board, None).await {
        Ok(text) => text,
        Err(err) => {
            tracing::warn!(board = game.board, %err, "board not shown after a committed change");
            format!(
                "Done.\n{}\n\nThe board cannot be shown now ({err}); `show {}` shows it later.\n",
                summary_line(&game),
                game.board
            )
        }
    };
    Reply::ok(board::subject(&game), text, json!(game))
}

pub(super) fn summary_line(game: &GameSummary) -> String {
    format!(
        "{:>5}  {:<10} {} (x) vs {} (o)  {}",
        game.board,
        game.status,
        game.x,
        game.o,
        board::status(game)
    )
}
